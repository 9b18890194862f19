package store_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestDrawShareAndKeep takes, step by step, from one budget of 10 an hour
// whose people have a share of 4 each and may not use the last 3 (kept for
// digests), as alice, bob and a digest (no share, no keep).
func TestDrawShareAndKeep(t *testing.T) {
	t.Parallel()
	s := newStore(t).Limits()
	b := store.Budget{Name: "analytics:acme", Limit: 10, Window: time.Hour}
	person := func(who string) store.Draw { return store.Draw{Budget: b, Keep: 3, Who: who, Share: 4} }
	digest := store.Draw{Budget: b}
	steps := []struct {
		name string
		d    store.Draw
		n    int
		// ok: granted; left: Remaining; why: the refusal; wait: a refusal
		// with a wait (else one that can never fit).
		ok   bool
		left int
		why  store.Refusal
		wait bool
	}{
		{"alice takes 3 of her 4", person("alice"), 3, true, 1, store.RefusedNone, false},
		{"alice asks 2: past her share", person("alice"), 2, false, 1, store.RefusedShare, true},
		{"bob gets answers while alice is refused", person("bob"), 2, true, 2, store.RefusedNone, false},
		{"bob asks more than a share ever holds", person("bob"), 5, false, 2, store.RefusedShare, false},
		{"alice takes her last one", person("alice"), 1, true, 0, store.RefusedNone, false},
		{"carol reaches the reserve", person("carol"), 1, true, 0, store.RefusedNone, false},
		{"carol is refused at limit less the reserve", person("carol"), 1, false, 0, store.RefusedKeep, true},
		{"the digest may use the reserve", digest, 3, true, 0, store.RefusedNone, false},
		{"then nobody may: the budget is spent", digest, 1, false, 0, store.RefusedBudget, true},
		{"a person asking more than the budget", person("dave"), 11, false, 0, store.RefusedShare, false},
	}
	for _, st := range steps {
		g, err := s.Draw(t.Context(), st.d, st.n)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got := fmt.Sprintf("ok %t, left %d, refused %d, wait %t", g.OK(), g.Remaining, g.Refused, g.RetryAfter > 0)
		want := fmt.Sprintf("ok %t, left %d, refused %d, wait %t", st.ok, st.left, st.why, st.wait)
		if got != want || (g.OK() && len(g.Tokens) != st.n) || g.RetryAfter > b.Window {
			t.Fatalf("%s: %s (%d tokens, wait %v); want %s", st.name, got, len(g.Tokens), g.RetryAfter, want)
		}
	}
}

// TestDrawRefusedLeavesBothUntouched: a draw the share refuses takes nothing
// from the budget, one the budget refuses nothing from the share, and a
// refund goes back to both.
func TestDrawRefusedLeavesBothUntouched(t *testing.T) {
	t.Parallel()
	s := newStore(t).Limits()
	ctx := t.Context()
	b := store.Budget{Name: "analytics", Limit: 5, Window: time.Hour}
	alice := store.Draw{Budget: b, Who: "T1:alice", Share: 3}
	room := func(d store.Draw) int {
		t.Helper()
		g, err := s.Room(ctx, d)
		if err != nil || g.OK() {
			t.Fatalf("Room: %+v, %v", g, err)
		}
		return g.Remaining
	}
	g, err := s.Draw(ctx, alice, 3)
	if err != nil || !g.OK() {
		t.Fatalf("alice takes her share: %+v, %v", g, err)
	}
	if g, err := s.Draw(ctx, alice, 1); err != nil || g.OK() || g.Refused != store.RefusedShare {
		t.Fatalf("alice past her share: %+v, %v", g, err)
	}
	// The refusal took nothing from the budget: 2 are left for others.
	if n := room(store.Draw{Budget: b}); n != 2 {
		t.Fatalf("room in the budget after alice's refusal: %d, want 2", n)
	}
	other, err := s.TakeBudget(ctx, b, 2)
	if err != nil || !other.OK() {
		t.Fatalf("the budget's last 2: %+v, %v", other, err)
	}
	// Refunding one of alice's: both her share and the budget have it back.
	if err := s.Refund(ctx, alice, g.Tokens[:1]); err != nil {
		t.Fatal(err)
	}
	if n := room(alice); n != 1 {
		t.Fatalf("alice's room after a refund: %d, want 1", n)
	}
	if n := room(store.Draw{Budget: b}); n != 1 {
		t.Fatalf("the budget's room after alice's refund: %d, want 1", n)
	}
	// The budget refusing leaves alice's share as it was.
	if _, err := s.TakeBudget(ctx, b, 1); err != nil {
		t.Fatal(err)
	}
	if g, err := s.Draw(ctx, alice, 1); err != nil || g.OK() || g.Refused != store.RefusedBudget {
		t.Fatalf("alice when the budget is spent: %+v, %v", g, err)
	}
	if err := s.Refund(ctx, store.Draw{Budget: b}, other.Tokens); err != nil {
		t.Fatal(err)
	}
	if n := room(alice); n != 1 {
		t.Fatalf("alice's room once the budget has room: %d, want 1 (her refused draw took none)", n)
	}
}

