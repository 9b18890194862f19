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
	if _, err := s.TakeRetry(t.Context(), th); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second TakeRetry = %v, want ErrNotFound", err)
	}
	if err := s.OfferRetry(t.Context(), th, nil, 0); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("OfferRetry with no ttl = %v, want ErrInvalid", err)
	}
}
