package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func TestOnce(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	steps := []struct {
		name string
		want bool
	}{
		{"vote:T1:C1:1.2:U1", true},
		{"vote:T1:C1:1.2:U1", false}, // a second click, or the other button
		{"vote:T1:C1:1.2:U2", true},
		{"vote:T1:C1:1.3:U1", true},
	}
	for i, st := range steps {
		got, err := s.Limits().Once(t.Context(), st.name, time.Hour)
		if err != nil || got != st.want {
			t.Errorf("step %d: Once(%s) = %v, %v; want %v", i, st.name, got, err, st.want)
		}
	}
	if ttl := rdb.PTTL(t.Context(), s.Prefix()+"once:vote:T1:C1:1.2:U1").Val(); ttl <= 0 || ttl > time.Hour {
		t.Errorf("record PTTL = %v, want at most an hour", ttl)
	}
	for _, bad := range []struct {
		name string
		keep time.Duration
	}{{"", time.Hour}, {"x", 0}} {
		if _, err := s.Limits().Once(t.Context(), bad.name, bad.keep); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Once(%q, %v) = %v, want ErrInvalid", bad.name, bad.keep, err)
		}
	}
}

// TestForgetOnce: an event forgotten is the first again; forgetting one
// that never happened is no error.
func TestForgetOnce(t *testing.T) {
	t.Parallel()
	lm := newStore(t).Limits()
	ctx := t.Context()
	const name = "ask-team:T1:C1:1.2:U1:q"
	if first, err := lm.Once(ctx, name, time.Hour); err != nil || !first {
		t.Fatalf("Once: %v, %v", first, err)
	}
	if err := lm.ForgetOnce(ctx, name); err != nil {
		t.Fatal(err)
	}
	if first, err := lm.Once(ctx, name, time.Hour); err != nil || !first {
		t.Errorf("Once after ForgetOnce = %v, %v; want the first again", first, err)
	}
	if err := lm.ForgetOnce(ctx, "never"); err != nil {
		t.Errorf("forgetting what never happened: %v", err)
	}
	if err := lm.ForgetOnce(ctx, ""); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("no name: %v, want ErrInvalid", err)
	}
}

// TestHappened: an event is known to have happened once it is recorded, and
// asking records nothing.
func TestHappened(t *testing.T) {
	t.Parallel()
	lm := newStore(t).Limits()
	ctx := t.Context()
	const name = "share:C1:1.2:U1:1"
	for i, st := range []struct {
		once bool
		want bool
	}{{false, false}, {false, false}, {true, true}} {
		if st.once {
			if _, err := lm.Once(ctx, name, time.Hour); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := lm.Happened(ctx, name); err != nil || got != st.want {
			t.Errorf("step %d: Happened = %v, %v; want %v", i, got, err, st.want)
		}
	}
	if _, err := lm.Happened(ctx, ""); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("no name: %v, want ErrInvalid", err)
	}
}

// TestOnceBy: the event is the first by whoever records it first, again and
// again (an attempt of the same work after a crash), and by no one else;
// forgotten, it is anyone's again.
func TestOnceBy(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	const name = "share:C1:1.2:U1:1"
	steps := []struct {
		by   string
		want bool
	}{
		{"act:press-1", true},
		{"act:press-1", true}, // the same work, tried again
		{"act:press-2", false},
	}
	for i, st := range steps {
		got, err := s.Limits().OnceBy(t.Context(), name, st.by, time.Hour)
		if err != nil || got != st.want {
			t.Errorf("step %d: OnceBy(%s) = %v, %v; want %v", i, st.by, got, err, st.want)
		}
	}
	if first, err := s.Limits().Once(t.Context(), name, time.Hour); err != nil || first {
		t.Errorf("Once after OnceBy = %v, %v; want seen", first, err)
	}
	if err := s.Limits().ForgetOnce(t.Context(), name); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Limits().OnceBy(t.Context(), name, "act:press-2", time.Hour); err != nil || !got {
		t.Errorf("OnceBy after ForgetOnce = %v, %v; want first", got, err)
	}
	if _, err := s.Limits().OnceBy(t.Context(), name, "", time.Hour); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("OnceBy by nobody = %v, want ErrInvalid", err)
	}
}
