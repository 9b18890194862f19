package store

// The inbox's scripts. A piece of work is a hash {p}in:{key} (k kind, d
// payload, ws its workspace (Workspace.String; absent in records written
// before it), rt received ms, kp keep ms, tk fencing token, at attempts,
// m:<name> checkpoints) and a member of the sorted set {p}inbox of its
// shard, scored by its due time, until it is done; then the hash is
// replaced by a string that keeps the key for the dedupe window
// (luaWorkDone).

// luaEnqueue: KEYS work, inbox; ARGV prefix, key, kind, payload, keep ms,
// lease ms, workspace. Returns {1, now} if queued, {0, now} if the key was seen before.
// With a lease above 0 the new work is queued claimed by its writer, as the
// claim script would (token 1, attempt 1), due when the lease ends
// (preclaim.go).
const luaEnqueue = luaCommon + `
local k, inbox = KEYS[1], KEYS[2]
if redis.call('EXISTS', k) == 1 then return {0, 0} end
local now = now_ms()
local lease = tonumber(ARGV[6])
if lease > 0 then
  redis.call('HSET', k, 'k', ARGV[3], 'd', ARGV[4], 'ws', ARGV[7], 'rt', now, 'kp', ARGV[5], 'tk', 1, 'at', 1)
  redis.call('ZADD', inbox, now + lease, ARGV[2])
else
  redis.call('HSET', k, 'k', ARGV[3], 'd', ARGV[4], 'ws', ARGV[7], 'rt', now, 'kp', ARGV[5], 'tk', 0, 'at', 0)
  redis.call('ZADD', inbox, now, ARGV[2])
end
return {1, now}
`

// luaRestoreWork: KEYS work, inbox; ARGV prefix, key, kind, payload, keep
// ms, workspace, received ms, token, attempts, lease ms, then checkpoint
// field/value pairs. It writes the record of work a failover lost back as
// its holder knows it, claimed by that holder (its token) for lease ms,
// unless the key holds anything (a record, done or not). Returns 1 if
// written, 0 if not.
const luaRestoreWork = luaCommon + `
local k, inbox = KEYS[1], KEYS[2]
if redis.call('EXISTS', k) == 1 then return 0 end
redis.call('HSET', k, 'k', ARGV[3], 'd', ARGV[4], 'ws', ARGV[6], 'rt', ARGV[7], 'kp', ARGV[5], 'tk', ARGV[8], 'at', ARGV[9])
if #ARGV >= 12 then redis.call('HSET', k, unpack(ARGV, 11)) end
redis.call('ZADD', inbox, now_ms() + tonumber(ARGV[10]), ARGV[2])
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

// luaWorkDone: KEYS work, inbox, and the audit stream when there are audit
// records; ARGV prefix, key, token, done ms (the replica's clock: it is for
// people reading the record), then per audit record its MINID (the
// replica's clock less the retention), its number of field/value strings
// and those. The record is replaced by a string "done <ms> attempt <n> kind
// <kind>" that keeps its key for the dedupe window: the payload and the
// checkpoints (what people wrote: a reply's text, an instruction) go with
// the hash, and no later fenced write can change it. The audit records are
// appended in the same step, so a piece of work's records are written once
// with its end (bot.AuditTrail.Work). A record that is a string already was
// done by an earlier call whose reply was lost: nothing is written again.
const luaWorkDone = luaCommon + `
local k, inbox, key = KEYS[1], KEYS[2], ARGV[2]
local f = redis.pcall('HMGET', k, 'tk', 'kp', 'k', 'at')
if f.err then return 0 end
if not f[1] then return NOTFOUND end
if f[1] ~= ARGV[3] then return STALE end
redis.call('ZREM', inbox, key)
redis.call('SET', k, 'done ' .. ARGV[4] .. ' attempt ' .. (f[4] or 0) .. ' kind ' .. (f[3] or ''),
  'PX', tonumber(f[2] or 3600000))
local i = 5
while i < #ARGV do
  local n = tonumber(ARGV[i + 1])
  redis.call('XADD', KEYS[3], 'MINID', '~', ARGV[i], '*', unpack(ARGV, i + 2, i + 1 + n))
  i = i + 2 + n
end
return 0
`
