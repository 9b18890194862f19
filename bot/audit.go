package bot

import (
	"context"
	"time"

	"github.com/docsbot/docsbot/store"
)

// AuditLog is where the bot appends its audit trail; *store.AuditLog
// satisfies it.
type AuditLog interface {
	Append(ctx context.Context, rec store.AuditRecord) (string, error)
}

// auditTrimmer is an AuditLog that can drop its records older than its
// retention (*store.AuditLog): the bot then trims it now and then.
type auditTrimmer interface {
	Trim(ctx context.Context) (int64, error)
}

// auditTrimEvery is how often a replica trims the audit trail exactly; the
// appends in between drop the oldest records a stream node at a time.
const auditTrimEvery = time.Hour

// auditTrimRetry is how soon a failed trim is tried again.
const auditTrimRetry = time.Minute

// trimAudit removes the audit records older than the retention, when Run
// starts and then every auditTrimEvery (auditTrimRetry after a failure),
// until ctx ends.
func (b *Bot) trimAudit(ctx context.Context, audit auditTrimmer) {
	for {
		next := auditTrimEvery
		if n, err := audit.Trim(ctx); err != nil && ctx.Err() == nil {
			b.log.Warn("trimming the audit trail failed; trying again soon", "err", err, "in", auditTrimRetry)
			next = auditTrimRetry
		} else if n > 0 {
			b.log.Info("audit trail trimmed", "removed", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(next):
		}
	}
}

// auditBudget bounds one audit write: the trail never holds up a person's
// work.
const auditBudget = 2 * time.Second

// AuditTrail is the audit trail features append to (Bot.Audit).
type AuditTrail struct{ b *Bot }

// Audit is the audit trail (Config.Audit).
func (b *Bot) Audit() AuditTrail { return AuditTrail{b} }

// Record appends rec to the audit trail (Config.Audit; nothing when there is
// none). A failure is logged and otherwise ignored: the person's work goes
// on. It runs on its own short deadline, so that it also works after ctx has
// ended.
func (a AuditTrail) Record(ctx context.Context, rec store.AuditRecord) {
	b := a.b
	if b.cfg.Audit == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), auditBudget)
	defer cancel()
	if _, err := b.cfg.Audit.Append(ctx, rec); err != nil {
		b.log.Warn("audit record not written", "action", rec.Action, "user", rec.User, "err", err)
	}
}

// auditEntries is an AuditLog whose records the inbox can append with the
// end of the work they record (*store.AuditLog, store.Inbox.Done).
type auditEntries interface {
	Entry(rec store.AuditRecord) (store.AuditEntry, error)
}

// heldAudit is an audit record held by a piece of work until its end.
type heldAudit struct {
	mark  string
	rec   store.AuditRecord
	entry store.AuditEntry
}

// Work appends rec for the work w once: the record carries w's key
// (store.AuditRecord.Work). It is held by w and appended with its Done, in
// the same step on one Redis server (store.Inbox.Done). Should the work end
// otherwise (deferred, handed back, its Done failing), it is appended then
// and mark records that it was, so that a later attempt at w does not
// append it again. A replica dying before the Done leaves it to the next
// attempt, which does the work again from its checkpoints; one dying
// between an append and its mark may append it twice, with the same key
// (store/doc.go).
func (a AuditTrail) Work(ctx context.Context, w *Work, mark string, rec store.AuditRecord) {
	b := a.b
	if b.cfg.Audit == nil || w.Marked(mark) != "" {
		return
	}
	rec.Work = w.Key
	if ae, ok := b.cfg.Audit.(auditEntries); ok && w.st != nil {
		if e, err := ae.Entry(rec); err == nil {
			w.hold(heldAudit{mark: mark, rec: rec, entry: e})
			return
		}
	}
	a.flush(ctx, w, []heldAudit{{mark: mark, rec: rec}})
}

// flush appends held records now, each with its mark (Work).
func (a AuditTrail) flush(ctx context.Context, w *Work, held []heldAudit) {
	for _, h := range held {
		// A step of the work (Work.Step): a record marked is not
		// appended again; a mark lost appends it again, with the same key.
		_, err := w.Step(context.WithoutCancel(ctx), h.mark, func(ctx context.Context) (string, error) {
			a.Record(ctx, h.rec)
			return "1", nil
		})
		if err != nil {
			a.b.log.Warn("recording the audit record's mark failed", "action", h.rec.Action, "work", w.Key, "err", err)
		}
	}
}

// RefusalRecord is the audit record of a refusal: who, where, by which way
// in (via: "/docs-agent", "shortcut", ...), and the instruction when there
// was one.
func RefusalRecord(team, channel, user, via, text string) store.AuditRecord {
	return store.AuditRecord{Team: team, Channel: channel, User: user, Action: store.AuditRefusal,
		Outcome: "refused", Detail: via, Instruction: text}
}
