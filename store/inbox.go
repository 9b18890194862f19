package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Work is one piece of Slack work that docsbot acknowledged: a slash command,
// a thread reply, a mention. It is written to the inbox before the envelope
// is acknowledged, and taken from there by any replica.
type Work struct {
	// Key identifies the delivery and drops redelivered ones: for example
	// "cmd:" + trigger_id or "ev:" + event_id.
	Key string
	// Kind names the handler that does the work.
	Kind string
	// Payload is what the handler needs; the store does not read it.
	Payload []byte
	// Workspace is the Slack workspace the work is for; zero for the one
	// workspace (and for work recorded before work named it).
	Workspace Workspace
}

// Taken is a piece of work claimed by one replica. Token fences the writes
// made on its behalf (Mark, Defer, Done): they fail with ErrStale once the
// lease ran out and another replica claimed the work.
type Taken struct {
	Work
	// Token is the work's fencing token at claim time.
	Token int64
	// Attempt counts the claims of this work, this one included: above 1, an
	// earlier attempt may have done part of it (see Marks).
	Attempt int
	// Received is when the work was queued, by the Redis clock.
	Received time.Time
	// Late is how long after its due time the work was claimed.
	Late time.Duration
	// Marks are the checkpoints earlier attempts wrote with Mark.
	Marks map[string]string
}

// minInboxKeep is the shortest dedupe window Enqueue takes.
const minInboxKeep = time.Second

// Enqueue records w in the inbox, due at once, unless work with the same key
// was recorded before: it reports whether w is new. A new record stays until
// Done, and then for keep more, so that a redelivery within keep is dropped.
// When this Store's claim loop has a free worker (its last ClaimWork took
// fewer than it asked for), new work is recorded claimed by this Store
// instead, under the lease of that ClaimWork, and the next ClaimWork hands
// it out (preclaim.go).
//
// With WithReplicaAcks, Enqueue returns only once the replicas asked for
// have the record (new or seen before); when too few confirm in time it
// fails with ErrUnconfirmed, which is Temporary: the record stands on the
// primary, and a retry reports it seen before (false) once it is confirmed.
// With ErrUnconfirmed, queued is still meaningful: it reports whether this
// call wrote w. Once the write is made, its confirmation is waited for even
// if ctx ends meanwhile (for at most the replicas' timeout and a margin), so
// that a caller out of time still learns that the record stands: a failure
// to confirm a write that went through is ErrUnconfirmed too.
func (ib Inbox) Enqueue(ctx context.Context, w Work, keep time.Duration) (queued bool, err error) {
	s := ib.s
	if w.Key == "" || w.Kind == "" {
		return false, fmt.Errorf("store: enqueue: empty key or kind: %w", ErrInvalid)
	}
	if keep < minInboxKeep {
		return false, fmt.Errorf("store: enqueue %q: keep %v must be at least %v: %w", w.Key, keep, minInboxKeep, ErrInvalid)
	}
	i := shardOf(w.Key)
	lease := s.pre.reserve()
	sent := time.Now()
	res, err := s.sc.enqueue.Run(ctx, s.rdb, []string{s.workKeyIn(i, w.Key), s.inboxKey(i)},
		s.shardPrefix(i), w.Key, w.Kind, w.Payload, millis(keep), millis(lease), w.Workspace.String()).Int64Slice()
	if err == nil && len(res) != 2 {
		err = fmt.Errorf("unexpected reply %v", res)
	}
	if err != nil {
		if lease > 0 {
			s.pre.free()
		}
		return false, wrapErr(err, "store: enqueue %q", w.Key)
	}
	n := res[0]
	switch {
	case n == 1 && lease > 0:
		// The caller wakes its claim loop (the bot after its ack), and
		// ClaimWait lets the loop sleep no more while work is held.
		t := Taken{Work: w, Token: 1, Attempt: 1, Received: time.UnixMilli(res[1])}
		if !s.pre.hold(t, sent, lease) {
			// The claim loop stopped meanwhile: the others take it now.
			if err := s.release(context.WithoutCancel(ctx), []Taken{t}, 0); err != nil {
				return true, fmt.Errorf("store: enqueue %q: hand back to the other replicas: %w", w.Key, err)
			}
			break
		}
		s.lowerQuiet(schedWork, i, sent.Add(lease))
	case n == 1:
		s.scheduled(ctx, schedWork, i, 0, false)
	case lease > 0:
		s.pre.free()
	}
	// Slack is acknowledged once this returns: the record, new or seen
	// before (a redelivery relies on it as much), must be on the replicas
	// asked for, or a failover could lose acknowledged work.
	if err := s.confirmed(ctx); err != nil {
		return n == 1, fmt.Errorf("store: enqueue %q: %w", w.Key, err)
	}
	return n == 1, nil
}

