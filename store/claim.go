package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Claim is a job taken by one replica for one poll. Token fences the writes
// made on its behalf: they fail with ErrStale once another claim or a
// follow-up has replaced it.
type Claim struct {
	// JobID is the claimed job's id.
	JobID string
	// Token is the job's fencing token at claim time.
	Token int64
	// Job is the record as it was at claim time. Job.NotifyAttempts above 0
	// means an earlier claim was handed a notification for this generation
	// and may have posted it.
	Job Job
	// Late is how long after its due time the job was claimed, by the Redis
	// clock: the poll lag.
	Late time.Duration
	// clock is the Redis clock the claim read, for Reschedule.
	clock clock
	// batch holds the Reschedules of the jobs its claim script took, to
	// write them with one script (settle.go); nil for a job claimed alone.
	batch *settleBatch
}

// Claim takes up to max jobs that are due (earliest first) and moves each a
// lease into the future, so that the job comes due again if this replica dies
// before writing back. Concurrent callers never get the same job while the
// lease holds. Schedule entries whose record is gone are dropped. It runs the
// claim script on the shards due by what this Store knows of their heads,
// starting at a rotating shard, until it has max: at most one script per
// shard, and none when nothing is due (see "Claiming at rest" in doc.go).
func (js Jobs) Claim(ctx context.Context, max int, lease time.Duration) ([]Claim, error) {
	s := js.s
	if max <= 0 {
		return nil, nil
	}
	if err := checkLease(lease); err != nil {
		return nil, err
	}
	items, err := s.claimDue(ctx, schedule{schedJobs, s.schedKey, "job:", fPolls}, max, lease)
	if err != nil {
		return nil, wrapErr(err, "store: claim")
	}
	claims := make([]Claim, 0, len(items))
	for _, item := range items {
		c, err := decodeClaim(item.v)
		if err != nil {
			return nil, err
		}
		c.clock, c.batch = item.clock, item.batch
		claims = append(claims, c)
	}
	return claims, nil
}

// ClaimWait is how long the poll's claim loop may sleep before its next
// Claim: until the earliest due time this Store knows of, or its next read
// of every shard (at most lookEvery). It asks Redis nothing; ok is always
// true (the signature of claim.Runner.NextDue).
func (js Jobs) ClaimWait(context.Context) (time.Duration, bool, error) {
	return js.s.claimWait(schedJobs), true, nil
}

// Changed tells the poll's claim loop to look again: this Store scheduled a
// job, or another Store said it did (a wake-up). The first call subscribes
// to the wake-ups, until Close.
func (js Jobs) Changed() <-chan struct{} { return js.s.changed(schedJobs) }

// decodeClaim decodes one {id, token, record, late ms} entry of the claim script.
func decodeClaim(v any) (Claim, error) {
	parts, ok := v.([]any)
	if !ok || len(parts) != 4 {
		return Claim{}, fmt.Errorf("store: claim: unexpected reply %v", v)
	}
	id, ok1 := parts[0].(string)
	tok, ok2 := parts[1].(int64)
	if !ok1 || !ok2 {
		return Claim{}, fmt.Errorf("store: claim: unexpected reply %v", v)
	}
	m, err := pairsToMap(parts[2])
	if err != nil {
		return Claim{}, err
	}
	j, err := decodeJob(id, m)
	if err != nil {
		return Claim{}, err
	}
	late, _ := parts[3].(int64)
	return Claim{JobID: id, Token: tok, Job: *j, Late: time.Duration(max(late, 0)) * time.Millisecond}, nil
}

// Release hands claims back on a graceful shutdown: each job whose claim is
// still current and which is still scheduled becomes due after (0: now, for
// another replica to take at once; see "Handing back" in the package doc
// for when it must wait), and its token moves on, so that late writes of
// this replica fail with ErrStale.
func (js Jobs) Release(ctx context.Context, claims []Claim, after time.Duration) error {
	s := js.s
	byShard := map[int][]any{}
	for _, c := range claims {
		c.batch.leave(c.JobID)
		i := threadShard(c.Job.Thread)
		byShard[i] = append(byShard[i], c.JobID, strconv.FormatInt(c.Token, 10))
	}
	for i, pairs := range byShard {
		args := append([]any{s.shardPrefix(i), s.jobKeyIn(i, ""), millis(after)}, pairs...)
		if err := s.sc.release.Run(ctx, s.rdb, []string{s.schedKey(i)}, args...).Err(); err != nil {
			return wrapErr(err, "store: release %d claims", len(claims))
		}
		s.scheduled(ctx, schedJobs, i, after, true)
	}
	return nil
}

// Tracked returns the number of scheduled jobs: those unfinished or whose
// finish is not yet reported.
func (js Jobs) Tracked(ctx context.Context) (int64, error) {
	s := js.s
	n, err := s.countShards(ctx, s.schedKey)
	if err != nil {
		return 0, wrapErr(err, "store: tracked")
	}
	return n, nil
}

// Scheduled reports whether the job with the given id is in the poll
// schedule: unfinished, or its finish not yet reported (false when its
// record is gone).
func (js Jobs) Scheduled(ctx context.Context, id string) (bool, error) {
	s := js.s
	i, err := s.findJob(ctx, id)
	if err != nil {
		return false, wrapErr(err, "store: scheduled %s", id)
	}
	if i < 0 {
		return false, nil
	}
	_, err = s.rdb.ZScore(ctx, s.schedKey(i), id).Result()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, wrapErr(err, "store: scheduled %s", id)
	}
	return true, nil
}
