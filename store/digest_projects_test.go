package store_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// One channel may take the digests of several projects: each is a
// subscription of its own, beside the one made without a project, and each
// posting is a run of its own, claimed and posted once.
func TestDigestSubscriptionsPerProject(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	legacy := store.DigestSub{Team: "T1", Channel: "C1", Frequency: "weekly", CreatedBy: "U1", CreatedAt: at}
	docs := store.DigestSub{Team: "T1", Channel: "C1", Project: "docs", Frequency: "daily", CreatedBy: "U2", CreatedAt: at}
	api := store.DigestSub{Team: "T1", Channel: "C1", Project: "api", Frequency: "weekly", CreatedBy: "U3", CreatedAt: at}
	for _, d := range []store.DigestSub{legacy, docs, api} {
		if err := s.Digests().SubscribeDigest(ctx, d); err != nil {
			t.Fatalf("SubscribeDigest(%+v): %v", d, err)
		}
	}
	got, err := s.Digests().DigestSubs(ctx)
	if want := []store.DigestSub{legacy, api, docs}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("DigestSubs = %+v, %v\nwant %+v", got, err, want)
	}
	for _, d := range []store.DigestSub{legacy, docs, api} {
		one, err := s.Digests().DigestSub(ctx, d.Team, d.Channel, d.Project)
		if err != nil || !reflect.DeepEqual(*one, d) {
			t.Fatalf("DigestSub(%q) = %+v, %v; want %+v", d.Project, one, err, d)
		}
	}
	// The legacy subscription keeps its field, as subscriptions made before
	// projects existed have it.
	if n := rdb.HExists(ctx, s.Prefix()+"digest:subs", "T1:C1").Val(); !n {
		t.Fatal("the subscription without a project is not under team:channel")
	}

	// Failures and stops change the project's subscription only.
	if first, err := s.Digests().NoteDigestFailure(ctx, api, "invalid_blocks"); err != nil || !first {
		t.Fatalf("NoteDigestFailure(api) = %v, %v", first, err)
	}
	if first, err := s.Digests().NoteDigestFailure(ctx, docs, "invalid_blocks"); err != nil || !first {
		t.Fatalf("NoteDigestFailure(docs) = %v, %v; want its own first", first, err)
	}
	if stopped, err := s.Digests().StopDigest(ctx, docs); err != nil || !stopped {
		t.Fatalf("StopDigest(docs) = %v, %v", stopped, err)
	}
	if _, err := s.Digests().DigestSub(ctx, "T1", "C1", "docs"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("docs after StopDigest: %v, want ErrNotFound", err)
	}
	if ok, err := s.Digests().UnsubscribeDigest(ctx, "T1", "C1", "api"); !ok || err != nil {
		t.Fatalf("UnsubscribeDigest(api) = %v, %v", ok, err)
	}
	if got, _ := s.Digests().DigestSubs(ctx); !reflect.DeepEqual(got, []store.DigestSub{legacy}) {
		t.Fatalf("left %+v, want the legacy subscription alone", got)
	}
	if err := s.Digests().SubscribeDigest(ctx, store.DigestSub{Team: "T1", Channel: "C1", Project: "a:b", Frequency: "weekly"}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("a project with a colon: %v, want ErrInvalid", err)
	}

	// The same period in one channel: one run per project, each posted once.
	runs := []store.DigestRun{
		{Team: "T1", Channel: "C1", Period: "2026-W48"},
		{Team: "T1", Channel: "C1", Period: "2026-W48", Project: "docs"},
		{Team: "T1", Channel: "C1", Period: "2026-W48", Project: "api"},
	}
	for _, run := range runs {
		c, err := s.Digests().ClaimDigest(ctx, run, time.Minute, time.Hour)
		if err != nil || c.Attempt != 1 {
			t.Fatalf("ClaimDigest(%+v) = %+v, %v; want the first claim", run, c, err)
		}
		if err := s.Digests().MarkDigestPosted(ctx, c); err != nil {
			t.Fatalf("MarkDigestPosted(%+v): %v", run, err)
		}
	}
	for _, run := range runs {
		if _, err := s.Digests().ClaimDigest(ctx, run, time.Minute, time.Hour); !errors.Is(err, store.ErrDigestPosted) {
			t.Fatalf("second ClaimDigest(%+v): %v, want ErrDigestPosted", run, err)
		}
	}
	if d := pttl(t, s.Prefix()+"digest:run:T1:C1:2026-W48"); d <= 0 {
		t.Fatalf("the run without a project is not at its old key (PTTL %v)", d)
	}
	if d := pttl(t, s.Prefix()+"digest:run:T1:C1:api:2026-W48"); d <= 0 {
		t.Fatalf("the api project's run is not at its key (PTTL %v)", d)
	}
}
