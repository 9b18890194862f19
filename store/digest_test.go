package store_test

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

func TestDigestSubscriptions(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	at := time.Date(2026, 11, 22, 23, 59, 1, 234_000_000, time.UTC)
	subs := []store.DigestSub{
		{Team: "T2", Channel: "C9", Frequency: "daily", CreatedBy: "U2", CreatedAt: at},
		{Team: "T1", Channel: "C2", Frequency: "weekly", CreatedBy: "U1", CreatedAt: at.Add(-time.Hour)},
		{Team: "T1", Channel: "C1", Frequency: "weekly", CreatedBy: "U1", CreatedAt: at},
	}
	for _, d := range subs {
		if err := s.Digests().SubscribeDigest(ctx, d); err != nil {
			t.Fatalf("SubscribeDigest(%+v): %v", d, err)
		}
	}
	// Subscribing again replaces.
	subs[1].Frequency = "daily"
	if err := s.Digests().SubscribeDigest(ctx, subs[1]); err != nil {
		t.Fatal(err)
	}

	// A Store of another client (a replica started later) reads them.
	client := newClient()
	defer client.Close()
	later := store.New(client, store.WithPrefix(s.Prefix()))
	got, err := later.Digests().DigestSubs(ctx)
	if err != nil {
		t.Fatalf("DigestSubs: %v", err)
	}
	want := []store.DigestSub{subs[2], subs[1], subs[0]}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DigestSubs = %+v\nwant %+v", got, want)
	}
	one, err := later.Digests().DigestSub(ctx, "T1", "C2", "")
	if err != nil || !reflect.DeepEqual(*one, subs[1]) {
		t.Fatalf("DigestSub = %+v, %v; want %+v", one, err, subs[1])
	}

	if ok, err := later.Digests().UnsubscribeDigest(ctx, "T1", "C2", ""); !ok || err != nil {
		t.Fatalf("UnsubscribeDigest = %t, %v; want true", ok, err)
	}
	if ok, err := later.Digests().UnsubscribeDigest(ctx, "T1", "C2", ""); ok || err != nil {
		t.Fatalf("second UnsubscribeDigest = %t, %v; want false", ok, err)
	}
	if _, err := s.Digests().DigestSub(ctx, "T1", "C2", ""); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DigestSub after unsubscribe: %v, want ErrNotFound", err)
	}
	if got, _ := s.Digests().DigestSubs(ctx); len(got) != 2 {
		t.Fatalf("%d subscriptions left, want 2", len(got))
	}
	if d := pttl(t, s.Prefix()+"digest:subs"); d != -1 {
		t.Fatalf("subscriptions expire (PTTL %v)", d)
	}

	for name, err := range map[string]error{
		"no frequency": s.Digests().SubscribeDigest(ctx, store.DigestSub{Team: "T1", Channel: "C1"}),
		"no channel":   s.Digests().SubscribeDigest(ctx, store.DigestSub{Team: "T1", Frequency: "weekly"}),
		"colon":        s.Digests().SubscribeDigest(ctx, store.DigestSub{Team: "T:1", Channel: "C1", Frequency: "weekly"}),
	} {
		if !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}

