package store

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// The job lists: a person's recent jobs and a channel's running ones, for
// "/docs-agent list". They are indexes of job ids (sorted sets scored by the
// job's creation time) beside the records, written with plain commands after
// the script that changed the record (LinkJob, FollowUp, Finish, Untrack)
// rather than inside it: a person's or a channel's jobs live in many threads,
// whose records are not in one hash slot. On one server (standalone or
// Sentinel), where a script may touch keys of any slot, LinkJob and
// FollowUp (given the record) write them in their scripts (write_lists in
// luaCommon), as listJob would. An index may therefore lag its
// records for a moment or keep an id whose record expired; the readers
// (RecentJobs, RunningJobs) read every record and skip (and drop) the ids
// that do not match.
const (
	// RecentKeep is how many jobs a person's list keeps.
	RecentKeep = 20
	// runningKeep bounds a channel's list of running jobs, should the
	// finishes of some never be recorded.
	runningKeep = 200
)

func (s *Store) recentKey(team, user string) string {
	return s.prefix + "recent:" + team + ":" + user
}

func (s *Store) runningKey(team, channel string) string {
	return s.prefix + "running:" + team + ":" + channel
}

// listTrimEvery is how often one replica trims a job list to its keep.
// Every write adds to the list and extends its expiry; the trims in
// between are left out, one command a list a write, so a list may hold
// its keep and the jobs added since its last trim, at most an hour's: the
// readers take the newest ids only (listed; RecentJobs is bounded by
// RecentKeep).
const listTrimEvery = time.Hour

// listTrimsKept bounds the lists a replica remembers trimming; past it, it
// forgets them all, and trims each again at its next write.
const listTrimsKept = 4096

// listTrims is when this Store last trimmed each job list (listTrimEvery).
type listTrims struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// keep is keep if the list at key is due a trim at now, else 0 (not
// trimmed this time, luaCommon's write_lists).
func (lt *listTrims) keep(key string, keep int, now time.Time) int {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if t, ok := lt.last[key]; ok && now.Sub(t) < listTrimEvery {
		return 0
	}
	return keep
}

// trimmed records that the lists at keys were trimmed at now.
func (lt *listTrims) trimmed(now time.Time, keys ...string) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if lt.last == nil || len(lt.last)+len(keys) > listTrimsKept {
		lt.last = make(map[string]time.Time, len(keys))
	}
	for _, k := range keys {
		lt.last[k] = now
	}
}

// listKeys are the job lists j is written to: its channel's running jobs,
// then its requester's recent ones when it has a requester; keeps are
// their keeps, 0 for a list not due a trim (listTrims).
func (s *Store) listKeys(j Job, now time.Time) (keys []string, keeps []int) {
	keys = []string{s.runningKey(j.Thread.Team, j.Thread.Channel)}
	keeps = []int{s.trims.keep(keys[0], runningKeep, now)}
	if j.Requester != "" {
		rk := s.recentKey(j.Thread.Team, j.Requester)
		keys = append(keys, rk)
		keeps = append(keeps, s.trims.keep(rk, RecentKeep, now))
	}
	return keys, keeps
}

// keepAt is keeps[i], or 0 past its end (a job without a requester has no
// recent list).
func keepAt(keeps []int, i int) int {
	if i < len(keeps) {
		return keeps[i]
	}
	return 0
}

// listsWritten records the trims of a write of keys with keeps that went
// through.
func (s *Store) listsWritten(keys []string, keeps []int, now time.Time) {
	var done []string
	for i, k := range keys {
		if keeps[i] > 0 {
			done = append(done, k)
		}
	}
	if len(done) > 0 {
		s.trims.trimmed(now, done...)
	}
}

// listJob puts j in its requester's recent jobs and its channel's running
// jobs.
func (s *Store) listJob(ctx context.Context, j Job) error {
	at := j.CreatedAt
	if at.IsZero() {
		at = time.Now()
	}
	now := time.Now()
	keys, keeps := s.listKeys(j, now)
	member := redis.Z{Score: float64(at.UnixMilli()), Member: j.ID}
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, k := range keys {
			p.ZAddNX(ctx, k, member)
			if keeps[i] > 0 {
				p.ZRemRangeByRank(ctx, k, 0, int64(-keeps[i]-1))
			}
			p.PExpire(ctx, k, Retention)
		}
		return nil
	})
	if err != nil {
		return wrapErr(err, "store: list job %s", j.ID)
	}
	s.listsWritten(keys, keeps, now)
	return nil
}

// listJobLogged is listJob after a script that changed j's record: the
// change stands whatever happens to the lists, which tolerate lag, so a
// failure is logged, not returned (a caller would retry a change already
// made).
func (s *Store) listJobLogged(ctx context.Context, j Job) {
	if err := s.listJob(ctx, j); err != nil {
		s.log.Warn("the job lists missed a job; it may be left out of /docs-agent list", "job", j.ID, "err", err)
	}
}

// unlistRunning takes j off its channel's running jobs. A failure only
// leaves an id that RunningJobs skips, so it is not reported.
func (s *Store) unlistRunning(ctx context.Context, j Job) {
	_ = s.rdb.ZRem(ctx, s.runningKey(j.Thread.Team, j.Thread.Channel), j.ID).Err()
}

// RecentJobs returns up to n of the jobs user started in team, newest first
// (at most RecentKeep are kept, for the retention period).
func (js Jobs) RecentJobs(ctx context.Context, team, user string, n int) ([]Job, error) {
	s := js.s
	n = min(n, RecentKeep)
	return s.listed(ctx, s.recentKey(team, user), n, func(j *Job) bool { return j.Requester == user })
}

// RunningJobs returns up to n of the jobs of a channel whose latest run has
// not been reported finished, newest first. Finish and Untrack take a job
// off the list; a job whose final status is recorded but not yet reported
// is still on it (the caller may tell it by its Status).
func (js Jobs) RunningJobs(ctx context.Context, team, channel string, n int) ([]Job, error) {
	s := js.s
	return s.listed(ctx, s.runningKey(team, channel), n, func(j *Job) bool {
		return j.Thread.Channel == channel && j.Notified < j.Generation
	})
}

// listed reads the records of the newest n ids of the index at key that
// keep says still belong there, dropping from the index those that do not.
func (s *Store) listed(ctx context.Context, key string, n int, keep func(*Job) bool) ([]Job, error) {
	if n <= 0 {
		return nil, nil
	}
	ids, err := s.rdb.ZRevRange(ctx, key, 0, int64(n)*2).Result()
	if err != nil {
		return nil, wrapErr(err, "store: list %s", key)
	}
	var out []Job
	var gone []any
	for _, id := range ids {
		if len(out) == n {
			break
		}
		j, err := s.Jobs().Job(ctx, id)
		if errors.Is(err, ErrNotFound) {
			gone = append(gone, id)
			continue
		}
		if err != nil {
			return nil, err
		}
		if !keep(j) {
			gone = append(gone, id)
			continue
		}
		out = append(out, *j)
	}
	if len(gone) > 0 {
		_ = s.rdb.ZRem(ctx, key, gone...).Err()
	}
	return out, nil
}
