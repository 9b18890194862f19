package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

func TestStartClaimIsOneStartersUntilLinkedOrReleased(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	th := store.Thread{Team: "T1", Channel: "C1", TS: "1732233445.000200"}
	steps := []struct {
		name  string
		owner string
		want  error
	}{
		{"first claim", "start:a", nil},
		{"the owner again (a later attempt)", "start:a", nil},
		{"another post at the same moment", "start:b", store.ErrStartHeld},
	}
	for _, st := range steps {
		if err := s.Jobs().ClaimStart(ctx, th, st.owner, time.Minute); !errors.Is(err, st.want) || (st.want == nil && err != nil) {
			t.Fatalf("%s: ClaimStart(%s) = %v, want %v", st.name, st.owner, err, st.want)
		}
	}
	if held, err := s.Jobs().StartHeld(ctx, th); err != nil || !held {
		t.Fatalf("StartHeld = %v, %v; want true", held, err)
	}
	// Releasing someone else's claim does nothing; the owner's frees it.
	if err := s.Jobs().ReleaseStart(ctx, th, "start:b"); err != nil {
		t.Fatal(err)
	}
	if err := s.Jobs().ClaimStart(ctx, th, "start:b", time.Minute); !errors.Is(err, store.ErrStartHeld) {
		t.Fatalf("after a stranger's release, ClaimStart = %v, want ErrStartHeld", err)
	}
	if err := s.Jobs().ReleaseStart(ctx, th, "start:a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Jobs().ClaimStart(ctx, th, "start:b", time.Minute); err != nil {
		t.Fatalf("after the owner's release, ClaimStart = %v", err)
	}
	// The link replaces the claim: nobody claims a linked thread.
	if err := s.Jobs().LinkJob(ctx, store.Job{ID: "job_1", Thread: th, Requester: "U1"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if held, err := s.Jobs().StartHeld(ctx, th); err != nil || held {
		t.Fatalf("StartHeld after LinkJob = %v, %v; want false", held, err)
	}
	if err := s.Jobs().ClaimStart(ctx, th, "start:c", time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("ClaimStart in a linked thread = %v, want ErrConflict", err)
	}
}

func TestStartClaimExpiresWhenItsHolderDies(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	th := store.Thread{Team: "T1", Channel: "C1", TS: "1732233445.000300"}
	if err := s.Jobs().ClaimStart(t.Context(), th, "start:a", 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	redistest.Until(t, "the claim of a dead replica to run out", func() bool {
		return s.Jobs().ClaimStart(t.Context(), th, "start:b", time.Minute) == nil
	})
	if err := s.Jobs().ClaimStart(t.Context(), th, "", time.Minute); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("ClaimStart without an owner = %v, want ErrInvalid", err)
	}
}
