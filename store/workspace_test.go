package store_test

import (
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestWorkNamesItsWorkspace: a piece of work keeps the workspace it was
// recorded for, team and enterprise, through its claims; one recorded
// without (the one workspace) and one recorded before work named it (no ws
// field in its record) both come back with the zero Workspace.
func TestWorkNamesItsWorkspace(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	grid := work(1)
	grid.Workspace = store.Workspace{Team: "T0GRID", Enterprise: "E0ORG"}
	team := work(2)
	team.Workspace = store.Workspace{Team: "T0ONE"}
	one := work(3)
	for _, w := range []store.Work{grid, team, one} {
		enqueue(t, s, w)
	}
	// A record as versions before workspaces wrote it: no ws field.
	old := work(4)
	enqueue(t, s, old)
	if err := rdb.HDel(t.Context(), s.WorkKeyOf(old.Key), "ws").Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string]store.Workspace{grid.Key: grid.Workspace, team.Key: team.Workspace, one.Key: {}, old.Key: {}}
	got := claimWork(t, s, time.Millisecond)
	if len(got) != len(want) {
		t.Fatalf("claimed %d pieces of work, want %d", len(got), len(want))
	}
	for _, w := range got {
		if w.Workspace != want[w.Key] {
			t.Errorf("%s: workspace %+v, want %+v", w.Key, w.Workspace, want[w.Key])
		}
	}
	// Claimed again once the lease ran out: the workspace stays.
	again := map[string]store.Workspace{}
	redistest.Until(t, "the work due again", func() bool {
		for _, w := range claimWork(t, s, time.Minute) {
			again[w.Key] = w.Workspace
		}
		return len(again) == len(want)
	})
	for key, ws := range again {
		if ws != want[key] {
			t.Errorf("%s, claimed again: workspace %+v, want %+v", key, ws, want[key])
		}
	}
}

func TestWorkspaceString(t *testing.T) {
	t.Parallel()
	for _, w := range []store.Workspace{{}, {Team: "T1"}, {Team: "T1", Enterprise: "E1"}} {
		if got := store.ParseWorkspace(w.String()); got != w {
			t.Errorf("ParseWorkspace(%q) = %+v, want %+v", w.String(), got, w)
		}
	}
	if !(store.Workspace{}).IsZero() || (store.Workspace{Team: "T1"}).IsZero() {
		t.Error("IsZero wrong")
	}
}
