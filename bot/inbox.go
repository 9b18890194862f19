package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docsbot/docsbot/bot/claim"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// The inbox: every piece of Slack work the bot acknowledges is first written
// to Redis (store.Inbox.Enqueue), and done from there by any replica (runInbox).
// An envelope is acknowledged only once its work is recorded; a replica that
// dies after the ack leaves the work to the next one when its lease runs out.
const (
	// workLease is how long a claim holds a piece of work. The handler's
	// heartbeat extends it every workLease/3 while it runs.
	workLease = 30 * time.Second
	// workKeep is how long a done piece of work's key is remembered to drop
	// redeliveries. Slack retries an envelope within minutes.
	workKeep = time.Hour
	// acceptBudget bounds recording work before the ack, well inside the 3 s
	// Slack gives an envelope.
	acceptBudget = 1500 * time.Millisecond
	// inboxIdle is the longest the inbox runner sleeps between claims. It
	// sleeps until the earliest work due that the store knows of
	// (store.Inbox.ClaimWait: work queued, deferred or handed back, read
	// from every shard at least every 5 s) or until the store says the
	// inbox changed (store.Inbox.Changed: work queued here, or handed back
	// by a stopping replica); a claim with nothing due asks Redis nothing.
	inboxIdle = 5 * time.Second
	// unknownKindDelay is how long work of a kind this replica does not
	// know waits before any replica looks at it again.
	unknownKindDelay = 5 * time.Second
	// inboxWorkers bounds the work one replica does at once. Most of it
	// waits on the docs API (a create can take seconds), so it is generous:
	// 20 commands a second with 2 s creates keep 40 busy.
	inboxWorkers = 128
	// queuedEvery is how often a replica refreshes the inbox gauge (one
	// ZCARD a shard).
	queuedEvery = 30 * time.Second
)

// WorkMaxAge is how long work may wait (deferred again and again because
// Slack or Redis keeps failing) before the person is told it was not done
// (WorkHandler.GiveUp).
const WorkMaxAge = 10 * time.Minute

// The lines logged when Slack delivers an envelope whose work was recorded;
// the again argument of AcceptEnvelope.
const (
	RedeliveredCommand = "slash command delivered again; already handled"
	RedeliveredEvent   = "event delivered again; already handled"
	// RedeliveredPost: the second event of a post (Slack sends a mention
	// as an app_mention and a message event), normal operation, logged at
	// debug.
	RedeliveredPost = "the post's other event (a mention comes as two); recorded once"
	// RedeliveredInteraction: a modal submission (keyed by its view) or a
	// button press (keyed by its trigger).
	RedeliveredInteraction = "interaction delivered again; already handled"
)

// WorkStore is what the core keeps in Redis, one part of the store each
// (store/doc.go, "Parts"): the inbox, and the project each person chose last
// (Projects.Resolve). Both are required.
type WorkStore struct {
	Inbox
	project.LastChoices
}

// Inbox is what the inbox needs of Redis; store.Inbox satisfies it.
type Inbox interface {
	Enqueue(ctx context.Context, w store.Work, keep time.Duration) (bool, error)
	ClaimWork(ctx context.Context, max int, lease time.Duration) ([]store.Taken, error)
	ClaimWait(ctx context.Context) (time.Duration, bool, error)
	Changed() <-chan struct{}
	Mark(ctx context.Context, t store.Taken, lease time.Duration, marks map[string]string) error
	Defer(ctx context.Context, t store.Taken, d time.Duration) error
	Done(ctx context.Context, t store.Taken, audit ...store.AuditEntry) error
	Restore(ctx context.Context, t store.Taken, keep, lease time.Duration, marks map[string]string) (bool, error)
	ReleaseWork(ctx context.Context, taken []store.Taken, after time.Duration) error
	StopClaiming(ctx context.Context) error
	Queued(ctx context.Context) (int64, error)
}

