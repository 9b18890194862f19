package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func TestRetryOfferIsTakenOnce(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	th := store.Thread{Team: "T1", Channel: "C1", TS: "1732233445.000200"}
	if _, err := s.RetryOffers().TakeRetry(t.Context(), th); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("TakeRetry before an offer = %v, want ErrNotFound", err)
	}
	if err := s.RetryOffers().OfferRetry(t.Context(), th, []byte(`{"prompt":"x"}`), time.Hour); err != nil {
		t.Fatalf("OfferRetry: %v", err)
	}
	got, err := s.RetryOffers().TakeRetry(t.Context(), th)
	if err != nil || string(got) != `{"prompt":"x"}` {
		t.Fatalf("TakeRetry = %q, %v", got, err)
	}
	if _, err := s.RetryOffers().TakeRetry(t.Context(), th); !errors.Is(err, store.ErrTaken) {
		t.Fatalf("second TakeRetry = %v, want ErrTaken", err)
	}
	other := store.Thread{Team: "T1", Channel: "C1", TS: "1732233445.000300"}
	if _, err := s.RetryOffers().TakeRetry(t.Context(), other); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("TakeRetry where nothing was offered = %v, want ErrNotFound", err)
	}
	if n, _ := rdb.Exists(t.Context(), s.Prefix()+"retry:T1:C1:1732233445.000300").Result(); n != 0 {
		t.Fatalf("TakeRetry left a key where nothing was offered")
	}
	if err := s.RetryOffers().OfferRetry(t.Context(), th, nil, 0); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("OfferRetry with no ttl = %v, want ErrInvalid", err)
	}
}

// TestTakeRetryWritesNoMarkWithoutAnOffer: where nothing was offered,
// TakeRetry leaves no key behind, even when a second command would fail (here
// an ACL user that may not delete): a mark written there would have no
// expiry and stay forever.
func TestTakeRetryWritesNoMarkWithoutAnOffer(t *testing.T) {
	standaloneOnly(t)
	t.Parallel()
	own := ownRedis(t)
	admin(t, own, "ACL", "SETUSER", "nodel", "on", ">nodel-pw", "~*", "&*", "+@all", "-del", "-unlink")
	s := openStore(t, "unix://nodel:nodel-pw@"+own.Socket)
	c := own.Client()
	defer c.Close()
	ctx := t.Context()
	th := store.Thread{Team: "T1", Channel: "C1", TS: "1732233445.000400"}
	key := s.Prefix() + "retry:T1:C1:1732233445.000400"
	if _, err := s.RetryOffers().TakeRetry(ctx, th); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("TakeRetry where nothing was offered = %v, want ErrNotFound", err)
	}
	if n, err := c.Exists(ctx, key).Result(); err != nil || n != 0 {
		t.Fatalf("EXISTS %s = %d, %v: TakeRetry left a key where nothing was offered", key, n, err)
	}
	// An offer taken keeps its time to live.
	if err := s.RetryOffers().OfferRetry(ctx, th, []byte("again"), time.Hour); err != nil {
		t.Fatal(err)
	}
	if got, err := s.RetryOffers().TakeRetry(ctx, th); err != nil || string(got) != "again" {
		t.Fatalf("TakeRetry = %q, %v", got, err)
	}
	if _, err := s.RetryOffers().TakeRetry(ctx, th); !errors.Is(err, store.ErrTaken) {
		t.Fatalf("second TakeRetry = %v, want ErrTaken", err)
	}
	if d, err := c.PTTL(ctx, key).Result(); err != nil || d <= 0 {
		t.Fatalf("PTTL of the taken offer = %v, %v; want its expiry kept", d, err)
	}
}
