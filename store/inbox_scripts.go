package store

// The inbox's scripts. A piece of work is a hash {p}in:{key} (k kind, d
// payload, rt received ms, kp keep ms, tk fencing token, at attempts, dn done
// ms, m:<name> checkpoints) and a member of the sorted set {p}inbox of its
// shard, scored by its due time while it is not done.

// luaEnqueue: KEYS work, inbox; ARGV prefix, key, kind, payload, keep ms. Returns 1 if queued, 0 if the
// key was seen before.
const luaEnqueue = luaCommon + `
local k, inbox = KEYS[1], KEYS[2]
if redis.call('EXISTS', k) == 1 then return 0 end
local now = now_ms()
redis.call('HSET', k, 'k', ARGV[3], 'd', ARGV[4], 'rt', now, 'kp', ARGV[5], 'tk', 0, 'at', 0)
redis.call('ZADD', inbox, now, ARGV[2])
return 1
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

// luaWorkDone: KEYS work, inbox; ARGV prefix, key, token. The record loses
// its payload and checkpoints (what people wrote: a reply's text, an
// instruction) and keeps the rest for the dedupe window.
const luaWorkDone = luaCommon + `
local k, inbox, key = KEYS[1], KEYS[2], ARGV[2]
local e = check(k, ARGV[3])
if e then return e end
redis.call('ZREM', inbox, key)
local drop = {'d'}
for _, f in ipairs(redis.call('HKEYS', k)) do
  if string.sub(f, 1, 2) == 'm:' then drop[#drop + 1] = f end
end
redis.call('HDEL', k, unpack(drop))
redis.call('HSET', k, 'dn', now_ms())
redis.call('PEXPIRE', k, tonumber(redis.call('HGET', k, 'kp') or 3600000))
return 0
`