// Work is one piece of acknowledged Slack work, claimed by this replica.
// Marks holds the checkpoints of earlier attempts (Attempt above 1): a
// handler resumes from them instead of doing a step twice, taking its
// steps through Step and Paid (step.go), which read and write them.
type Work struct {
	store.Taken
	st Inbox
	mu sync.Mutex
	// held are the audit records of this attempt written with its Done
	// (AuditTrail.Work).
	held []heldAudit
	// paid is set once the work came to a paid call (Paid): from then on
	// it is not handed over on stop (handover.go).
	paid atomic.Bool
}

// Mark records checkpoints that a later attempt will find in Marks; with
// none, it extends the lease (the heartbeat). A checkpoint leaves the lease
// to the heartbeat, which renews it every workLease/3: the write then needs
// neither the Redis clock nor the schedule. An error means the checkpoint
// may not be saved: a handler must not go on to a step it must not repeat.
func (w *Work) Mark(ctx context.Context, marks map[string]string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	lease := workLease
	if len(marks) > 0 {
		lease = 0
	}
	err := w.st.Mark(ctx, w.Taken, lease, marks)
	if errors.Is(err, store.ErrNotFound) {
		err = w.restoreLocked(ctx, workLease, err)
		if err == nil {
			err = w.st.Mark(ctx, w.Taken, lease, marks)
		}
	}
	if err != nil {
		return err
	}
	if w.Marks == nil {
		w.Marks = map[string]string{}
	}
	for k, v := range marks {
		w.Marks[k] = v
	}
	return nil
}

// restoreLocked writes back w's record, which a failover lost (notFound,
// a fenced write's ErrNotFound), as this attempt knows it: claimed by this
// attempt for lease, with the marks of the attempts before it and its own
// (store.Inbox.Restore). The write that found it missing can then be made
// again; nil means it may. w.mu is held.
//
// The marks of audit records held for the work's end (hold) are left out:
// they are not written, and an attempt after a crash must write the
// records. A failed write back is returned as its own error, one that may
// pass (Redis still failing over), not as a lost claim; ErrNotFound stays
// only when something else stands there now.
func (w *Work) restoreLocked(ctx context.Context, lease time.Duration, notFound error) error {
	marks := make(map[string]string, len(w.Marks))
	for k, v := range w.Marks {
		marks[k] = v
	}
	for _, h := range w.held {
		if marks[h.mark] == "held" {
			delete(marks, h.mark)
		}
	}
	restored, err := w.st.Restore(ctx, w.Taken, workKeep, lease, marks)
	switch {
	case err != nil:
		return fmt.Errorf("writing back the record a failover lost: %w", err)
	case !restored:
		return notFound // something stands there now: the write's answer holds
	}
	return nil
}

// deferFor hands w back to be claimed again in d; a record a failover
// lost is written back due then (restoreLocked).
func (w *Work) deferFor(ctx context.Context, d time.Duration) error {
	err := w.st.Defer(ctx, w.Taken, d)
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.restoreLocked(ctx, d, err)
}

// hold keeps h until the work ends (AuditTrail.Work); its mark reads as
// set from now on in this attempt.
func (w *Work) hold(h heldAudit) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.held = append(w.held, h)
	if w.Marks == nil {
		w.Marks = map[string]string{}
	}
	w.Marks[h.mark] = "held"
}

// takeHeld returns the held audit records and forgets them, and their
// marks, which are not written yet.
func (w *Work) takeHeld() []heldAudit {
	w.mu.Lock()
	defer w.mu.Unlock()
	held := w.held
	w.held = nil
	for _, h := range held {
		if w.Marks[h.mark] == "held" {
			delete(w.Marks, h.mark)
		}
	}
	return held
}

// Marked returns the checkpoint called name, "" if none.
func (w *Work) Marked(name string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.Marks[name]
}

// Age is how long ago the work was received.
func (w *Work) Age() time.Duration { return time.Since(w.Received) }

