package outcome

import (
	"context"
	"time"

	"github.com/docsbot/docsbot/store"
)

// Meter counts what the outcomes' writes do (*bot.Metrics): a question
// entering an outcome, and a question's time to its first text when its
// record starts.
type Meter interface {
	AnswerOutcome(outcome string)
	QuestionFirstText(d time.Duration)
}

// Metered is u with every write it makes counted by m, once across
// replicas: only the replica whose write changed a record counts it (a
// second replica applying the same signal writes nothing). An outcome is
// counted as a question enters it (open when its record starts); no_signal
// is what a question left open reads as later (At, Days), never written,
// so it is not counted here.
func Metered(u Updater, m Meter) Updater { return metered{u, m} }

type metered struct {
	u Updater
	m Meter
}

func (x metered) UpdateOutcome(ctx context.Context, ref store.OutcomeRef, create *store.OutcomeRecord, now time.Time,
	fn func(*store.OutcomeRecord) bool) (store.OutcomeRecord, bool, error) {
	var before string
	r, wrote, err := x.u.UpdateOutcome(ctx, ref, create, now, func(r *store.OutcomeRecord) bool {
		before = r.Outcome // of the last try: the one written
		return fn(r)
	})
	if err != nil || !wrote {
		return r, wrote, err
	}
	if r.Outcome != before && r.Outcome != "" {
		x.m.AnswerOutcome(r.Outcome)
	}
	if before == "" && r.FirstText > 0 {
		x.m.QuestionFirstText(r.FirstText)
	}
	return r, wrote, nil
}
