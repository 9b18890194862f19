package store_test

import (
	"testing"
	"time"
)

// TestPaneContext: the channel looked at beside a pane's thread is the
// thread's own, else the DM's; none known is "", and an empty one forgets.
func TestPaneContext(t *testing.T) {
	t.Parallel()
	pc := newStore(t).PaneContexts()
	ctx := t.Context()
	want := func(thread, ch string) {
		t.Helper()
		if got, err := pc.PaneContext(ctx, "T1", "D1", thread); err != nil || got != ch {
			t.Fatalf("PaneContext(%q) = %q, %v; want %q", thread, got, err, ch)
		}
	}
	want("1.1", "")
	for _, c := range []struct{ thread, ch string }{{"", "C0DM"}, {"1.1", "C0THREAD"}} {
		if err := pc.SetPaneContext(ctx, "T1", "D1", c.thread, c.ch, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	want("1.1", "C0THREAD")
	want("2.2", "C0DM")
	want("", "C0DM")
	if err := pc.SetPaneContext(ctx, "T1", "D1", "1.1", "", time.Hour); err != nil {
		t.Fatal(err)
	}
	want("1.1", "C0DM")
}