// WorkHandler does one kind of inbox work.
type WorkHandler struct {
	// Do does the work. It returns nil when the work is done (or the person
	// was told why it cannot be), Later to try again after a while, or
	// another error, which is logged and ends the work.
	Do func(ctx context.Context, w *Work) error
	// GiveUp tells the person that the work could not be done, after it was
	// deferred for longer than WorkMaxAge. It may be nil.
	GiveUp func(ctx context.Context, w *Work)
}

// laterError asks the inbox to try a piece of work again after a while.
type laterError struct {
	after time.Duration
	err   error
}

func (e *laterError) Error() string { return fmt.Sprintf("try again in %v: %v", e.after, e.err) }
func (e *laterError) Unwrap() error { return e.err }

// ErrNotYet is what a Later's error wraps when the work waits as planned
// (a deployment still running, looked at again after a while), not because
// something failed: the wait is logged at debug, not as a warning.
var ErrNotYet = errors.New("not yet")

// Later is what a WorkHandler returns when the work could not be done now
// because of a passing failure (Slack or Redis unreachable): the work is
// taken again, by any replica, after d.
func Later(d time.Duration, err error) error { return &laterError{after: d, err: err} }

// AcceptEnvelope records w, the work of an envelope about to be acknowledged, in the inbox, retrying briefly, so that the envelope that
// brought it can be acknowledged. It reports false when Redis could not take
// it in time: the caller must then not ack blindly (an event is left for
// Slack to redeliver; a slash command is answered privately). A redelivered
// envelope whose work was recorded before is accepted and not queued again.
// Work recorded but not yet confirmed by the replicas Redis is asked to wait
// for (store.ErrUnconfirmed) is tried again like any other failure, so the
// envelope is acknowledged once its record would survive a failover. If the
// budget runs out after any try found the record written but unconfirmed
// (whatever the later tries met), it stands on the primary and will be
// done: AcceptEnvelope then reports true, rather than have the person told that
// work which is about to run was not taken (only a failover within that
// moment can still lose it; store/doc.go).
//
// again is the line logged for a redelivery.
func (b *Bot) AcceptEnvelope(ctx context.Context, w store.Work, again string) bool {
	if !b.acceptEnvelope(ctx, w, again) {
		return false
	}
	b.nudgeInbox()
	return true
}

// acceptEnvelope is AcceptEnvelope without waking the inbox runner, for a
// caller that acks first and then wakes it (QueueCommand): the work, often
// already claimed by this replica (store/preclaim.go), then does not start
// on the other core while the ack is being written.
func (b *Bot) acceptEnvelope(ctx context.Context, w store.Work, again string) bool {
	w = workOf(ctx, w)
	ctx, cancel := context.WithTimeout(ctx, acceptBudget)
	defer cancel()
	delay := 50 * time.Millisecond
	// tried: an earlier try of this call failed, and may have recorded w
	// (Enqueue fails with store.ErrUnconfirmed after writing, and a reply
	// lost to the network may follow a write too). recorded: a try failed
	// with store.ErrUnconfirmed, so w stands on the primary, until a later
	// try finds that primary demoted (store.ErrReadOnly: a failover, which
	// may have lost it).
	tried, recorded := false, false
	for {
		queued, err := b.store.Enqueue(ctx, w, workKeep)
		if err == nil {
			switch {
			case queued:
			case tried:
				// Most likely this call's own earlier write, confirmed
				// now: it is this replica's work to do.
				b.log.Info("work recorded on a retry (an earlier try of this delivery, or another delivery of it, wrote it)", "work", w.Key)
			case again == RedeliveredPost:
				b.log.Debug(again, "work", w.Key)
			default:
				b.log.Info(again, "work", w.Key)
			}
			return true
		}
		tried = true
		switch {
		case errors.Is(err, store.ErrUnconfirmed):
			recorded = true
		case errors.Is(err, store.ErrReadOnly):
			recorded = false
		}
		if errors.Is(err, store.ErrInvalid) {
			b.log.Error("work not recorded", "work", w.Key, "err", err)
			return false
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			if recorded {
				b.log.Warn("work recorded on the Redis primary, but no replica confirmed it in time; acknowledged", "work", w.Key, "err", err)
				return true
			}
			b.log.Error("cannot record Slack work in Redis; not acknowledged", "kind", w.Kind, "err", err)
			b.metrics.workOutcome(w.Kind, "refused")
			return false
		case <-t.C:
		}
		delay = min(2*delay, 400*time.Millisecond)
	}
}

