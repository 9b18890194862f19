package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// LinkJob stores a new job and links it to its thread in one step: the thread
// link, the record (Generation 1, Status as given or "active" when empty) and
// its first poll firstPoll from now (Redis clock). Linking the same job to the
// same thread again changes nothing. ErrConflict means the thread is linked to
// another job, or the job to another thread.
func (js Jobs) LinkJob(ctx context.Context, j Job, firstPoll time.Duration) error {
	s := js.s
	if j.ID == "" {
		return fmt.Errorf("store: link job: empty job id: %w", ErrInvalid)
	}
	if !j.Thread.valid() {
		return fmt.Errorf("store: link job %s: incomplete thread %q: %w", j.ID, j.Thread.String(), ErrInvalid)
	}
	if j.Status == "" {
		j.Status = "active"
	}
	var created int64
	if !j.CreatedAt.IsZero() {
		created = j.CreatedAt.UnixMilli()
	}
	i := threadShard(j.Thread)
	// A job id is unique in the docs API; a record of it in another shard
	// means it is linked to another thread.
	if elsewhere, err := s.linkedElsewhere(ctx, j.ID, i); err != nil {
		return wrapErr(err, "store: link job %s", j.ID)
	} else if elsewhere {
		return fmt.Errorf("store: link job %s to thread %s: %w", j.ID, j.Thread, ErrConflict)
	}
	args := append([]any{s.shardPrefix(i), j.ID, millis(firstPoll), created, runningKeep, RecentKeep, millis(Retention)}, encodeJob(j)...)
	keys := []string{s.jobKeyIn(i, j.ID), s.threadKey(j.Thread), s.schedKey(i), s.startKey(j.Thread)}
	// On one server the script writes the job lists too; a cluster writes
	// them after it (joblists.go).
	_, cluster := s.rdb.(*redis.ClusterClient)
	if !cluster {
		keys = append(keys, s.runningKey(j.Thread.Team, j.Thread.Channel))
		if j.Requester != "" {
			keys = append(keys, s.recentKey(j.Thread.Team, j.Requester))
		}
	}
	code, err := s.sc.link.Run(ctx, s.rdb, keys, args...).Int64()
	if err != nil {
		return wrapErr(err, "store: link job %s", j.ID)
	}
	if err := codeErr(code); err != nil {
		return wrapErr(err, "store: link job %s to thread %s", j.ID, j.Thread)
	}
	if code >= 2 { // the script's job lists failed; the link stands
		code -= 2
		s.log.Warn("the job lists missed a job; it may be left out of /docs-agent list", "job", j.ID)
	}
	if code == 1 {
		s.scheduled(ctx, schedJobs, i, firstPoll, false)
	}
	s.confirmBestEffort(ctx)
	if cluster {
		s.listJobLogged(ctx, j)
	}
	return nil
}

// JobByThread returns the job linked to thread t, or ErrNotFound.
func (js Jobs) JobByThread(ctx context.Context, t Thread) (*Job, error) {
	s := js.s
	id, err := s.rdb.Get(ctx, s.threadKey(t)).Result()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("store: thread %s: %w", t, ErrNotFound)
	}
	if err != nil {
		return nil, wrapErr(err, "store: thread %s", t)
	}
	return js.Job(ctx, id)
}

// Job returns the job with the given id, or ErrNotFound. The id alone does
// not name the shard, so it looks in all of them (one pipeline).
func (js Jobs) Job(ctx context.Context, id string) (*Job, error) {
	s := js.s
	i, err := s.findJob(ctx, id)
	if err != nil {
		return nil, wrapErr(err, "store: job %s", id)
	}
	if i < 0 {
		return nil, fmt.Errorf("store: job %s: %w", id, ErrNotFound)
	}
	m, err := s.rdb.HGetAll(ctx, s.jobKeyIn(i, id)).Result()
	if err != nil {
		return nil, wrapErr(err, "store: job %s", id)
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("store: job %s: %w", id, ErrNotFound)
	}
	return decodeJob(id, m)
}

// FollowUp restarts a job after a follow-up message, in one step: Generation+1,
// Status "active", no PRLink, Polls and NotifyAttempts 0, a new fencing token
// (every outstanding claim turns stale), no expiry on the record and its
// thread link, and the next poll firstPoll from now. It returns the updated
// job, or ErrNotFound.
//
// key names the follow-up (its delivery key) and makes the call idempotent:
// the record keeps the key of the last follow-up applied, and a call with the
// same key changes nothing and returns the job as it is, so a caller may
// retry FollowUp after an error or a crash without counting the follow-up
// twice. An empty key is always applied. Only the last key is kept: a
// repeat after a later follow-up of the same job would count again, which
// needs a crash and the next person's reply both within the first one's
// lease.
func (js Jobs) FollowUp(ctx context.Context, id, key string, firstPoll time.Duration) (*Job, error) {
	s := js.s
	i, err := s.findJob(ctx, id)
	if err != nil {
		return nil, wrapErr(err, "store: follow-up %s", id)
	}
	if i < 0 {
		return nil, fmt.Errorf("store: follow-up %s: %w", id, ErrNotFound)
	}
	res, err := s.sc.followUp.Run(ctx, s.rdb, []string{s.jobKeyIn(i, id), s.schedKey(i)},
		s.shardPrefix(i), id, millis(firstPoll), key).Slice()
	if err != nil {
		return nil, wrapErr(err, "store: follow-up %s", id)
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("store: follow-up %s: empty script reply", id)
	}
	code, _ := res[0].(int64)
	if err := codeErr(code); err != nil {
		return nil, wrapErr(err, "store: follow-up %s", id)
	}
	if len(res) < 2 {
		return nil, fmt.Errorf("store: follow-up %s: short script reply", id)
	}
	m, err := pairsToMap(res[1])
	if err != nil {
		return nil, err
	}
	j, err := decodeJob(id, m)
	if err != nil {
		return nil, err
	}
	s.scheduled(ctx, schedJobs, i, firstPoll, false)
	s.listJobLogged(ctx, *j)
	return j, nil
}
