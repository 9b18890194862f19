package bot

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestTeamCache: a read is used teamFresh; past it, a failed read again
// keeps the last one in use teamRetry more without asking again, and a
// read again that waits on Redis gives up after teamStaleWait; forget
// drops a workspace at once.
func TestTeamCache(t *testing.T) {
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	var loads int
	var fail, hang bool
	c := newTeamCache(func(ctx context.Context, team string) (int, error) {
		loads++
		switch {
		case hang:
			<-ctx.Done()
			return 0, ctx.Err()
		case fail:
			return 0, errors.New("redis away")
		}
		return loads, nil
	})
	c.now = func() time.Time { return now }
	get := func(wantV, wantLoads int, wantErr bool) {
		t.Helper()
		v, err := c.get(context.Background(), "T1")
		if v != wantV || loads != wantLoads || (err != nil) != wantErr {
			t.Fatalf("get = %d, %v after %d loads; want %d, error %t after %d", v, err, loads, wantV, wantErr, wantLoads)
		}
	}
	get(1, 1, false)
	now = now.Add(teamFresh - time.Millisecond)
	get(1, 1, false) // fresh
	now = now.Add(time.Millisecond)
	fail = true
	get(1, 2, true) // stale, Redis away: the last read, and the error
	get(1, 2, false)
	now = now.Add(teamRetry)
	get(1, 3, true) // asked again after teamRetry
	fail, hang = false, true
	now = now.Add(teamRetry)
	get(1, 4, true) // Redis crawls: given up (after teamStaleWait), the last read used
	hang = false
	c.forget("T1")
	get(5, 5, false)
	if v, err := c.get(context.Background(), ""); v != 0 || err != nil {
		t.Errorf("the zero team = %d, %v", v, err)
	}
}