// QueueFromWork records w in the inbox from within other work (a start asked for
// again), without AcceptEnvelope's bound: it reports whether w was queued, false if
// its key was seen before. That work was acknowledged already, so, like
// the store's other writes made after the acknowledgement, w need not wait
// for the replicas: a record no replica confirmed in time
// (store.ErrUnconfirmed) stands on the primary, and Queue succeeds.
func (b *Bot) QueueFromWork(ctx context.Context, w store.Work) (bool, error) {
	w = workOf(ctx, w)
	queued, err := b.store.Enqueue(ctx, w, workKeep)
	if errors.Is(err, store.ErrUnconfirmed) {
		b.log.Warn("work recorded on the Redis primary, but no replica confirmed it in time", "work", w.Key, "err", err)
		err = nil
	}
	if err == nil && queued {
		b.nudgeInbox()
	}
	return queued, err
}

// nudgeInbox wakes the inbox runner: work was queued here.
func (b *Bot) nudgeInbox() {
	select {
	case b.inboxWake <- struct{}{}:
	default:
	}
}

// runInbox takes due work from the inbox and does it, until ctx ends. Work
// in flight then gets the shutdown grace; what is still unfinished is handed
// back to the other replicas (after the landing window when it was cut).
func (b *Bot) runInbox(ctx, work context.Context) {
	r := &claim.Runner[store.Taken]{
		Claim: b.store.ClaimWork,
		Lease: workLease,
		Handle: func(ctx context.Context, t store.Taken) bool {
			return b.doWork(ctx, &Work{Taken: t, st: b.store.Inbox})
		},
		Release:    b.store.ReleaseWork,
		Stop:       b.stopClaiming,
		Workers:    inboxWorkers,
		NextDue:    b.store.ClaimWait,
		Idle:       inboxIdle,
		Wake:       b.inboxWake,
		Changed:    b.store.Changed(),
		Backoff:    100 * time.Millisecond,
		MaxBackoff: 2 * time.Second,
		Grace:      b.cfg.ShutdownGrace,
		Landing:    b.cfg.LandingWindow,
		Log:        b.log,
		Lines: claim.Lines{
			ClaimFailed:   "taking work from the inbox failed",
			Overran:       "inbox work still running after the shutdown grace; cancelling it",
			Released:      "handed back work in flight",
			ReleaseFailed: "handing back work in flight failed; it resumes when its lease runs out",
			StopFailed:    "handing back work queued here failed; it resumes when its lease runs out",
			Count:         "pieces",
		},
	}
	if b.metrics != nil {
		r.GaugeEvery = queuedEvery
		r.Gauge = func(ctx context.Context) {
			if n, err := b.store.Queued(ctx); err == nil {
				b.metrics.queued(n)
			}
		}
	}
	r.Run(ctx, work)
}

