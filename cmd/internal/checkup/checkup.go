// Package checkup runs the checks of a program's dependencies at once, each
// under its own time limit, skips those that cannot run, and prints the
// report that `docsbot doctor` shows: one line a check, further lines and the
// fix of a failure below it, and a line that sums up. What each check tries
// is the business of the package it checks.
package checkup

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// State is how a check ended.
type State int

// The states of a check.
const (
	Passed State = iota
	Failed
	Skipped // not run, because something it needs is missing or wrong
	Warned  // passed, with something the person should know and may fix
)

// Result is the outcome of one check, as printed.
type Result struct {
	Name  string
	State State
	// Lines describe the outcome: the first on the check's line, the others
	// below it. They must never hold a secret, at most its masked form.
	Lines []string
	// Fix tells what to do about a failure.
	Fix string
}

// Of is the result of a check that passed (ok) or failed, in one line.
func Of(name string, ok bool, line, fix string) Result {
	if ok {
		return Result{Name: name, State: Passed, Lines: []string{line}}
	}
	return Result{Name: name, State: Failed, Lines: []string{line}, Fix: fix}
}

// Check is one check of a dependency.
type Check struct {
	Name string
	// Blocked says why the check cannot run, "" when it can.
	Blocked string
	Run     func(ctx context.Context) Result
}

// Run runs the checks at once, each within timeout, and returns their
// results in order. A blocked check is skipped, its reason on its line.
func Run(ctx context.Context, checks []Check, timeout time.Duration) []Result {
	results := make([]Result, len(checks))
	var wg sync.WaitGroup
	for i, c := range checks {
		if c.Blocked != "" {
			results[i] = Result{Name: c.Name, State: Skipped, Lines: []string{"not checked: " + c.Blocked}}
			continue
		}
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			results[i] = c.Run(cctx)
		})
	}
	wg.Wait()
	return results
}

// AllPassed reports whether every result passed (warnings pass).
func AllPassed(results []Result) bool {
	for _, r := range results {
		if r.State != Passed && r.State != Warned {
			return false
		}
	}
	return true
}

// Print writes one line per check, marked ✓, ✗, ! (a warning) or -, with
// further lines and the fix of a failure or a warning indented below it, and
// a last line that sums up.
func Print(w io.Writer, results []Result) {
	const nameWidth = 20
	var nFailed, nSkipped, nWarned int
	for _, res := range results {
		mark := "✓"
		switch res.State {
		case Failed:
			mark = "✗"
			nFailed++
		case Skipped:
			mark = "-"
			nSkipped++
		case Warned:
			mark = "!"
			nWarned++
		}
		first := ""
		if len(res.Lines) > 0 {
			first = res.Lines[0]
		}
		fmt.Fprintf(w, "  %s %-*s%s\n", mark, nameWidth, res.Name, first)
		for _, l := range res.Lines[min(1, len(res.Lines)):] {
			fmt.Fprintf(w, "    %-*s%s\n", nameWidth, "", l)
		}
		if (res.State == Failed || res.State == Warned) && res.Fix != "" {
			fmt.Fprintf(w, "      fix: %s\n", res.Fix)
		}
	}
	switch {
	case nFailed == 0 && nSkipped == 0 && nWarned > 0:
		fmt.Fprintf(w, "All %d checks passed, %s.\n", len(results), Plural(nWarned, "warning"))
	case nFailed == 0 && nSkipped == 0:
		fmt.Fprintf(w, "All %d checks passed.\n", len(results))
	case nSkipped == 0:
		fmt.Fprintf(w, "%s failed.\n", Plural(nFailed, "check"))
	default:
		fmt.Fprintf(w, "%s failed, %d not run.\n", Plural(nFailed, "check"), nSkipped)
	}
}

// Plural is "1 check" or "n checks".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
