package helpchannels

import (
	"fmt"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
)

// TestModeCache: a mode read is kept for modeFresh and no longer; a mode
// set here forgets what is kept, and a read begun before it is not kept;
// past modeCacheMax channels the stale ones go.
func TestModeCache(t *testing.T) {
	t.Parallel()
	var c modeCache
	at := time.Unix(1_700_000_000, 0)
	off := Mode{Channel: "C0HELP", Mode: bot.ModeOff}
	if _, ok, _ := c.get("C0HELP", at); ok {
		t.Fatal("a mode never read is kept")
	}
	_, _, gen := c.get("C0HELP", at)
	c.put(off, gen, at)
	for _, tc := range []struct {
		name  string
		after time.Duration
		kept  bool
	}{
		{"at once", 0, true},
		{"just within", modeFresh - time.Millisecond, true},
		{"at modeFresh", modeFresh, false},
		{"a clock gone back", -time.Second, false},
	} {
		if m, ok, _ := c.get("C0HELP", at.Add(tc.after)); ok != tc.kept || (ok && m != off) {
			t.Errorf("%s: %+v, %v; want kept %v", tc.name, m, ok, tc.kept)
		}
	}

	_, _, before := c.get("C0OTHER", at) // a read under way...
	c.forget()                           // ...when a mode is set here
	c.put(Mode{Channel: "C0OTHER", Mode: bot.ModeAuto}, before, at)
	if _, ok, _ := c.get("C0OTHER", at); ok {
		t.Error("a read begun before a mode was set here is kept")
	}
	if _, ok, _ := c.get("C0HELP", at); ok {
		t.Error("a mode read before one was set here is kept")
	}

	_, _, gen = c.get("", at)
	for i := range modeCacheMax {
		c.put(Mode{Channel: fmt.Sprintf("C%04d", i), Mode: bot.ModeMention}, gen, at)
	}
	later := at.Add(modeFresh)
	c.put(off, gen, later)
	if len(c.modes) != 1 {
		t.Errorf("%d channels kept past the bound, want the one read last", len(c.modes))
	}
	if _, ok, _ := c.get("C0HELP", later); !ok {
		t.Error("the mode read last is not kept")
	}
}