// doWork runs one piece of work under a heartbeat that keeps its lease, and
// records the outcome. It reports whether the work left this replica's hands
// (done or deferred); false means it must be handed back.
func (b *Bot) doWork(ctx context.Context, w *Work) bool {
	log := b.log.With("work", w.Key, "kind", w.Kind, "attempt", w.Attempt)
	h, ok := b.handlers[w.Kind]
	if !ok && w.Age() < WorkMaxAge {
		// Queued by a newer replica during a rolling update: leave it to
		// a replica that knows it.
		log.Warn("no handler for this kind of work here; leaving it to another replica")
		if err := b.store.Defer(context.WithoutCancel(ctx), w.Taken, unknownKindDelay); err != nil {
			log.Warn("deferring work failed; it comes back when its lease runs out", "err", err)
		}
		return true
	}
	if !ok {
		log.Error("no replica took this kind of work in time; dropped")
		b.metrics.workOutcome(w.Kind, "failed")
		return b.finishWork(ctx, w, log)
	}
	if ctx.Err() != nil {
		return false
	}
	if w.Age() > WorkMaxAge {
		log.Warn("work waited too long; telling the person", "age", w.Age().Round(time.Second))
		if h.GiveUp != nil {
			h.GiveUp(WithWorkspace(ctx, w.Workspace), w)
		}
		b.metrics.workOutcome(w.Kind, "told")
		return b.finishWork(ctx, w, log)
	}

	hctx, cancel := context.WithCancel(withHandOver(WithWorkspace(ctx, w.Workspace), b.stopping, w))
	beat := make(chan struct{})
	go func() {
		defer close(beat)
		b.heartbeat(hctx, w, cancel, log)
	}()
	err := h.Do(hctx, w)
	cancel()
	<-beat
	if err != nil && ctx.Err() != nil {
		// The shutdown cut the work short, whatever it asked for: handed
		// back, due after the landing window (claim.Runner).
		log.Info("work cut short by the shutdown; handing it back", "err", err)
		b.Audit().flush(ctx, w, w.takeHeld())
		return false
	}

	if later, ok := errors.AsType[*laterError](err); ok {
		switch {
		case errors.Is(later.err, ErrNotYet):
			log.Debug("work waits", "retry_in", later.after, "why", later.err)
		case errors.Is(later.err, errHandOver):
			log.Info("work handed to another replica: this one is stopping", "due_in", later.after)
		default:
			log.Warn("work deferred", "retry_in", later.after, "err", later.err)
		}
		b.metrics.workOutcome(w.Kind, "retried")
		b.Audit().flush(ctx, w, w.takeHeld())
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), workLease/2)
		derr := Retry(dctx, log, "deferring work", func() error { return w.deferFor(dctx, later.after) })
		cancel()
		if derr != nil {
			log.Warn("deferring work failed; it comes back when its lease runs out", "err", derr)
		}
		return true
	}
	if err != nil {
		log.Error("work failed", "err", err)
		b.metrics.workOutcome(w.Kind, "failed")
	} else {
		b.metrics.workOutcome(w.Kind, "done")
	}
	return b.finishWork(ctx, w, log)
}

// heartbeat extends w's lease until ctx ends. If the lease was lost (another
// replica took the work), it cancels the handler.
func (b *Bot) heartbeat(ctx context.Context, w *Work, cancel context.CancelFunc, log *slog.Logger) {
	t := time.NewTicker(workLease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := w.Mark(ctx, nil)
		if errors.Is(err, store.ErrStale) || errors.Is(err, store.ErrNotFound) {
			log.Warn("lost the work's lease to another replica; stopping", "err", err)
			cancel()
			return
		}
		if err != nil && ctx.Err() == nil {
			log.Warn("extending the work's lease failed", "err", err)
		}
	}
}

// finishWork removes w from the inbox, retrying while Redis is briefly
// unreachable: if it cannot, the work comes back after its lease and the
// handler, reading its marks, finds it done.
func (b *Bot) finishWork(ctx context.Context, w *Work, log *slog.Logger) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), workLease/2)
	defer cancel()
	held := w.takeHeld()
	entries := make([]store.AuditEntry, len(held))
	for i, h := range held {
		entries[i] = h.entry
	}
	err := Retry(ctx, log, "removing done work from the inbox", func() error {
		return b.store.Done(ctx, w.Taken, entries...)
	})
	if errors.Is(err, store.ErrNotFound) {
		// A failover lost the record: nothing is left to remove, and
		// nothing remembers the key for redeliveries.
		log.Warn("done work's record was lost in a Redis failover; nothing to remove", "err", err)
	} else if err != nil && !errors.Is(err, store.ErrStale) {
		log.Warn("done work stays in the inbox until its lease runs out", "err", err)
	}
	if err != nil {
		b.Audit().flush(ctx, w, held)
	}
	return true
}
