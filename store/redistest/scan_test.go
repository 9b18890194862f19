package redistest_test

import (
	"slices"
	"testing"

	"github.com/docsbot/docsbot/store/redistest"
)

// TestExpireKeys: the keys matching the pattern are gone, the others kept.
func TestExpireKeys(t *testing.T) {
	t.Parallel()
	s, err := redistest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rdb := s.Client()
	defer rdb.Close()
	ctx := t.Context()
	for _, k := range []string{"p:in:react:1", "p:in:ask:react:1", "p:once:react:1", "q:in:react:1"} {
		if err := rdb.Set(ctx, k, "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if n := redistest.ExpireKeys(t, s.URL, "p:*in:*react:*"); n != 2 {
		t.Errorf("ExpireKeys ended %d keys, want 2", n)
	}
	left, err := rdb.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(left)
	if want := []string{"p:once:react:1", "q:in:react:1"}; !slices.Equal(left, want) {
		t.Errorf("keys left %q, want %q", left, want)
	}
}
