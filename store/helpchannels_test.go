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
