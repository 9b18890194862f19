package store

import (
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Result codes the scripts return instead of errors.
const (
	codeNotFound = -1
	codeStale    = -2
	codeConflict = -3
)

// codeErr maps a script's result code to an error, or nil for codes >= 0.
func codeErr(code int64) error {
	switch code {
	case codeNotFound:
		return ErrNotFound
	case codeStale:
		return ErrStale
	case codeConflict:
		return ErrConflict
	}
	if code < 0 {
		return fmt.Errorf("store: unknown script result %d", code)
	}
	return nil
}

// luaNow defines now_ms(), the Redis clock in unix milliseconds. Every due
// time, lease, window and age is measured with it, never a replica's clock
// (a Reschedule's time is a claim's now_ms() moved on; doc.go, "Claiming
// at rest").
const luaNow = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`

// luaCommon is the head of every script. ARGV[1] is always the key prefix.
// Times are unix milliseconds from the Redis clock.
const luaCommon = luaNow + `
local P = ARGV[1]
local NOTFOUND, STALE, CONFLICT = -1, -2, -3

-- the thread link key of the job record at k, or nil
local function link_key(k)
  local f = redis.call('HMGET', k, 't', 'c', 's')
  if not f[1] or not f[2] or not f[3] then return nil end
  return P .. 'thread:' .. f[1] .. ':' .. f[2] .. ':' .. f[3]
end

-- delete the numbered fields name0, name1, ... of a chunked text
local function clear_chunks(k, name)
  local i = 0
  while redis.call('HDEL', k, name .. i) == 1 do i = i + 1 end
end

-- stop scheduling the job and let record and link expire after ms
local function retire(k, sched, id, ms)
  redis.call('ZREM', sched, id)
  redis.call('PEXPIRE', k, ms)
  local l = link_key(k)
  if l then redis.call('PEXPIRE', l, ms) end
end

-- put job id (score at, its creation) in the job lists KEYS[first], a
-- channel's running jobs, and KEYS[first+1] if given, its requester's
-- recent ones (joblists.go), each trimmed to its keep (ARGV[kr],
-- ARGV[kr+1]; 0: not trimmed this time, listTrims) and expiring after
-- ARGV[kr+2] ms; with pcall, last in a script, so that a list that cannot
-- be written leaves the script's change standing: returns 2 if one failed,
-- for the caller to log
local function write_lists(first, kr, id, at)
  local failed = 0
  for i = first, #KEYS do
    local keep = ARGV[kr]
    if i > first then keep = ARGV[kr + 1] end
    local r = redis.pcall('ZADD', KEYS[i], 'NX', at, id)
    if type(r) == 'table' and r.err then
      failed = 2
    else
      if tonumber(keep) > 0 then redis.pcall('ZREMRANGEBYRANK', KEYS[i], 0, -tonumber(keep) - 1) end
      redis.pcall('PEXPIRE', KEYS[i], ARGV[kr + 2])
    end
  end
  return failed
end

-- fencing: nil if the record exists and its token is tok, else a code; a
-- piece of work that is done is a string (luaWorkDone), and stale
local function check(k, tok)
  local cur = redis.pcall('HGET', k, 'tk')
  if type(cur) == 'table' then return STALE end
  if not cur then return NOTFOUND end
  if cur ~= tok then return STALE end
  return nil
end
`

// luaLink: KEYS job, link, sched, starting, then the job's keys in the
// other shards (none on a cluster: LinkJob asks before), then the job lists
// to write (none on a cluster: joblists.go); ARGV prefix, id, firstPoll ms,
// createdAt ms (0 = now), the running list's keep, the recent list's keep,
// the lists' retention ms, the number of other shards' keys, then
// field/value pairs. Returns CONFLICT if the job has a record in another
// shard (it is linked to another thread), 1 if created, 0 if it existed. The link replaces the thread's start claim (ClaimStart).
// The lists (KEYS[5] a channel's running jobs, KEYS[6] if given its
// requester's recent ones) are written on both paths, as listJob would,
// last and with pcall: a list that cannot be written (a key of another
// type) leaves the link standing and adds 2 to the reply, for the caller
// to log (a script is not rolled back on an error).
const luaLink = luaCommon + `
local k, lk, sched, id = KEYS[1], KEYS[2], KEYS[3], ARGV[2]
local others = tonumber(ARGV[8])
if others > 0 and redis.call('EXISTS', unpack(KEYS, 5, 4 + others)) > 0 then return CONFLICT end
local function list(at) return write_lists(5 + others, 5, id, at) end
local cur = redis.call('GET', lk)
if cur and cur ~= id then return CONFLICT end
local created = tonumber(ARGV[4])
if redis.call('EXISTS', k) == 1 then
  if link_key(k) ~= lk then return CONFLICT end
  redis.call('DEL', KEYS[4])
  if not cur then
    redis.call('SET', lk, id)
    local ttl = redis.call('PTTL', k)
    if ttl > 0 then redis.call('PEXPIRE', lk, ttl) end
  end
  if #KEYS > 4 + others then
    if created == 0 then created = now_ms() end
    return list(created)
  end
  return 0
end
local now = now_ms()
if created == 0 then created = now end
local f = {'g', 1, 'n', 0, 'na', 0, 'pl', 0, 'tk', 0, 'ca', created, 'ua', now}
for i = 9, #ARGV do f[#f + 1] = ARGV[i] end
redis.call('HSET', k, unpack(f))
redis.call('SET', lk, id)
redis.call('DEL', KEYS[4])
redis.call('ZADD', sched, now + tonumber(ARGV[3]), id)
return 1 + list(created)
`

// luaFollowUp: KEYS job, sched, then the job lists to write (none on a
// cluster: joblists.go); ARGV prefix, id, firstPoll ms, the follow-up's key
// ("" = none), the running list's keep, the recent list's keep, the lists'
// retention ms. A key equal to the last one applied ('fk') changes
// nothing: the follow-up was applied already. One HMGET reads what the
// script needs (a record always has 'g'); the new generation and token are
// written in its one HSET, as safe as HINCRBY in an atomic script.
// Returns {1, record, 2 if a job list failed else 0} or {NOTFOUND}.
const luaFollowUp = luaCommon + `
local k, sched, id, key = KEYS[1], KEYS[2], ARGV[2], ARGV[4]
local f = redis.call('HMGET', k, 'g', 'fk', 'tk', 't', 'c', 's', 'ca')
if not f[1] then return {NOTFOUND} end
if key ~= '' and f[2] == key then
  return {1, redis.call('HGETALL', k), 0}
end
local now = now_ms()
clear_chunks(k, 'l')
local h = {'g', tonumber(f[1]) + 1, 'tk', tonumber(f[3] or 0) + 1, 'st', 'active', 'pl', 0, 'na', 0, 'ua', now, 'rs', now}
if key ~= '' then
  h[#h + 1] = 'fk'
  h[#h + 1] = key
end
redis.call('HSET', k, unpack(h))
redis.call('PERSIST', k)
if f[4] and f[5] and f[6] then redis.call('SET', P .. 'thread:' .. f[4] .. ':' .. f[5] .. ':' .. f[6], id) end
redis.call('ZADD', sched, now + tonumber(ARGV[3]), id)
local failed = 0
if #KEYS > 2 then failed = write_lists(3, 5, id, tonumber(f[7]) or now) end
return {1, redis.call('HGETALL', k), failed}
`

// luaClaim: KEYS a schedule (the poll schedule or the inbox); ARGV prefix,
// the records' key prefix (P..'job:' or P..'in:'), max, lease ms, and the
// record's field that counts its claims ('pl', a job's polls; 'at', inbox
// work's attempts).
// Returns {a list of {id, token, record, late ms}, the due time of the
// schedule's head afterwards (-1 when empty), the Redis clock}.
//
// Its commands are counted (store/doc.go, "Claiming at rest"): one ZRANGE
// reads the max+1 first entries, which also tells the head left; per entry
// taken one HGETALL and one HSET (token, count); one ZADD moves them all
// a lease ahead. An entry whose record is gone is dropped; when that left
// fewer than max taken and every entry read was due, the head is reported
// due now, so that the caller looks again.
const luaClaim = luaCommon + `
local sched, rec = KEYS[1], ARGV[2]
local max = tonumber(ARGV[3])
local now = now_ms()
local due = now + tonumber(ARGV[4])
local count = ARGV[5]
local out, moved, gone = {}, {}, {}
local next = -1
local ids = redis.call('ZRANGE', sched, 0, max, 'WITHSCORES')
for i = 1, #ids, 2 do
  local id, score = ids[i], tonumber(ids[i + 1])
  if score > now or #out >= max then
    next = math.floor(score)
    break
  end
  local k = rec .. id
  local f = redis.call('HGETALL', k)
  if #f == 0 then
    gone[#gone + 1] = id
  else
    local tk, n, ti, ni = 1, 1, 0, 0
    for j = 1, #f, 2 do
      if f[j] == 'tk' then tk, ti = (tonumber(f[j + 1]) or 0) + 1, j + 1
      elseif f[j] == count then n, ni = (tonumber(f[j + 1]) or 0) + 1, j + 1 end
    end
    redis.call('HSET', k, 'tk', tk, count, n)
    if ni > 0 then f[ni] = tostring(n) else f[#f + 1] = count; f[#f + 1] = tostring(n) end
    if ti > 0 then f[ti] = tostring(tk) else f[#f + 1] = 'tk'; f[#f + 1] = tostring(tk) end
    moved[#moved + 1] = due
    moved[#moved + 1] = id
    out[#out + 1] = {id, tk, f, now - math.floor(score)}
  end
  if i + 1 == #ids and #ids > 2 * max then next = now end
end
if #gone > 0 then redis.call('ZREM', sched, unpack(gone)) end
if #moved > 0 then
  redis.call('ZADD', sched, unpack(moved))
  if next < 0 or next > due then next = due end
end
return {out, next, now}
`

// luaReschedule: KEYS the poll schedule of one shard; ARGV prefix, the
// records' key prefix (P..'job:'), then five per job: id, token, status, in
// ms, the Redis clock by its claim (unix ms; 0: read TIME). Returns one
// result code per job, in order.
//
// A job whose token still holds is due again `in` after its clock; its
// status (and 'ua', the time of the last change) is written only when it
// changed: the claim counted the poll ('pl'). So the reschedules of k jobs
// are EVALSHA, k HMGET and one ZADD, plus an HSET per status changed (and
// TIME once when a clock is missing).
const luaReschedule = luaCommon + `
local sched, rec = KEYS[1], ARGV[2]
local out, moved = {}, {}
local time
for i = 3, #ARGV - 4, 5 do
  local id, st = ARGV[i], ARGV[i + 2]
  local k = rec .. id
  local f = redis.call('HMGET', k, 'tk', 'st')
  if not f[1] then
    out[#out + 1] = NOTFOUND
  elseif f[1] ~= ARGV[i + 1] then
    out[#out + 1] = STALE
  else
    local now = tonumber(ARGV[i + 4])
    if now <= 0 then
      time = time or now_ms()
      now = time
    end
    if f[2] ~= st then redis.call('HSET', k, 'st', st, 'ua', now) end
    moved[#moved + 1] = now + tonumber(ARGV[i + 3])
    moved[#moved + 1] = id
    out[#out + 1] = 0
  end
end
if #moved > 0 then redis.call('ZADD', sched, unpack(moved)) end
return out
`

// luaFinish: KEYS job, sched; ARGV prefix, id, token, status, lease ms,
// retention ms, then the chunks of the pull request link.
// Returns 1 when the caller must notify, 0 when the finish was reported.
const luaFinish = luaCommon + `
local k, sched, id = KEYS[1], KEYS[2], ARGV[2]
local e = check(k, ARGV[3])
if e then return e end
local now = now_ms()
clear_chunks(k, 'l')
local f = {'st', ARGV[4], 'ua', now}
for i = 7, #ARGV do
  f[#f + 1] = 'l' .. (i - 7)
  f[#f + 1] = ARGV[i]
end
redis.call('HSET', k, unpack(f))
local gn = redis.call('HMGET', k, 'g', 'n')
if tonumber(gn[2] or 0) < tonumber(gn[1] or 0) then
  redis.call('HINCRBY', k, 'na', 1)
  redis.call('ZADD', sched, now + tonumber(ARGV[5]), id)
  return 1
end
retire(k, sched, id, tonumber(ARGV[6]))
return 0
`

// luaMarkNotified: KEYS job, sched; ARGV prefix, id, token, generation,
// retention ms.
const luaMarkNotified = luaCommon + `
local k, sched, id = KEYS[1], KEYS[2], ARGV[2]
if redis.call('EXISTS', k) == 0 then return NOTFOUND end
local gen = tonumber(ARGV[4])
if tonumber(redis.call('HGET', k, 'n') or 0) < gen then
  redis.call('HSET', k, 'n', gen, 'ua', now_ms())
end
if redis.call('HGET', k, 'tk') == ARGV[3] then
  retire(k, sched, id, tonumber(ARGV[5]))
end
return 0
`

// luaUntrack: KEYS job, sched; ARGV prefix, id, token, status, retention ms.
const luaUntrack = luaCommon + `
local k, sched, id = KEYS[1], KEYS[2], ARGV[2]
local e = check(k, ARGV[3])
if e then return e end
redis.call('HSET', k, 'st', ARGV[4], 'ua', now_ms())
retire(k, sched, id, tonumber(ARGV[5]))
return 0
`

// luaRelease: KEYS a schedule (the poll schedule or the inbox); ARGV prefix,
// the records' key prefix (P..'job:' or P..'in:'), the ms until they are
// due, then id/token pairs. Returns the number released.
const luaRelease = luaCommon + `
local sched, rec = KEYS[1], ARGV[2]
local due = now_ms() + tonumber(ARGV[3])
local n = 0
for i = 4, #ARGV - 1, 2 do
  local id = ARGV[i]
  local k = rec .. id
  if redis.pcall('HGET', k, 'tk') == ARGV[i + 1] and redis.call('ZSCORE', sched, id) then
    redis.call('HINCRBY', k, 'tk', 1)
    redis.call('ZADD', sched, due, id)
    n = n + 1
  end
end
return n
`

// luaOnceBy: KEYS the event's record; ARGV who records it, keep ms.
// Returns 1 when the record is new or already by that one, else 0.
const luaOnceBy = `
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
  return 1
end
if v == ARGV[1] then return 1 end
return 0
`

// scripts holds the Lua scripts of a Store.
type scripts struct {
	link, followUp, claim            *redis.Script
	reschedule, finish, markNotified *redis.Script
	untrack, release                 *redis.Script
	take, block, takeRetry, refund   *redis.Script
	saveVisitors, loadVisitors       *redis.Script
	enqueue, markWork                *redis.Script
	deferWork, workDone              *redis.Script
	restoreWork, onceBy              *redis.Script
	claimStart, releaseStart         *redis.Script
	digest                           digestScripts
	auditTrim                        *redis.Script
	callExpert, claimReminders       *redis.Script
	stopFollowing                    *redis.Script
	applySettings                    *redis.Script
}

func newScripts() scripts {
	return scripts{
		link:           redis.NewScript(luaLink),
		followUp:       redis.NewScript(luaFollowUp),
		claim:          redis.NewScript(luaClaim),
		reschedule:     redis.NewScript(luaReschedule),
		finish:         redis.NewScript(luaFinish),
		markNotified:   redis.NewScript(luaMarkNotified),
		untrack:        redis.NewScript(luaUntrack),
		release:        redis.NewScript(luaRelease),
		take:           redis.NewScript(luaTake),
		block:          redis.NewScript(luaBlock),
		takeRetry:      redis.NewScript(luaTakeRetry),
		refund:         redis.NewScript(luaRefund),
		saveVisitors:   redis.NewScript(luaSaveVisitors),
		loadVisitors:   redis.NewScript(luaLoadVisitors),
		enqueue:        redis.NewScript(luaEnqueue),
		markWork:       redis.NewScript(luaMarkWork),
		deferWork:      redis.NewScript(luaDeferWork),
		workDone:       redis.NewScript(luaWorkDone),
		restoreWork:    redis.NewScript(luaRestoreWork),
		onceBy:         redis.NewScript(luaOnceBy),
		claimStart:     redis.NewScript(luaClaimStart),
		releaseStart:   redis.NewScript(luaReleaseStart),
		digest:         newDigestScripts(),
		auditTrim:      redis.NewScript(luaAuditTrim),
		callExpert:     redis.NewScript(luaCallExpert),
		claimReminders: redis.NewScript(luaClaimReminders),
		stopFollowing:  redis.NewScript(luaStopFollowing),
		applySettings:  redis.NewScript(luaApplySettings),
	}
}
