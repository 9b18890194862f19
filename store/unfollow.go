package store

import (
	"context"
	"fmt"
)

// luaStopFollowing: KEYS the thread's link; ARGV the job records' key
// prefix (P..'job:'). The run under way (Generation not yet Notified) is
// marked no longer followed ('uf' = its generation); a run already
// reported is left as it is. Returns {1, id, record} or {NOTFOUND}.
const luaStopFollowing = luaCommon + `
local id = redis.call('GET', KEYS[1])
if not id then return {NOTFOUND} end
local k = ARGV[1] .. id
if redis.call('EXISTS', k) == 0 then return {NOTFOUND} end
local g = tonumber(redis.call('HGET', k, 'g') or '0')
if tonumber(redis.call('HGET', k, 'n') or '0') < g then
  redis.call('HSET', k, 'uf', g)
end
return {1, id, redis.call('HGETALL', k)}
`

// StopFollowing marks the run under way of the job linked to thread t as no
// longer followed in Slack (Stop in the assistant pane), and returns the job
// as marked, or ErrNotFound. The mark is the record's: every replica's
// poller reads it with its claim (Job.Followed) and edits the job's live
// message no more, while the run's result is still reported once. It holds
// for the marked generation only: a follow-up starts a run that is
// followed. A run already reported is not marked (Job.Followed stays true:
// there was nothing left to follow). Marking twice is harmless.
func (js Jobs) StopFollowing(ctx context.Context, t Thread) (*Job, error) {
	s := js.s
	if !t.valid() {
		return nil, fmt.Errorf("store: stop following thread %q: %w", t.String(), ErrInvalid)
	}
	res, err := s.sc.stopFollowing.Run(ctx, s.rdb, []string{s.threadKey(t)}, s.shardPrefix(threadShard(t))+"job:").Slice()
	if err != nil {
		return nil, wrapErr(err, "store: stop following thread %s", t)
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("store: stop following thread %s: empty script reply", t)
	}
	code, _ := res[0].(int64)
	if err := codeErr(code); err != nil {
		return nil, wrapErr(err, "store: stop following thread %s", t)
	}
	if len(res) < 3 {
		return nil, fmt.Errorf("store: stop following thread %s: short script reply", t)
	}
	id, _ := res[1].(string)
	m, err := pairsToMap(res[2])
	if err != nil {
		return nil, err
	}
	return decodeJob(id, m)
}
