package store_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// TestChannelModes: a channel's mode is the last one set, per
// channel; a channel never set is not found; Modes lists every one set.
func TestChannelModes(t *testing.T) {
	t.Parallel()
	hc := newStore(t).HelpChannels()
	ctx := t.Context()
	if _, err := hc.Mode(ctx, "C1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a mode never set: %v, want ErrNotFound", err)
	}
	at := time.Date(2026, 11, 28, 1, 0, 0, 0, time.UTC)
	for _, m := range []store.ChannelMode{
		{Channel: "C1", Mode: "auto", By: "U1", At: at},
		{Channel: "C2", Mode: "off", By: "U1", At: at},
		{Channel: "C1", Mode: "private", By: "U2", At: at.Add(time.Minute)},
	} {
		if err := hc.SetMode(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	got, err := hc.Mode(ctx, "C1")
	if err != nil || got.Mode != "private" || got.By != "U2" || !got.At.Equal(at.Add(time.Minute)) || got.Channel != "C1" {
		t.Errorf("Mode(C1) = %+v, %v; want private by U2", got, err)
	}
	if _, err := hc.Mode(ctx, "C9"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another channel: %v, want ErrNotFound", err)
	}
	all, err := hc.Modes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range all {
		names = append(names, m.Channel+"="+m.Mode)
	}
	slices.Sort(names)
	if want := []string{"C1=private", "C2=off"}; !slices.Equal(names, want) {
		t.Errorf("Modes = %v, want %v", names, want)
	}
	if err := hc.SetMode(ctx, store.ChannelMode{Channel: "C3"}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("a mode without its name: %v, want ErrInvalid", err)
	}
}

// TestExpertCalls: a thread's experts are called once; its reminder is
// claimed once it is due, by one claim at a time (a lease), again after the
// lease, and no more once ended or resolved; resolving counts once.
func TestExpertCalls(t *testing.T) {
	t.Parallel()
	hc := newStore(t).HelpChannels()
	ctx := t.Context()
	now := time.Date(2026, 11, 28, 1, 0, 0, 0, time.UTC)
	call := store.ExpertCall{Channel: "C1", TS: "1.0", Asker: "U1", CalledBy: "U1", Experts: []string{"S1"}, Called: now}
	for i, want := range []bool{true, false} {
		first, err := hc.CallExpert(ctx, call, now.Add(4*time.Hour))
		if err != nil || first != want {
			t.Fatalf("call %d: %v, %v; want %v", i+1, first, err, want)
		}
	}
	claims := func(at time.Time) int {
		t.Helper()
		got, err := hc.ClaimReminders(ctx, at, time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(got)
	}
	steps := []struct {
		name string
		at   time.Time
		want int
	}{
		{"before it is due", now.Add(time.Hour), 0},
		{"due", now.Add(4 * time.Hour), 1},
		{"claimed again within the lease", now.Add(4*time.Hour + 30*time.Second), 0},
		{"after the lease", now.Add(4*time.Hour + 2*time.Minute), 1},
	}
	for _, st := range steps {
		if n := claims(st.at); n != st.want {
			t.Errorf("%s: %d claimed, want %d", st.name, n, st.want)
		}
	}
	if err := hc.EndReminder(ctx, call.Ref()); err != nil {
		t.Fatal(err)
	}
	if n := claims(now.Add(5 * time.Hour)); n != 0 {
		t.Errorf("an ended reminder claimed %d times", n)
	}
	for i, want := range []bool{true, false} {
		c, first, err := hc.ResolveCall(ctx, call.Ref(), "U2", "", now.Add(5*time.Hour))
		if err != nil || first != want || c.ResolvedBy != "U2" || c.Asker != "U1" {
			t.Errorf("resolve %d: %+v, %v, %v; want first %v by U2", i+1, c, first, err, want)
		}
	}
	// Resolved once, so counted once, in its project and its time only.
	counts := []struct {
		project  string
		from, to time.Time
		want     int64
	}{
		{"", now, now.Add(6 * time.Hour), 1},
		{"", now.Add(5 * time.Hour), now.Add(5*time.Hour + time.Millisecond), 1},
		{"", now, now.Add(5 * time.Hour), 0}, // to is exclusive
		{"api", now, now.Add(6 * time.Hour), 0},
	}
	for _, c := range counts {
		if n, err := hc.ResolvedCalls(ctx, c.project, c.from, c.to); err != nil || n != c.want {
			t.Errorf("ResolvedCalls(%q, %v, %v) = %d, %v; want %d", c.project, c.from, c.to, n, err, c.want)
		}
	}
	if _, _, err := hc.ResolveCall(ctx, "C1:9.9", "U2", "", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("resolving a call never made: %v, want ErrNotFound", err)
	}
}
