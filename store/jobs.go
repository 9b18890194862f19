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
	keys := []string{s.jobKeyIn(i, j.ID), s.threadKey(j.Thread), s.schedKey(i), s.startKey(j.Thread)}
	// A job id is unique in the docs API; a record of it in another shard
	// means it is linked to another thread. On one server the script looks
	// (its keys in the other shards, which a cluster cannot give one
	// script) and writes the job lists too; a cluster asks before and
	// writes the lists after it (joblists.go).
	_, cluster := s.rdb.(*redis.ClusterClient)
	now := time.Now()
	lists, keeps, others := []string(nil), []int{runningKeep, RecentKeep}, 0
	if cluster {
		if elsewhere, err := s.linkedElsewhere(ctx, j.ID, i); err != nil {
			return wrapErr(err, "store: link job %s", j.ID)
		} else if elsewhere {
			return fmt.Errorf("store: link job %s to thread %s: %w", j.ID, j.Thread, ErrConflict)
		}
	} else {
		for o := range Shards {
			if o != i {
				keys = append(keys, s.jobKeyIn(o, j.ID))
				others++
			}
		}
		lists, keeps = s.listKeys(j, now)
		keys = append(keys, lists...)
	}
	args := append([]any{s.shardPrefix(i), j.ID, millis(firstPoll), created, keeps[0], keepAt(keeps, 1), millis(Retention), others}, encodeJob(j)...)
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
	} else if !cluster {
		s.listsWritten(lists, keeps, now)
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

// JobByThread returns the job linked to thread t, or ErrNotFound. The
// record is in the thread's shard (LinkJob writes it there): the link, then
// the record, two commands; a record not found there is looked for in every
// shard (Job).
func (js Jobs) JobByThread(ctx context.Context, t Thread) (*Job, error) {
	s := js.s
	id, err := s.rdb.Get(ctx, s.threadKey(t)).Result()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("store: thread %s: %w", t, ErrNotFound)
	}
	if err != nil {
		return nil, wrapErr(err, "store: thread %s", t)
	}
	m, err := s.rdb.HGetAll(ctx, s.jobKeyIn(threadShard(t), id)).Result()
	if err != nil {
		return nil, wrapErr(err, "store: job %s", id)
	}
	if len(m) == 0 {
		return js.Job(ctx, id)
	}
	return decodeJob(id, m)
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

// FollowUp restarts the job j.ID after a follow-up message, in one step:
// Generation+1, Status "active", no PRLink, Polls and NotifyAttempts 0, a
// new fencing token (every outstanding claim turns stale), no expiry on the
// record and its thread link, and the next poll firstPoll from now. It
// returns the updated job, or ErrNotFound. Only j.ID is needed; j.Thread
// (and j.Requester), as a record read gives them, spare the search of the
// record's shard and, on one server, let the script write the job lists.
//
// key names the follow-up (its delivery key) and makes the call idempotent:
// the record keeps the key of the last follow-up applied, and a call with the
// same key changes nothing and returns the job as it is, so a caller may
// retry FollowUp after an error or a crash without counting the follow-up
// twice. An empty key is always applied. Only the last key is kept: a
// repeat after a later follow-up of the same job would count again, which
// needs a crash and the next person's reply both within the first one's
// lease.
func (js Jobs) FollowUp(ctx context.Context, j Job, key string, firstPoll time.Duration) (*Job, error) {
	s := js.s
	id := j.ID
	i := -1
	if j.Thread.valid() {
		i = threadShard(j.Thread)
	}
	for range 2 {
		if i < 0 {
			var err error
			if i, err = s.findJob(ctx, id); err != nil {
				return nil, wrapErr(err, "store: follow-up %s", id)
			}
			if i < 0 {
				return nil, fmt.Errorf("store: follow-up %s: %w", id, ErrNotFound)
			}
			j.Thread = Thread{} // the lists' keys come from the record
		}
		updated, err := s.followUpIn(ctx, i, j, key, firstPoll)
		if errors.Is(err, ErrNotFound) && j.Thread.valid() {
			i = -1 // not in its thread's shard: look for it
			continue
		}
		return updated, err
	}
	return nil, fmt.Errorf("store: follow-up %s: %w", id, ErrNotFound)
}

// followUpIn runs luaFollowUp on the record of j.ID in shard i; on one
// server with j's thread known, the job lists in the script, else after it.
func (s *Store) followUpIn(ctx context.Context, i int, j Job, key string, firstPoll time.Duration) (*Job, error) {
	id := j.ID
	keys := []string{s.jobKeyIn(i, id), s.schedKey(i)}
	_, cluster := s.rdb.(*redis.ClusterClient)
	inScript := !cluster && j.Thread.valid()
	now := time.Now()
	lists, keeps := []string(nil), []int{runningKeep, RecentKeep}
	if inScript {
		lists, keeps = s.listKeys(j, now)
		keys = append(keys, lists...)
	}
	res, err := s.sc.followUp.Run(ctx, s.rdb, keys,
		s.shardPrefix(i), id, millis(firstPoll), key, keeps[0], keepAt(keeps, 1), millis(Retention)).Slice()
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
	if len(res) < 3 {
		return nil, fmt.Errorf("store: follow-up %s: short script reply", id)
	}
	m, err := pairsToMap(res[1])
	if err != nil {
		return nil, err
	}
	updated, err := decodeJob(id, m)
	if err != nil {
		return nil, err
	}
	s.scheduled(ctx, schedJobs, i, firstPoll, false)
	switch failed, _ := res[2].(int64); {
	case !inScript:
		s.listJobLogged(ctx, *updated)
	case failed != 0:
		s.log.Warn("the job lists missed a job; it may be left out of /docs-agent list", "job", id)
	default:
		s.listsWritten(lists, keeps, now)
	}
	return updated, nil
}
