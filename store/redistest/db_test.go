package redistest_test

import (
	"strconv"
	"testing"

	"github.com/docsbot/docsbot/store/redistest"
)

// TestTakeDB checks that the databases handed out are distinct and not
// database 0, and that they come back empty when their test ends.
func TestTakeDB(t *testing.T) {
	t.Parallel()
	s, err := redistest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	ctx := t.Context()

	ok := t.Run("hold all fifteen", func(t *testing.T) {
		seen := map[int]bool{}
		for range 15 {
			db := s.TakeDB(t)
			if db.Num == 0 || seen[db.Num] {
				t.Fatalf("TakeDB handed out database %d (held: %v)", db.Num, seen)
			}
			seen[db.Num] = true
			if want := s.URL + "?db=" + strconv.Itoa(db.Num); db.URL != want {
				t.Fatalf("URL = %q, want %q", db.URL, want)
			}
			if err := db.Client.Set(ctx, "k", "v", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
	})
	if !ok {
		t.FailNow()
	}
	db := s.TakeDB(t)
	if n, err := db.Client.DBSize(ctx).Result(); err != nil || n != 0 {
		t.Fatalf("database %d given back with %d keys (%v), want empty", db.Num, n, err)
	}
}
