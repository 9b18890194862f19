package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func TestDigestFailureToldOncePerKindAndStop(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	d := store.DigestSub{Team: "T1", Channel: "C1", Frequency: "weekly", CreatedBy: "U1", CreatedAt: at}
	if err := s.Digests().SubscribeDigest(ctx, d); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		kind      string
		wantFirst bool
	}{
		{"invalid_blocks", true},
		{"invalid_blocks", false},
		{"msg_too_long", true},
	} {
		first, err := s.Digests().NoteDigestFailure(ctx, d, step.kind)
		if err != nil || first != step.wantFirst {
			t.Fatalf("NoteDigestFailure(%s) = %v, %v; want %v", step.kind, first, err, step.wantFirst)
		}
	}
	// Noting keeps the subscription as it was.
	if got, err := s.Digests().DigestSub(ctx, "T1", "C1", ""); err != nil || *got != d {
		t.Fatalf("DigestSub after notes = %+v, %v; want %+v", got, err, d)
	}

	// Subscribed again since: the older subscription's failures change nothing.
	again := d
	again.CreatedAt = at.Add(time.Hour)
	if err := s.Digests().SubscribeDigest(ctx, again); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Digests().NoteDigestFailure(ctx, d, "other"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("NoteDigestFailure of a replaced subscription = %v, want ErrNotFound", err)
	}
	if first, err := s.Digests().NoteDigestFailure(ctx, again, "invalid_blocks"); err != nil || !first {
		t.Fatalf("a new subscription's first failure = %v, %v; want told", first, err)
	}
	if stopped, err := s.Digests().StopDigest(ctx, d); err != nil || stopped {
		t.Fatalf("StopDigest of a replaced subscription = %v, %v; want left alone", stopped, err)
	}
	if stopped, err := s.Digests().StopDigest(ctx, again); err != nil || !stopped {
		t.Fatalf("StopDigest = %v, %v; want stopped", stopped, err)
	}
	if _, err := s.Digests().DigestSub(ctx, "T1", "C1", ""); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DigestSub after StopDigest = %v, want ErrNotFound", err)
	}
	if stopped, err := s.Digests().StopDigest(ctx, again); err != nil || stopped {
		t.Fatalf("StopDigest twice = %v, %v; want nothing left to stop", stopped, err)
	}
}