// TestDrawSlidesAndBlocks: a share refills as its window slides, and the
// API's block refuses every draw, shared or not.
func TestDrawSlidesAndBlocks(t *testing.T) {
	t.Parallel()
	s := newStore(t).Limits()
	ctx := t.Context()
	b := store.Budget{Name: "slide", Limit: 10, Window: 300 * time.Millisecond}
	bob := store.Draw{Budget: b, Keep: 2, Who: "bob", Share: 2}
	if g, err := s.Draw(ctx, bob, 2); err != nil || !g.OK() {
		t.Fatalf("bob's share: %+v, %v", g, err)
	}
	g, err := s.Room(ctx, bob)
	if err != nil || g.Remaining != 0 || g.Refused != store.RefusedShare || g.RetryAfter <= 0 || g.RetryAfter > b.Window {
		t.Fatalf("bob's room with his share spent: %+v, %v; want a wait within the window", g, err)
	}
	redistest.Until(t, "bob's share to refill", func() bool {
		g, err := s.Draw(ctx, bob, 2)
		if err != nil {
			t.Fatal(err)
		}
		return g.OK()
	})
	if err := s.BlockBudget(ctx, b, time.Minute); err != nil {
		t.Fatal(err)
	}
	if g, err := s.Draw(ctx, store.Draw{Budget: b}, 1); err != nil || g.OK() || !g.Blocked {
		t.Fatalf("a draw while blocked: %+v, %v", g, err)
	}
}

// TestDrawNamedCountsOnce: a draw named by its request (ID), taken again
// (an attempt after a crash, on another replica's store), is granted
// without taking from the budget or the share again; another request is
// counted, and a refund gives the named one back.
func TestDrawNamedCountsOnce(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	other := store.New(rdb, store.WithPrefix(st.Prefix())) // another replica's store
	ctx := t.Context()
	b := store.Budget{Name: "ask", Limit: 3, Window: time.Hour}
	alice := func(id string) store.Draw { return store.Draw{Budget: b, Who: "T1:alice", Share: 2, ID: id} }
	first, err := st.Limits().Draw(ctx, alice("w:q1"), 1)
	if err != nil || !first.OK() || first.Tokens[0] != "w:q1" {
		t.Fatalf("the first take: %+v, %v", first, err)
	}
	again, err := other.Limits().Draw(ctx, alice("w:q1"), 1)
	if err != nil || !again.OK() || again.Tokens[0] != "w:q1" || again.Remaining != 1 {
		t.Fatalf("the same request again: %+v, %v; want granted, 1 left of her share", again, err)
	}
	if g, err := st.Limits().Draw(ctx, alice("w:q2"), 1); err != nil || !g.OK() || g.Remaining != 0 {
		t.Fatalf("another request: %+v, %v", g, err)
	}
	if g, err := st.Limits().Draw(ctx, alice("w:q3"), 1); err != nil || g.OK() || g.Refused != store.RefusedShare {
		t.Fatalf("a third request past her share of 2: %+v, %v", g, err)
	}
	if err := st.Limits().Refund(ctx, alice(""), []string{"w:q1"}); err != nil {
		t.Fatal(err)
	}
	if g, err := st.Limits().Draw(ctx, alice("w:q3"), 1); err != nil || !g.OK() {
		t.Fatalf("after the refund of q1: %+v, %v", g, err)
	}
	for name, d := range map[string]store.Draw{"a number": {Budget: b, ID: "12"}} {
		if _, err := st.Limits().Draw(ctx, d, 1); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("an id that is %s: %v, want ErrInvalid", name, err)
		}
	}
	if _, err := st.Limits().Draw(ctx, alice("w:q9"), 2); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("two requests under one id: %v, want ErrInvalid", err)
	}
}

func TestDrawRejectsBadArguments(t *testing.T) {
	t.Parallel()
	s := newStore(t).Limits()
	b := store.Budget{Name: "x", Limit: 5, Window: time.Second}
	cases := map[string]store.Draw{
		"keep the whole budget":     {Budget: b, Keep: 5},
		"negative keep":             {Budget: b, Keep: -1},
		"a spender without a share": {Budget: b, Who: "alice"},
		"no budget":                 {Who: "alice", Share: 1},
	}
	for name, d := range cases {
		if _, err := s.Draw(t.Context(), d, 1); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: Draw err = %v, want ErrInvalid", name, err)
		}
		if err := s.Refund(t.Context(), d, []string{"1"}); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: Refund err = %v, want ErrInvalid", name, err)
		}
	}
	if _, err := s.Draw(t.Context(), store.Draw{Budget: b}, 0); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("take 0: err = %v, want ErrInvalid", err)
	}
}
