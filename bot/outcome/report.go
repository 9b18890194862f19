package outcome

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/docsbot/docsbot/store"
)

// The quality report: how a project's questions came out over a span of
// days, and over as many days before, from each day's counts and details
// (store.Outcomes.OutcomeDays) as they stand at a time (Days). The docs
// health's `/docs-health quality`, its weekly digest, the editors' Home
// and `docsbot quality` all read it here, and say it in their own words.

// MaxReportDays is the longest span a report reads: it and the span before
// it fit in what the store keeps (store.OutcomeRetention).
const MaxReportDays = 45

// GapsShown is how many topics of questions docsbot could not answer well
// a report lists.
const GapsShown = 10

// Figures are a project's questions asked over the days First to Last
// (UTC, both included), by how they came out. Resolved is "resolved
// without a human": the asker resolved it and nobody but them had replied.
type Figures struct {
	First            time.Time `json:"first_day"`
	Last             time.Time `json:"last_day"`
	Questions        int64     `json:"questions"`
	Sources          int64     `json:"answered_with_sources"`
	Resolved         int64     `json:"resolved"`
	ResolvedByExpert int64     `json:"resolved_by_expert"`
	HandedOff        int64     `json:"handed_off"`
	Uncertain        int64     `json:"uncertain"`
	RatedHelpful     int64     `json:"rated_helpful"`
	RatedUnhelpful   int64     `json:"rated_unhelpful"`
	NoSignal         int64     `json:"no_signal"`
	Open             int64     `json:"open"`
	// Rated counts the questions whose asker rated the answer, Helpful
	// those rated helpful ("Helpful: N of M rated"); OthersUp and
	// OthersDown the votes of everyone else, counted beside.
	Rated      int64 `json:"rated"`
	Helpful    int64 `json:"helpful"`
	OthersUp   int64 `json:"others_up"`
	OthersDown int64 `json:"others_down"`
	// Timed counts the questions whose time to the first text was
	// measured; MedianFirstTextMS is their median, in milliseconds (to
	// store.FirstTextStep: the times are kept in tenths of a second).
	Timed             int64 `json:"first_text_measured"`
	MedianFirstTextMS int64 `json:"median_first_text_ms"`
}

// MedianFirstText is the median time from a question to its answer's
// first text; ok is false when none was measured.
func (f Figures) MedianFirstText() (d time.Duration, ok bool) {
	return time.Duration(f.MedianFirstTextMS) * time.Millisecond, f.Timed > 0
}

// Gap is a topic of questions docsbot could not answer well over a
// report's days: answered uncertain (no sources, or the docs do not cover
// it) or rated unhelpful by the asker, and nothing after.
type Gap struct {
	// Topic is what they ask, in one form (TopicOf); Question one of them
	// as asked (the latest day's first).
	Topic    string `json:"topic"`
	Question string `json:"question"`
	// Questions counts them: Uncertain plus Unhelpful.
	Questions int64 `json:"questions"`
	Uncertain int64 `json:"uncertain"`
	Unhelpful int64 `json:"unhelpful"`
}

// Report is a project's quality over a span of days (Period) and the span
// before it (Before), with its gaps: the GapsShown topics with the most
// questions answered uncertain or rated unhelpful over Period, most first,
// then by topic; GapQuestions counts all of those questions, GapTopics
// their topics.
type Report struct {
	Project string `json:"project"`
	// Team is the workspace whose questions it counts (one workspace
	// never sees another's).
	Team         string  `json:"team"`
	Period       Figures `json:"period"`
	Before       Figures `json:"before"`
	Gaps         []Gap   `json:"gaps"`
	GapQuestions int64   `json:"gap_questions"`
	GapTopics    int     `json:"gap_topics"`
}

// DayReader reads a project's day counts of a workspace (store.Outcomes).
type DayReader interface {
	OutcomeDays(ctx context.Context, project, team string, first, last time.Time) ([]store.OutcomeDay, error)
}

