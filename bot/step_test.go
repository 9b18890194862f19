package bot_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// errStep is a step's own failure.
var errStep = errors.New("the step failed")

// attempt is what one attempt's step does: its value, or errStep, and
// whether it first cancels the context, so that the mark written after it
// fails.
type attempt struct {
	value  string
	fail   bool
	cancel bool
}

// run is the fn of a step doing a, which records that it ran.
func (a attempt) run(ran *bool, cancel context.CancelFunc) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		*ran = true
		if a.cancel {
			cancel()
		}
		if a.fail {
			return "", errStep
		}
		return a.value, nil
	}
}

// outcome is what a step returned and whether its fn ran.
type outcome struct {
	value string
	err   error // matched with errors.Is; nil for none
	ran   bool
}

// check compares got with want.
func (want outcome) check(t *testing.T, which string, value string, err error, ran bool) {
	t.Helper()
	if value != want.value || ran != want.ran || (want.err == nil) != (err == nil) || (want.err != nil && !errors.Is(err, want.err)) {
		t.Errorf("%s = (%q, %v), ran %v; want (%q, %v), ran %v", which, value, err, ran, want.value, want.err, want.ran)
	}
}

// twoAttempts claims a fresh piece of work, lets first do the first
// attempt at it, hands it back and claims it again for second, as the
// inbox does after a deferral or a crash: the second attempt finds the
// marks of the first.
func twoAttempts(t *testing.T, first, second func(ctx context.Context, cancel context.CancelFunc, w *bot.Work)) {
	t.Helper()
	ctx := context.Background()
	// Keys of this run alone: a test run again (-count) finds none of an
	// earlier run's work.
	st, err := store.Open(ctx, redisURL, store.WithPrefix(fmt.Sprintf("steps:%s:%d:", t.Name(), time.Now().UnixNano())))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	ib := st.Inbox()
	if _, err := ib.Enqueue(ctx, store.Work{Key: "step", Kind: "test.step", Payload: []byte("{}")}, time.Hour); err != nil {
		t.Fatal(err)
	}
	claim := func(n int) *bot.Work {
		t.Helper()
		// Handed back with no delay, the work is due at once; the
		// claim is tried a bounded number of times.
		for range 100 {
			taken, err := ib.ClaimWork(ctx, 1, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if len(taken) == 1 {
				if taken[0].Attempt != n {
					t.Fatalf("claim %d is attempt %d", n, taken[0].Attempt)
				}
				return bot.WorkOf(ib, taken[0])
			}
		}
		t.Fatalf("attempt %d never claimed", n)
		return nil
	}
	for i, do := range []func(context.Context, context.CancelFunc, *bot.Work){first, second} {
		w := claim(i + 1)
		actx, cancel := context.WithCancel(ctx)
		do(actx, cancel, w)
		cancel()
		if err := ib.ReleaseWork(ctx, []store.Taken{w.Taken}, 0); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStep: a step runs until an attempt marks it, and never after.
func TestStep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		first          attempt
		want, wantNext outcome
	}{
		{"done and marked", attempt{value: "ts1"}, outcome{"ts1", nil, true}, outcome{"ts1", nil, false}},
		{"no value marks 1", attempt{}, outcome{"1", nil, true}, outcome{"1", nil, false}},
		{"failed: run again", attempt{fail: true}, outcome{"", errStep, true}, outcome{"again", nil, true}},
		{"mark lost: run again", attempt{value: "ts1", cancel: true}, outcome{"ts1", bot.ErrUnmarked, true}, outcome{"again", nil, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			twoAttempts(t, func(ctx context.Context, cancel context.CancelFunc, w *bot.Work) {
				ran := false
				v, err := w.Step(ctx, "posted", tt.first.run(&ran, cancel))
				tt.want.check(t, "first attempt", v, err, ran)
			}, func(ctx context.Context, cancel context.CancelFunc, w *bot.Work) {
				ran := false
				v, err := w.Step(ctx, "posted", attempt{value: "again"}.run(&ran, cancel))
				tt.wantNext.check(t, "second attempt", v, err, ran)
			})
		})
	}
}

// TestPaid: a paid call is made at most once; an attempt that finds it
// begun and not done does not make it, and says its outcome is unknown.
func TestPaid(t *testing.T) {
	t.Parallel()
	deploy := bot.Call{Begun: "calling", Done: "started", With: map[string]string{"message": "ts1"}}
	share := bot.Call{Begun: "share", Done: "share", With: map[string]string{"share": "taking", "project": "=docs"}}
	create := bot.Call{Begun: "intent", With: map[string]string{"intent": "h1", "root": "ts1"}}
	tests := []struct {
		name           string
		call           bot.Call
		cancelFirst    bool // the begun write fails
		first          attempt
		want, wantNext outcome
		marks          map[string]string // the marks the second attempt finds
	}{
		{"done", deploy, false, attempt{value: "dep1"}, outcome{"dep1", nil, true}, outcome{"dep1", nil, false},
			map[string]string{"calling": "1", "started": "dep1", "message": "ts1"}},
		{"failed after begun", deploy, false, attempt{fail: true}, outcome{"", errStep, true}, outcome{"", bot.ErrUnfinished, false},
			map[string]string{"calling": "1", "message": "ts1"}},
		{"begun not written", deploy, true, attempt{value: "dep1"}, outcome{"", context.Canceled, false}, outcome{"again", nil, true},
			map[string]string{}},
		{"done not written", deploy, false, attempt{value: "dep1", cancel: true}, outcome{"dep1", bot.ErrUnmarked, true},
			outcome{"", bot.ErrUnfinished, false}, map[string]string{"calling": "1", "message": "ts1"}},
		{"one mark, done", share, false, attempt{value: "tok1"}, outcome{"tok1", nil, true}, outcome{"tok1", nil, false},
			map[string]string{"share": "tok1", "project": "=docs"}},
		{"one mark, begun", share, false, attempt{fail: true}, outcome{"", errStep, true}, outcome{"", bot.ErrUnfinished, false},
			map[string]string{"share": "taking", "project": "=docs"}},
		{"outcome kept elsewhere", create, false, attempt{value: "job1"}, outcome{"job1", nil, true}, outcome{"", bot.ErrUnfinished, false},
			map[string]string{"intent": "h1", "root": "ts1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			twoAttempts(t, func(ctx context.Context, cancel context.CancelFunc, w *bot.Work) {
				if tt.cancelFirst {
					cancel()
				}
				ran := false
				v, err := w.Paid(ctx, tt.call, tt.first.run(&ran, cancel))
				tt.want.check(t, "first attempt", v, err, ran)
			}, func(ctx context.Context, cancel context.CancelFunc, w *bot.Work) {
				for _, k := range []string{"calling", "started", "message", "share", "project", "intent", "root"} {
					if got := w.Marked(k); got != tt.marks[k] {
						t.Errorf("mark %s = %q, want %q", k, got, tt.marks[k])
					}
				}
				ran := false
				v, err := w.Paid(ctx, tt.call, attempt{value: "again"}.run(&ran, cancel))
				tt.wantNext.check(t, "second attempt", v, err, ran)
				if !tt.wantNext.ran {
					v, err := w.Outcome(tt.call)
					tt.wantNext.check(t, "Outcome", v, err, false)
				}
			})
		})
	}
}
