package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
)

// Steps: the one way a resumable handler (WorkHandler) does a step once
// across attempts. Each step is named by a mark on its work (Work.Mark); an
// attempt after a crash, a deferral or a hand-back finds the marks of the
// attempts before it (store.Taken.Marks) and skips what they did.
//
// Work.Step is a step that is harmless to run again until its mark is
// written (a post whose ts is marked, a choice recorded): it runs, then is
// marked. Work.Paid is a call that must never be made twice (an agent job
// created, a deployment, a share taken): it is marked begun before it is
// made and done after, and an attempt that finds it begun but not done
// knows only that its outcome is unknown. By state of the marks and event:
//
//	state (the marks found)      event                  action
//	Step: mark set               any attempt            its value, fn not run
//	Step: no mark                fn fails               nothing marked, fn's error as is
//	                             fn returns v           v ("1" for "") marked; the mark's value
//	                             the mark write fails   v with an error wrapping ErrUnmarked:
//	                                                    a later attempt runs fn again
//	Paid: done                   any attempt            Done's value, fn not called
//	Paid: begun, not done        any attempt            ErrUnfinished, fn not called
//	Paid: neither                the begun write fails  its error, fn not called
//	                             begun written, fn      fn's error as is (begun stays:
//	                             fails                  a later attempt finds it unfinished)
//	                             fn returns v           v marked as Done; Done "": nothing more
//	                             the done write fails   v with an error wrapping ErrUnmarked:
//	                                                    a later attempt finds it unfinished
//
// A caller that meets ErrUnmarked goes on when repeating the step is
// harmless (a post told twice at worst); otherwise it returns Later.

// ErrUnmarked wraps the error of a mark write that failed after its step
// was done: the step's value is returned with it, and a later attempt does
// the step again (Step) or finds it unfinished (Paid).
var ErrUnmarked = errors.New("step done but not marked")

// ErrUnfinished is what Paid (and Work.Outcome) returns when an earlier
// attempt marked the call begun and no attempt marked it done: the call may
// or may not have been made, and is not made again.
var ErrUnfinished = errors.New("an earlier attempt began the call and did not finish it")

// ErrNoMark is what a step's fn returns, wrapped or not, when it ended the
// work without doing the step (the person was told why): nothing is
// marked, and Settle takes the work as done.
var ErrNoMark = errors.New("the step ended without its mark")

// Settle is what a handler returns after its last step, one that is
// harmless to repeat: nil when the step was done, ended without its mark
// (ErrNoMark), or was done and only its mark was lost (ErrUnmarked, logged
// with msg: a later attempt may do it again); any other error as it is.
func Settle(err error, log *slog.Logger, msg string) error {
	switch {
	case errors.Is(err, ErrUnmarked):
		log.Warn(msg, "err", err)
		return nil
	case errors.Is(err, ErrNoMark):
		return nil
	}
	return err
}

// Call names the marks of a paid call (Work.Paid).
type Call struct {
	// Begun is the mark written before the call; its value is With[Begun],
	// "1" when With has none.
	Begun string
	// Done is the mark of the call's value, written after it; "" when the
	// caller records the outcome elsewhere (an attempt that finds Begun is
	// then unfinished, whatever came of the call). Done may be Begun: the
	// call is done once the mark holds another value than begun's.
	Done string
	// With are marks written with Begun, in the same write.
	With map[string]string
}

// begun is the value Begun is marked with.
func (c Call) begun() string {
	if v := c.With[c.Begun]; v != "" {
		return v
	}
	return "1"
}

// Step runs fn once across the attempts at w, by the table above: with
// mark set it returns the mark's value and does not run fn; otherwise it
// runs fn and marks its value ("1" for ""), which it returns. fn's error
// is returned as is, nothing marked; a failed mark write returns the value
// with an error wrapping ErrUnmarked.
func (w *Work) Step(ctx context.Context, mark string, fn func(context.Context) (string, error)) (string, error) {
	if v := w.Marked(mark); v != "" {
		return v, nil
	}
	v, err := fn(ctx)
	if err != nil {
		return v, err
	}
	return w.markStep(ctx, mark, v)
}

// markStep marks the value v of a step done ("1" for "") and returns it;
// a failed write wraps ErrUnmarked.
func (w *Work) markStep(ctx context.Context, mark, v string) (string, error) {
	if v == "" {
		v = "1"
	}
	if err := w.Mark(ctx, map[string]string{mark: v}); err != nil {
		return v, fmt.Errorf("%w: %s: %w", ErrUnmarked, mark, err)
	}
	return v, nil
}

// Outcome is what the attempts before this one did of the paid call c, by
// the table above: Done's value once done, ErrUnfinished when begun and
// not done, "" and nil when not begun. It writes nothing, for a handler
// that must know before the steps that lead to the call.
func (w *Work) Outcome(c Call) (string, error) {
	if c.Done != "" {
		if v := w.Marked(c.Done); v != "" && (c.Done != c.Begun || v != c.begun()) {
			return v, nil
		}
	}
	if w.Marked(c.Begun) != "" {
		return "", ErrUnfinished
	}
	return "", nil
}

// Paid makes the paid call fn at most once across the attempts at w, by
// the table above: done, it returns Done's value; begun and not done, it
// returns ErrUnfinished; otherwise it marks c begun (with c.With) before fn
// and fn's value after (as Done, "1" for ""). fn is never called when the
// begun mark may not be written.
func (w *Work) Paid(ctx context.Context, c Call, fn func(context.Context) (string, error)) (string, error) {
	w.paid.Store(true)
	if v, err := w.Outcome(c); v != "" || err != nil {
		return v, err
	}
	before := maps.Clone(c.With)
	if before == nil {
		before = map[string]string{}
	}
	before[c.Begun] = c.begun()
	if err := w.Mark(ctx, before); err != nil {
		return "", err
	}
	v, err := fn(ctx)
	if err != nil || c.Done == "" {
		return v, err
	}
	return w.markStep(ctx, c.Done, v)
}
