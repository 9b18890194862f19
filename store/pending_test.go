package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

func TestPending(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	const id = "0123456789abcdef"
	if _, err := s.PendingStarts().Pending(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Pending before a save = %v, want ErrNotFound", err)
	}
	if err := s.PendingStarts().SavePending(ctx, id, []byte(`{"prompt":"x"}`), time.Hour); err != nil {
		t.Fatal(err)
	}
	got, err := s.PendingStarts().Pending(ctx, id)
	if err != nil || string(got) != `{"prompt":"x"}` {
		t.Fatalf("Pending = %q, %v", got, err)
	}
	if ttl := rdb.PTTL(ctx, s.Prefix()+"pending:"+id).Val(); ttl <= 0 || ttl > time.Hour {
		t.Errorf("PTTL = %v, want at most an hour", ttl)
	}
	if err := s.PendingStarts().DropPending(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PendingStarts().Pending(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Pending after a drop = %v, want ErrNotFound", err)
	}

	// Its time runs out.
	if err := s.PendingStarts().SavePending(ctx, id, []byte("y"), 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	redistest.Until(t, "the pending instruction to expire", func() bool {
		_, err := s.PendingStarts().Pending(ctx, id)
		return errors.Is(err, store.ErrNotFound)
	})

	for _, bad := range []struct {
		id  string
		ttl time.Duration
	}{{"", time.Hour}, {"short", time.Hour}, {"with:colon:0123", time.Hour}, {id, 0}} {
		if err := s.PendingStarts().SavePending(ctx, bad.id, []byte("z"), bad.ttl); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("SavePending(%q, %v) = %v, want ErrInvalid", bad.id, bad.ttl, err)
		}
	}
	if _, err := s.PendingStarts().Pending(ctx, "not one of ours!"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Pending of a foreign id = %v, want ErrNotFound", err)
	}
}