// Read is the report of project ("" the implicit one) in workspace team
// over the days first to last (UTC days, both included, at most
// MaxReportDays), and as many days before, as their questions stand at
// now: one read of the store.
func Read(ctx context.Context, st DayReader, project, team string, first, last, now time.Time) (Report, error) {
	first, last = first.UTC().Truncate(24*time.Hour), last.UTC().Truncate(24*time.Hour)
	n := int(last.Sub(first)/(24*time.Hour)) + 1
	if n < 1 || n > MaxReportDays {
		return Report{}, fmt.Errorf("outcome: a report of %d days, want 1 to %d: %w", n, MaxReportDays, store.ErrInvalid)
	}
	days, err := st.OutcomeDays(ctx, project, team, first.AddDate(0, 0, -n), last)
	if err != nil {
		return Report{}, err
	}
	if len(days) != 2*n {
		return Report{}, fmt.Errorf("outcome: the store gave %d days of %d", len(days), 2*n)
	}
	r := ReportOf(project, days, now)
	r.Team = team
	return r, nil
}

// ReportOf is the report of project over the later half of days (one a
// day, in order, as store.Outcomes.OutcomeDays gives them), the earlier
// half before it, as their questions stand at now.
func ReportOf(project string, days []store.OutcomeDay, now time.Time) Report {
	days = Days(days, now)
	n := len(days) / 2
	if n == 0 {
		return Report{Project: project}
	}
	period, before := days[len(days)-n:], days[:n]
	r := Report{Project: project, Period: figures(period), Before: figures(before)}
	r.Gaps, r.GapQuestions, r.GapTopics = gaps(period)
	return r
}

// figures sums days (at least one).
func figures(days []store.OutcomeDay) Figures {
	f := Figures{First: days[0].Day, Last: days[len(days)-1].Day}
	times := map[time.Duration]int64{}
	for _, d := range days {
		c := d.Counts
		f.Questions += c[store.CountQuestions]
		f.Sources += c[store.CountSources]
		f.Rated += c[store.CountRated]
		f.Helpful += c[store.CountHelpful]
		f.OthersUp += c[store.CountOthersUp]
		f.OthersDown += c[store.CountOthersDown]
		for o, n := range map[string]*int64{Resolved: &f.Resolved, ResolvedByExpert: &f.ResolvedByExpert, HandedOff: &f.HandedOff,
			Uncertain: &f.Uncertain, RatedHelpful: &f.RatedHelpful, RatedUnhelpful: &f.RatedUnhelpful, NoSignal: &f.NoSignal, Open: &f.Open} {
			*n += c[store.CountOutcome(o)]
		}
		for t, n := range d.FirstTexts {
			times[t] += n
			f.Timed += n
		}
	}
	f.MedianFirstTextMS = median(times, f.Timed).Milliseconds()
	return f
}

// median is the median of n times counted by value: the middle one, or
// the mean of the two in the middle.
func median(times map[time.Duration]int64, n int64) time.Duration {
	if n == 0 {
		return 0
	}
	values := slices.Sorted(func(yield func(time.Duration) bool) {
		for t := range times {
			if !yield(t) {
				return
			}
		}
	})
	// nth is the k-th smallest time (k from 1).
	nth := func(k int64) time.Duration {
		for _, t := range values {
			if k <= times[t] {
				return t
			}
			k -= times[t]
		}
		return 0
	}
	if n%2 == 1 {
		return nth(n/2 + 1)
	}
	return (nth(n/2) + nth(n/2+1)) / 2
}

// gaps are the GapsShown topics of days with the most questions
// uncertain or rated unhelpful, and how many such questions and topics
// there are.
func gaps(days []store.OutcomeDay) ([]Gap, int64, int) {
	by := map[string]*Gap{}
	var total int64
	for _, d := range days {
		for topic, outcomes := range d.Topics {
			u, h := outcomes[Uncertain], outcomes[RatedUnhelpful]
			if u+h <= 0 {
				continue
			}
			g := by[topic]
			if g == nil {
				g = &Gap{Topic: topic}
				by[topic] = g
			}
			g.Uncertain, g.Unhelpful, g.Questions = g.Uncertain+u, g.Unhelpful+h, g.Questions+u+h
			total += u + h
			if q := d.Examples[topic]; q != "" {
				g.Question = q // days are in order: the latest day's stays
			}
		}
	}
	out := make([]Gap, 0, len(by))
	for _, g := range by {
		if g.Question == "" {
			g.Question = g.Topic
		}
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b Gap) int {
		return cmp.Or(cmp.Compare(b.Questions, a.Questions), cmp.Compare(a.Topic, b.Topic))
	})
	return out[:min(len(out), GapsShown)], total, len(out)
}
