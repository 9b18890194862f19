package store_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

func TestBudgetExactAcrossStores(t *testing.T) {
	t.Parallel()
	prefix := testPrefix(t)
	var stores []*store.Store
	for range 2 {
		s, err := store.Open(t.Context(), sharedURL, store.WithPrefix(prefix))
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		stores = append(stores, s)
	}
	b := store.Budget{Name: "analytics", Limit: 25, Window: time.Hour}
	const callers = 80
	var granted, refused atomic.Int32
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			g, err := stores[i%2].Limits().TakeBudget(t.Context(), b, 1)
			if err != nil {
				t.Error(err)
				return
			}
			if g.OK() {
				granted.Add(1)
				if len(g.Tokens) != 1 {
					t.Errorf("granted %d tokens, want 1", len(g.Tokens))
				}
				return
			}
			refused.Add(1)
			if g.Remaining != 0 || g.RetryAfter <= 0 || g.RetryAfter > b.Window || g.Blocked {
				t.Errorf("refusal %+v, want 0 remaining and a wait within the window", g)
			}
		})
	}
	wg.Wait()
	if granted.Load() != int32(b.Limit) || refused.Load() != callers-int32(b.Limit) {
		t.Fatalf("granted %d, refused %d; want exactly %d granted of %d", granted.Load(), refused.Load(), b.Limit, callers)
	}
	// Another budget name is not touched.
	if g, err := stores[0].Limits().TakeBudget(t.Context(), store.Budget{Name: "other", Limit: 1, Window: time.Hour}, 1); err != nil || !g.OK() {
		t.Fatalf("other budget: %+v, %v", g, err)
	}
}

func TestBudgetAllOrNothing(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	b := store.Budget{Name: "api", Limit: 5, Window: time.Hour}
	steps := []struct {
		n         int
		ok        bool
		remaining int
		wait      bool // a refusal with a wait (else: can never fit)
	}{
		{3, true, 2, false},
		{3, false, 2, true},
		{2, true, 0, false},
		{1, false, 0, true},
		{6, false, 0, false},
	}
	for i, st := range steps {
		g, err := s.Limits().TakeBudget(t.Context(), b, st.n)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if g.OK() != st.ok || g.Remaining != st.remaining || (g.RetryAfter > 0) != st.wait {
			t.Fatalf("step %d: take %d = %+v; want ok %v, remaining %d, wait %v", i, st.n, g, st.ok, st.remaining, st.wait)
		}
		if g.OK() && len(g.Tokens) != st.n {
			t.Fatalf("step %d: %d tokens, want %d", i, len(g.Tokens), st.n)
		}
	}
}

func TestBudgetSlidesAndReturns(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	b := store.Budget{Name: "api", Limit: 3, Window: 300 * time.Millisecond}
	g, err := s.Limits().TakeBudget(ctx, b, 3)
	if err != nil || !g.OK() {
		t.Fatalf("take 3: %+v, %v", g, err)
	}
	if err := s.Limits().ReturnBudget(ctx, b, g.Tokens[1:]); err != nil {
		t.Fatalf("return: %v", err)
	}
	if g, err := s.Limits().TakeBudget(ctx, b, 2); err != nil || !g.OK() {
		t.Fatalf("take 2 after returning 2: %+v, %v", g, err)
	}
	g, err = s.Limits().TakeBudget(ctx, b, 1)
	if err != nil || g.OK() || g.RetryAfter <= 0 || g.RetryAfter > b.Window {
		t.Fatalf("take beyond the limit: %+v, %v; want a refusal within the window", g, err)
	}
	redistest.Until(t, "the window to slide", func() bool {
		g, err := s.Limits().TakeBudget(ctx, b, 3)
		if err != nil {
			t.Fatal(err)
		}
		return g.OK()
	})
}

func TestBudgetBlock(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	b := store.Budget{Name: "api", Limit: 100, Window: time.Hour}
	if err := s.Limits().BlockBudget(ctx, b, 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := s.Limits().BlockBudget(ctx, b, time.Second); err != nil { // must not shorten the block
		t.Fatal(err)
	}
	g, err := s.Limits().TakeBudget(ctx, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.OK() || !g.Blocked || g.RetryAfter <= 9*time.Minute || g.RetryAfter > 10*time.Minute || g.Remaining != 100 {
		t.Fatalf("take while blocked: %+v; want a blocked refusal for about 10 minutes", g)
	}

	short := store.Budget{Name: "short", Limit: 1, Window: time.Hour}
	if err := s.Limits().BlockBudget(ctx, short, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	redistest.Until(t, "the block to end", func() bool {
		g, err := s.Limits().TakeBudget(ctx, short, 1)
		if err != nil {
			t.Fatal(err)
		}
		return g.OK()
	})
}

func TestBudgetRejectsBadArguments(t *testing.T) {
	t.Parallel()
	s := newStore(t).Limits()
	ctx := context.Background()
	good := store.Budget{Name: "x", Limit: 1, Window: time.Second}
	cases := []struct {
		name string
		do   func() error
	}{
		{"no name", func() error { _, err := s.TakeBudget(ctx, store.Budget{Limit: 1, Window: time.Second}, 1); return err }},
		{"zero limit", func() error { _, err := s.TakeBudget(ctx, store.Budget{Name: "x", Window: time.Second}, 1); return err }},
		{"zero window", func() error { _, err := s.TakeBudget(ctx, store.Budget{Name: "x", Limit: 1}, 1); return err }},
		{"take 0", func() error { _, err := s.TakeBudget(ctx, good, 0); return err }},
		{"block 0", func() error { return s.BlockBudget(ctx, good, 0) }},
	}
	for _, tc := range cases {
		if err := tc.do(); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tc.name, err)
		}
	}
}
