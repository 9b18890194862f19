package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// TestStopFollowing: Stop marks the run under way as no longer followed,
// every later claim reads the mark, the result is still handed out once,
// and a follow-up's run is followed again; a thread with no job is
// ErrNotFound, and a run already reported is not marked.
func TestStopFollowing(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	if _, err := s.Jobs().StopFollowing(ctx, store.Thread{Team: "T0001", Channel: "C0001", TS: "1.1"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("StopFollowing of a thread with no job: %v, want ErrNotFound", err)
	}
	j := testJob(1)
	link(t, s, j)
	for range 2 { // twice: harmless
		got, err := s.Jobs().StopFollowing(ctx, j.Thread)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != j.ID || got.Followed() || got.Unfollowed != 1 {
			t.Fatalf("after StopFollowing: %+v", got)
		}
	}
	c := claimOne(t, s, j.ID, time.Minute)
	if c.Job.Followed() {
		t.Fatalf("the claim reads the run as followed: %+v", c.Job)
	}
	notify, err := s.Jobs().Finish(ctx, c, "completed", "", time.Minute)
	if err != nil || !notify {
		t.Fatalf("Finish = %v, %v; want the result handed out", notify, err)
	}
	if err := s.Jobs().MarkNotified(ctx, c); err != nil {
		t.Fatal(err)
	}
	got, err := s.Jobs().FollowUp(ctx, j, "f1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Followed() {
		t.Fatalf("the follow-up's run is not followed: %+v", got)
	}
	if c := claimOne(t, s, j.ID, time.Minute); !c.Job.Followed() {
		t.Fatalf("the follow-up's claim reads the run as not followed: %+v", c.Job)
	}

	k := testJob(2)
	link(t, s, k)
	c = claimOne(t, s, k.ID, time.Minute)
	if _, err := s.Jobs().Finish(ctx, c, "completed", "", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := s.Jobs().MarkNotified(ctx, c); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Jobs().StopFollowing(ctx, k.Thread); err != nil || !got.Followed() {
		t.Fatalf("StopFollowing of a reported run = %+v, %v; want it left as it is", got, err)
	}
}