// ClaimWork takes up to max pieces of due work, oldest first, and moves each
// a lease into the future, so that it comes due again if this replica dies
// before Done. Concurrent callers never get the same work while the lease
// holds; an empty Mark extends it. Work this Store queued claimed by itself
// comes first, without a claim script (preclaim.go); max less what it
// returns is the room Enqueue then claims for.
func (ib Inbox) ClaimWork(ctx context.Context, max int, lease time.Duration) ([]Taken, error) {
	s := ib.s
	if max <= 0 {
		return nil, nil
	}
	if err := checkLease(lease); err != nil {
		return nil, err
	}
	if d, ok := s.pre.wait(); ok && d > 0 {
		// Held work goes out no sooner than handOutAfter after its write.
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
	out := s.pre.take(max, lease)
	if len(out) < max {
		items, err := s.claimDue(ctx, schedule{schedWork, s.inboxKey, "in:", "at"}, max-len(out), lease)
		if err != nil && len(out) == 0 {
			return nil, wrapErr(err, "store: claim work")
		}
		// With work held in hand, a failed claim script is left to the
		// next call: the held work is claimed already.
		for _, item := range items {
			t, err := decodeTaken(item.v)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
		}
	}
	s.pre.setRoom(max - len(out))
	return out, nil
}

// ClaimWait is how long the inbox's claim loop may sleep before its next
// ClaimWork: until the earliest due time this Store knows of, or its next
// read of every shard (at most lookEvery); not at all while work queued
// claimed by this Store is held (preclaim.go). It asks Redis nothing; ok is
// always true (the signature of claim.Runner.NextDue).
func (ib Inbox) ClaimWait(context.Context) (time.Duration, bool, error) {
	if _, ok := ib.s.pre.wait(); ok {
		return 0, true, nil
	}
	return ib.s.claimWait(schedWork), true, nil
}

// Changed tells the inbox's claim loop to look again: this Store queued or
// deferred work, or another Store said it handed work back (a wake-up). The
// first call subscribes to the wake-ups, until Close.
func (ib Inbox) Changed() <-chan struct{} { return ib.s.changed(schedWork) }

// Mark records checkpoints of t (a root message posted, a create call about
// to be made) and extends its lease by lease from now (0 keeps the due time,
// and reads no Redis clock).
// A later attempt reads them in Taken.Marks.
func (ib Inbox) Mark(ctx context.Context, t Taken, lease time.Duration, marks map[string]string) error {
	s := ib.s
	args := []any{s.shardPrefix(shardOf(t.Key)), t.Key, strconv.FormatInt(t.Token, 10), millis(lease)}
	for k, v := range marks {
		args = append(args, "m:"+k, v)
	}
	if err := s.workWrite(ctx, "mark", t, s.sc.markWork, args); err != nil {
		return err
	}
	if len(marks) > 0 {
		// A checkpoint says a step that must not be repeated (a post, a
		// create) was done: it should survive a failover (best effort:
		// the work was acknowledged, and its handler retries).
		s.confirmBestEffort(ctx)
	}
	return nil
}

// Restore writes back the record of t, which a failover lost (a fenced
// write of its holder found nothing: ErrNotFound), as its holder knows it:
// its kind, payload and workspace, its attempts, and marks, the checkpoints
// its attempts wrote, claimed by the holder (t.Token) for lease from now
// (at least a millisecond). keep is the dedupe window its Enqueue was given.
// Nothing is written when the key holds anything (a record, or the trace of
// one done): restored reports whether it wrote.
//
// A record is lost so only when it stood on a primary alone: a write no
// replica confirmed (Enqueue's ErrUnconfirmed, a Mark's best effort) before
// that primary died. Nothing else deletes a record that is not done.
func (ib Inbox) Restore(ctx context.Context, t Taken, keep, lease time.Duration, marks map[string]string) (restored bool, err error) {
	s := ib.s
	if t.Key == "" || t.Kind == "" {
		return false, fmt.Errorf("store: restore: empty key or kind: %w", ErrInvalid)
	}
	i := shardOf(t.Key)
	args := []any{s.shardPrefix(i), t.Key, t.Kind, t.Payload, millis(max(keep, minInboxKeep)), t.Workspace.String(),
		t.Received.UnixMilli(), strconv.FormatInt(t.Token, 10), t.Attempt, max(millis(lease), 1)}
	for k, v := range marks {
		args = append(args, "m:"+k, v)
	}
	n, err := s.sc.restoreWork.Run(ctx, s.rdb, []string{s.workKeyIn(i, t.Key), s.inboxKey(i)}, args...).Int64()
	if err != nil {
		return false, wrapErr(err, "store: restore work %q", t.Key)
	}
	if n == 1 {
		s.scheduled(ctx, schedWork, i, lease, false)
		s.confirmBestEffort(ctx)
	}
	return n == 1, nil
}

// Defer hands t back to be claimed again in d (by any replica): the work
// could not be done now but may be later.
func (ib Inbox) Defer(ctx context.Context, t Taken, d time.Duration) error {
	s := ib.s
	i := shardOf(t.Key)
	if err := s.workWrite(ctx, "defer", t, s.sc.deferWork,
		[]any{s.shardPrefix(i), t.Key, strconv.FormatInt(t.Token, 10), millis(d)}); err != nil {
		return err
	}
	s.scheduled(ctx, schedWork, i, d, false)
	return nil
}

// Done removes t from the inbox. Its record stays for the keep given to
// Enqueue, to drop redeliveries, without its payload and checkpoints: what
// the work carried (a thread reply's text, an instruction) is not kept once
// it is done, only that its key was seen. Calling it again after a success
// changes nothing.
//
// The audit records given are appended with it: on one server in the same
// script, after the fencing check, so that they are written once, with the
// end of the work, or not at all (ErrStale and every other error: the caller
// appends them itself, at least once, as bot.AuditTrail.Work does). On a
// Cluster, where the trail is in another slot, they are appended just before
// the script, so an error may follow records already written.
func (ib Inbox) Done(ctx context.Context, t Taken, audit ...AuditEntry) error {
	s := ib.s
	i := shardOf(t.Key)
	keys := []string{s.workKeyIn(i, t.Key), s.inboxKey(i)}
	args := []any{s.shardPrefix(i), t.Key, strconv.FormatInt(t.Token, 10), time.Now().UnixMilli()}
	if _, cluster := s.rdb.(*redis.ClusterClient); cluster {
		for _, e := range audit {
			if err := s.rdb.XAdd(ctx, &redis.XAddArgs{Stream: e.stream, ID: "*", Values: e.fields,
				MinID: e.minID(), Approx: true}).Err(); err != nil {
				return wrapErr(err, "store: done work %q: its audit record", t.Key)
			}
		}
	} else if len(audit) > 0 {
		keys = append(keys, audit[0].stream)
		for _, e := range audit {
			if e.stream != keys[2] {
				return fmt.Errorf("store: done work %q: audit records of two trails: %w", t.Key, ErrInvalid)
			}
			args = append(args, e.minID(), len(e.fields))
			args = append(args, e.fields...)
		}
	}
	code, err := s.sc.workDone.Run(ctx, s.rdb, keys, args...).Int64()
	if err == nil {
		err = codeErr(code)
	}
	if err != nil {
		return wrapErr(err, "store: done work %q", t.Key)
	}
	if len(audit) > 0 {
		s.confirmBestEffort(ctx)
	}
	return nil
}

// workWrite runs one fenced write script on t's record.
func (s *Store) workWrite(ctx context.Context, op string, t Taken, sc *redis.Script, args []any) error {
	i := shardOf(t.Key)
	code, err := sc.Run(ctx, s.rdb, []string{s.workKeyIn(i, t.Key), s.inboxKey(i)}, args...).Int64()
	if err != nil {
		return wrapErr(err, "store: %s work %q", op, t.Key)
	}
	if err := codeErr(code); err != nil {
		return wrapErr(err, "store: %s work %q", op, t.Key)
	}
	return nil
}

// ReleaseWork hands claimed work back on a graceful shutdown: each piece
// still claimed by these claims becomes due after (0: now, for another
// replica; see "Handing back" in the package doc), and its token moves on,
// so that late writes of this replica fail with ErrStale.
func (ib Inbox) ReleaseWork(ctx context.Context, taken []Taken, after time.Duration) error {
	s := ib.s
	return s.release(ctx, append(taken, s.pre.drain()...), after)
}

// StopClaiming is called once the inbox's claim loop stops claiming (a
// shutdown): the work this Store queued claimed by itself and holds for the
// loop is handed back due at once, and from now on it queues work unclaimed
// (preclaim.go) and wakes the others for it, so that they take it without
// waiting for a lease to end or their next look. Work handed out already is the loop's to hand back
// (ReleaseWork).
func (ib Inbox) StopClaiming(ctx context.Context) error {
	// Work queued from now on wakes the others' claim loops (scheduled).
	ib.s.heads.claiming[schedWork].Store(false)
	return ib.s.release(ctx, ib.s.pre.stop(), 0)
}

// release hands taken back, due after the given wait, each fenced by its
// token, and wakes the replicas that wait on the inbox.
func (s *Store) release(ctx context.Context, taken []Taken, after time.Duration) error {
	byShard := map[int][]any{}
	for _, t := range taken {
		i := shardOf(t.Key)
		byShard[i] = append(byShard[i], t.Key, strconv.FormatInt(t.Token, 10))
	}
	for i, pairs := range byShard {
		args := append([]any{s.shardPrefix(i), s.workKeyIn(i, ""), millis(after)}, pairs...)
		if err := s.sc.release.Run(ctx, s.rdb, []string{s.inboxKey(i)}, args...).Err(); err != nil {
			return wrapErr(err, "store: release %d pieces of work", len(taken))
		}
		s.scheduled(ctx, schedWork, i, after, true)
	}
	return nil
}

// Queued returns the number of pieces of work in the inbox, claimed or not.
func (ib Inbox) Queued(ctx context.Context) (int64, error) {
	s := ib.s
	n, err := s.countShards(ctx, s.inboxKey)
	if err != nil {
		return 0, wrapErr(err, "store: queued work")
	}
	return n, nil
}

func (s *Store) inboxKey(i int) string              { return s.shardPrefix(i) + "inbox" }
func (s *Store) workKeyIn(i int, key string) string { return s.shardPrefix(i) + "in:" + key }

// decodeTaken decodes one {key, token, record, late ms} entry of the claim
// script.
func decodeTaken(v any) (Taken, error) {
	parts, ok := v.([]any)
	if !ok || len(parts) != 4 {
		return Taken{}, fmt.Errorf("store: claim work: unexpected reply %v", v)
	}
	key, ok1 := parts[0].(string)
	tok, ok2 := parts[1].(int64)
	m, err := pairsToMap(parts[2])
	if !ok1 || !ok2 || err != nil {
		return Taken{}, fmt.Errorf("store: claim work: unexpected reply %v", v)
	}
	late, _ := parts[3].(int64)
	at, _ := strconv.Atoi(m["at"])
	rt, _ := strconv.ParseInt(m["rt"], 10, 64)
	t := Taken{
		Work:     Work{Key: key, Kind: m["k"], Payload: []byte(m["d"]), Workspace: ParseWorkspace(m["ws"])},
		Token:    tok,
		Attempt:  at,
		Received: time.UnixMilli(rt),
		Late:     time.Duration(max(late, 0)) * time.Millisecond,
	}
	for f, v := range m {
		if name, ok := strings.CutPrefix(f, "m:"); ok {
			if t.Marks == nil {
				t.Marks = map[string]string{}
			}
			t.Marks[name] = v
		}
	}
	return t, nil
}
