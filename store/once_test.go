package store_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestOnceForget(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	steps := []struct {
		name string
		do   func() (bool, error)
		want bool
	}{
		{"first", func() (bool, error) { return s.Once(ctx, "ev1", time.Minute) }, true},
		{"redelivered", func() (bool, error) { return s.Once(ctx, "ev1", time.Minute) }, false},
		{"other key", func() (bool, error) { return s.Once(ctx, "ev2", time.Minute) }, true},
		{"after Forget", func() (bool, error) {
			if err := s.Forget(ctx, "ev1"); err != nil {
				return false, err
			}
			return s.Once(ctx, "ev1", time.Minute)
		}, true},
		{"Forget of an unknown key", func() (bool, error) { return true, s.Forget(ctx, "never") }, true},
	}
	for _, st := range steps {
		got, err := st.do()
		if err != nil || got != st.want {
			t.Fatalf("%s: %v, %v; want %v", st.name, got, err, st.want)
		}
	}
	if d := pttl(t, s.Prefix()+"once:ev2"); d <= 0 || d > time.Minute {
		t.Fatalf("once key PTTL = %v, want within a minute", d)
	}
	if _, err := s.Once(ctx, "ev3", 0); err == nil {
		t.Fatal("Once with a zero ttl succeeded")
	}
}

func TestOnceExpires(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	if first, err := s.Once(ctx, "ev", 30*time.Millisecond); err != nil || !first {
		t.Fatalf("Once = %v, %v", first, err)
	}
	eventually(t, "the marker to expire", func() bool {
		first, err := s.Once(ctx, "ev", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return first
	})
}

func TestOnceConcurrent(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	var firsts atomic.Int32
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first, err := s.Once(t.Context(), "event", time.Minute)
			if err != nil {
				t.Error(err)
			}
			if first {
				firsts.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := firsts.Load(); n != 1 {
		t.Fatalf("%d callers were first, want 1", n)
	}
}