// Three replicas due to post the same digests race for each: one claims
// it, the others are told it is held, and once it is posted it is never
// claimed again.
func TestDigestClaimRace(t *testing.T) {
	t.Parallel()
	prefix := testPrefix(t)
	const replicas, channels = 3, 30
	runs := make([]store.DigestRun, channels)
	for i := range runs {
		runs[i] = store.DigestRun{Team: "T1", Channel: fmt.Sprintf("C%d", i+1), Period: "2026-W48"}
	}
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		mu    sync.Mutex
		wins  = map[store.DigestRun][]store.DigestClaim{}
		errs  = make(chan error, replicas*channels)
	)
	for range replicas {
		wg.Go(func() {
			client := newClient()
			defer client.Close()
			s := store.New(client, store.WithPrefix(prefix))
			<-start
			for _, run := range runs {
				c, err := s.Digests().ClaimDigest(t.Context(), run, time.Minute, 8*24*time.Hour)
				if err != nil {
					errs <- err
					continue
				}
				mu.Lock()
				wins[run] = append(wins[run], c)
				mu.Unlock()
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for _, run := range runs {
		if n := len(wins[run]); n != 1 {
			t.Fatalf("%d replicas claimed the digest of %s, want exactly 1", n, run.Channel)
		}
		if c := wins[run][0]; c.Attempt != 1 || c.Token < 1 {
			t.Fatalf("winning claim %+v, want attempt 1", c)
		}
	}
	lost := 0
	for err := range errs {
		var he *store.DigestHeldError
		if !errors.As(err, &he) || !errors.Is(err, store.ErrDigestHeld) || he.Left <= 0 || he.Left > time.Minute {
			t.Fatalf("losing claim: %v, want ErrDigestHeld with the lease left", err)
		}
		lost++
	}
	if lost != (replicas-1)*channels {
		t.Fatalf("%d claims lost, want %d", lost, (replicas-1)*channels)
	}
	run := runs[0]
	won := wins[run]

	s := store.New(rdb, store.WithPrefix(prefix))
	if err := s.Digests().ExtendDigest(t.Context(), won[0], time.Minute); err != nil {
		t.Fatalf("ExtendDigest before posting: %v", err)
	}
	if err := s.Digests().MarkDigestPosted(t.Context(), won[0]); err != nil {
		t.Fatalf("MarkDigestPosted: %v", err)
	}
	if _, err := s.Digests().ClaimDigest(t.Context(), run, time.Minute, 8*24*time.Hour); !errors.Is(err, store.ErrDigestPosted) {
		t.Fatalf("claim after the post: %v, want ErrDigestPosted", err)
	}
	if d := pttl(t, s.Prefix()+"digest:run:T1:C1:2026-W48"); d <= 7*24*time.Hour || d > 8*24*time.Hour {
		t.Fatalf("run record PTTL %v, want the 8 days kept", d)
	}
	// Another period of the channel is a run of its own.
	if _, err := s.Digests().ClaimDigest(t.Context(), store.DigestRun{Team: "T1", Channel: "C1", Period: "2026-W49"}, time.Minute, time.Hour); err != nil {
		t.Fatalf("claim of the next period: %v", err)
	}
}

// A replica that claims and dies before posting leaves the run to the next
// claim once its lease ends; if the first one turns out to have posted
// after all, its mark stops the run from being posted a third time.
func TestDigestLeaseTakeover(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	run := store.DigestRun{Team: "T1", Channel: "C7", Period: "2026-11-23"}
	const lease = 50 * time.Millisecond
	first, err := s.Digests().ClaimDigest(ctx, run, lease, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	var second store.DigestClaim
	redistest.Until(t, "the first lease to end", func() bool {
		second, err = s.Digests().ClaimDigest(ctx, run, time.Minute, time.Hour)
		if err != nil && !errors.Is(err, store.ErrDigestHeld) {
			t.Fatal(err)
		}
		return err == nil
	})
	if second.Attempt != 2 || second.Token <= first.Token {
		t.Fatalf("takeover %+v after %+v: want attempt 2 and a larger token", second, first)
	}
	// The first claimer is fenced off.
	if err := s.Digests().ExtendDigest(ctx, first, time.Minute); !errors.Is(err, store.ErrStale) {
		t.Fatalf("extend of the old claim: %v, want ErrStale", err)
	}
	if err := s.Digests().ReleaseDigest(ctx, first, 0); !errors.Is(err, store.ErrStale) {
		t.Fatalf("release of the old claim: %v, want ErrStale", err)
	}
	// It had posted after all: the mark is kept and says it was stale.
	if err := s.Digests().MarkDigestPosted(ctx, first); !errors.Is(err, store.ErrStale) {
		t.Fatalf("mark of the old claim: %v, want ErrStale", err)
	}
	if err := s.Digests().ExtendDigest(ctx, second, time.Minute); !errors.Is(err, store.ErrDigestPosted) {
		t.Fatalf("extend before the second post: %v, want ErrDigestPosted", err)
	}
	if _, err := s.Digests().ClaimDigest(ctx, run, time.Minute, time.Hour); !errors.Is(err, store.ErrDigestPosted) {
		t.Fatalf("third claim: %v, want ErrDigestPosted", err)
	}
}

// A claim released after a failed post is taken again at once.
func TestDigestRelease(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	run := store.DigestRun{Team: "T1", Channel: "C8", Period: "2026-W48"}
	c, err := s.Digests().ClaimDigest(ctx, run, time.Hour, 2*time.Hour)
	if err != nil || c.Attempt != 1 {
		t.Fatalf("first claim = %+v, %v; want attempt 1", c, err)
	}
	// held reports the lease left to another claim, failing unless it is
	// held for about an hour.
	held := func(what string) {
		t.Helper()
		var h *store.DigestHeldError
		if _, err := s.Digests().ClaimDigest(ctx, run, time.Hour, 2*time.Hour); !errors.As(err, &h) || !errors.Is(err, store.ErrDigestHeld) || h.Left < 59*time.Minute || h.Left > time.Hour {
			t.Fatalf("claim %s = %v, want ErrDigestHeld for about an hour", what, err)
		}
	}
	held("while claimed")
	if err := s.Digests().ReleaseDigest(ctx, c, time.Hour); err != nil {
		t.Fatalf("ReleaseDigest(1h): %v", err)
	}
	held("before the release's wait")
	if err := s.Digests().ReleaseDigest(ctx, c, 0); err != nil {
		t.Fatalf("ReleaseDigest: %v", err)
	}
	again, err := s.Digests().ClaimDigest(ctx, run, time.Hour, 2*time.Hour)
	if err != nil || again.Attempt != 2 {
		t.Fatalf("claim after release: %+v, %v; want attempt 2", again, err)
	}
	// The record's expiry counts from the first claim.
	if d := pttl(t, s.Prefix()+"digest:run:T1:C8:2026-W48"); d > 2*time.Hour || d < time.Hour {
		t.Fatalf("record PTTL %v", d)
	}
	for name, err := range map[string]error{
		"no period": func() error {
			_, err := s.Digests().ClaimDigest(ctx, store.DigestRun{Team: "T1", Channel: "C1"}, time.Minute, time.Hour)
			return err
		}(),
		"keep below lease": func() error { _, err := s.Digests().ClaimDigest(ctx, run, time.Hour, time.Minute); return err }(),
		"no lease":         func() error { _, err := s.Digests().ClaimDigest(ctx, run, 0, time.Hour); return err }(),
	} {
		if !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	// A claim whose record expired cannot be marked: nothing is recreated.
	gone := store.DigestClaim{DigestRun: store.DigestRun{Team: "T1", Channel: "C8", Period: "never"}, Token: 1}
	if err := s.Digests().MarkDigestPosted(ctx, gone); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("mark of an expired run: %v, want ErrNotFound", err)
	}
}

// The visitors digest and the docs health digest keep apart: a channel
// subscribed to one is not subscribed to the other, and a posting of one
// does not stand for the other's of the same period.
func TestDigestKindsKeepApart(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	health := store.DigestSub{Team: "T1", Channel: "C1", Project: "api", Frequency: "weekly", CreatedBy: "U1", CreatedAt: at}
	if err := s.HealthDigests().SubscribeDigest(ctx, health); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Digests().DigestSubs(ctx); err != nil || len(got) != 0 {
		t.Fatalf("visitors digests = %v, %v; want none", got, err)
	}
	got, err := s.HealthDigests().DigestSubs(ctx)
	if err != nil || !reflect.DeepEqual(got, []store.DigestSub{health}) {
		t.Fatalf("health digests = %v, %v; want %v", got, err, health)
	}
	if had, err := s.Digests().UnsubscribeDigest(ctx, "T1", "C1", "api"); err != nil || had {
		t.Fatalf("turning off the visitors digest = %v, %v; want nothing to turn off", had, err)
	}

	run := store.DigestRun{Team: "T1", Channel: "C1", Project: "api", Period: "2026-W48"}
	c, err := s.HealthDigests().ClaimDigest(ctx, run, time.Minute, 8*24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.HealthDigests().MarkDigestPosted(ctx, c); err != nil {
		t.Fatal(err)
	}
	if _, err := s.HealthDigests().ClaimDigest(ctx, run, time.Minute, 8*24*time.Hour); !errors.Is(err, store.ErrDigestPosted) {
		t.Fatalf("claiming the posted health digest again: %v; want ErrDigestPosted", err)
	}
	if c, err := s.Digests().ClaimDigest(ctx, run, time.Minute, 8*24*time.Hour); err != nil || c.Attempt != 1 {
		t.Fatalf("claiming the visitors digest of the period: %+v, %v; want its first claim", c, err)
	}
}
