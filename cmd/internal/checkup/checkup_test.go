package checkup_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/checkup"
)

func TestRunAndPrint(t *testing.T) {
	t.Parallel()
	checks := []checkup.Check{
		{Name: "fast", Run: func(context.Context) checkup.Result { return checkup.Of("fast", true, "works", "") }},
		{Name: "broken", Run: func(context.Context) checkup.Result { return checkup.Of("broken", false, "refused", "do this") }},
		{Name: "slow", Run: func(ctx context.Context) checkup.Result {
			<-ctx.Done() // ends with the check's own time limit
			return checkup.Of("slow", !errors.Is(ctx.Err(), context.DeadlineExceeded), "no answer in time", "check the address")
		}},
		{Name: "blocked", Blocked: "fix X first", Run: func(context.Context) checkup.Result { panic("a blocked check ran") }},
	}
	results := checkup.Run(t.Context(), checks, 50*time.Millisecond)
	if checkup.AllPassed(results) {
		t.Error("AllPassed with failures")
	}
	var b bytes.Buffer
	checkup.Print(&b, results)
	want := []string{"  ✓ fast                works\n", "  ✗ broken              refused\n      fix: do this\n",
		"  ✗ slow                no answer in time\n", "  - blocked             not checked: fix X first\n", "2 checks failed, 1 not run.\n"}
	for _, w := range want {
		if !strings.Contains(b.String(), w) {
			t.Errorf("report lacks %q:\n%s", w, b.String())
		}
	}
	b.Reset()
	checkup.Print(&b, results[:1])
	if !strings.HasSuffix(b.String(), "All 1 checks passed.\n") {
		t.Errorf("report of a pass = %q", b.String())
	}
}
