package store

// The inbox's scripts. A piece of work is a hash {p}in:{key} (k kind, d
// payload, rt received ms, kp keep ms, tk fencing token, at attempts, dn done
// ms by the clock of the replica that did it, m:<name> checkpoints) and a
// member of the sorted set {p}inbox of its shard, scored by its due time
// while it is not done.

// luaEnqueue: KEYS work, inbox; ARGV prefix, key, kind, payload, keep ms,
// lease ms. Returns {1, now} if queued, {0, now} if the key was seen before.
// With a lease above 0 the new work is queued claimed by its writer, as the
// claim script would (token 1, attempt 1), due when the lease ends
// (preclaim.go).
const luaEnqueue = luaCommon + `
local k, inbox = KEYS[1], KEYS[2]
if redis.call('EXISTS', k) == 1 then return {0, 0} end
local now = now_ms()
local lease = tonumber(ARGV[6])
if lease > 0 then
  redis.call('HSET', k, 'k', ARGV[3], 'd', ARGV[4], 'rt', now, 'kp', ARGV[5], 'tk', 1, 'at', 1)
  redis.call('ZADD', inbox, now + lease, ARGV[2])
else
  redis.call('HSET', k, 'k', ARGV[3], 'd', ARGV[4], 'rt', now, 'kp', ARGV[5], 'tk', 0, 'at', 0)
  redis.call('ZADD', inbox, now, ARGV[2])
end
return {1, now}
`

// luaMarkWork: KEYS work, inbox; ARGV prefix, key, token, lease ms (0 keeps
// the due time), then field/value pairs.
const luaMarkWork = luaCommon + `
local k, inbox, key = KEYS[1], KEYS[2], ARGV[2]
local e = check(k, ARGV[3])
if e then return e end
if #ARGV >= 6 then redis.call('HSET', k, unpack(ARGV, 5)) end
local lease = tonumber(ARGV[4])
if lease > 0 then redis.call('ZADD', inbox, 'XX', now_ms() + lease, key) end
return 0
`

// luaDeferWork: KEYS work, inbox; ARGV prefix, key, token, in ms.
const luaDeferWork = luaCommon + `
local k, inbox, key = KEYS[1], KEYS[2], ARGV[2]
local e = check(k, ARGV[3])
if e then return e end
redis.call('ZADD', inbox, 'XX', now_ms() + tonumber(ARGV[4]), key)
return 0
`

// luaWorkDone: KEYS work, inbox; ARGV prefix, key, token, done ms (the
// replica's clock: dn is for people reading the record). The record loses
// its payload and checkpoints (what people wrote: a reply's text, an
// instruction) and keeps the rest for the dedupe window: it is written anew
// with the fields kept, so that the checkpoints need not be listed.
const luaWorkDone = luaCommon + `
local k, inbox, key = KEYS[1], KEYS[2], ARGV[2]
local f = redis.call('HMGET', k, 'tk', 'kp', 'k', 'rt', 'at')
if not f[1] then return NOTFOUND end
if f[1] ~= ARGV[3] then return STALE end
redis.call('ZREM', inbox, key)
redis.call('DEL', k)
redis.call('HSET', k, 'tk', f[1], 'kp', f[2] or 3600000, 'k', f[3] or '', 'rt', f[4] or 0, 'at', f[5] or 0, 'dn', ARGV[4])
redis.call('PEXPIRE', k, tonumber(f[2] or 3600000))
return 0
`
