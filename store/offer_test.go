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
	if _, err := s.TakeRetry(t.Context(), th); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("TakeRetry before an offer = %v, want ErrNotFound", err)
	}
	if err := s.OfferRetry(t.Context(), th, []byte(`{"prompt":"x"}`), time.Hour); err != nil {
		t.Fatalf("OfferRetry: %v", err)
	}
	got, err := s.TakeRetry(t.Context(), th)
	if err != nil || string(got) != `{"prompt":"x"}` {
		t.Fatalf("TakeRetry = %q, %v", got, err)
	}
	if _, err := s.TakeRetry(t.Context(), th); !errors.Is(err, store.ErrTaken) {
		t.Fatalf("second TakeRetry = %v, want ErrTaken", err)
	}
	other := store.Thread{Team: "T1", Channel: "C1", TS: "1732233445.000300"}
	if _, err := s.TakeRetry(t.Context(), other); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("TakeRetry where nothing was offered = %v, want ErrNotFound", err)
	}
	if n, _ := rdb.Exists(t.Context(), s.Prefix()+"retry:T1:C1:1732233445.000300").Result(); n != 0 {
		t.Fatalf("TakeRetry left a key where nothing was offered")
	}
	if err := s.OfferRetry(t.Context(), th, nil, 0); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("OfferRetry with no ttl = %v, want ErrInvalid", err)
	}
}
