package store_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func TestDeploys(t *testing.T) {
	t.Parallel()
	ds := newStore(t).Deploys()
	ctx := t.Context()
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for i := range store.DeploysKept + 3 {
		r := store.DeployRecord{ID: fmt.Sprintf("d%02d", i), State: "queued", User: "U1", Channel: "C1", Started: start.Add(time.Duration(i) * time.Minute)}
		if err := ds.SaveDeploy(ctx, "T1", r); err != nil {
			t.Fatal(err)
		}
	}
	last := store.DeployRecord{ID: "d22", State: "success", StatusID: "s22", User: "U1", Channel: "C1", Started: start.Add(22 * time.Minute), Ended: start.Add(25 * time.Minute)}
	if err := ds.SaveDeploy(ctx, "T1", last); err != nil {
		t.Fatal(err)
	}
	got, err := ds.RecentDeploys(ctx, "T1", 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != store.DeploysKept || got[0].ID != "d22" || got[0].State != "success" || !got[0].Ended.Equal(last.Ended) || got[len(got)-1].ID != "d03" {
		t.Errorf("recent: %d records, first %+v, last %+v; want the latest %d, newest first, the replaced record read back", len(got), got[0], got[len(got)-1], store.DeploysKept)
	}
	if other, err := ds.RecentDeploys(ctx, "T2", 5); err != nil || len(other) != 0 {
		t.Errorf("another team's: %v, %v", other, err)
	}
	if _, err := ds.Deploy(ctx, "T1", "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a missing record: %v", err)
	}
	if err := ds.SaveDeploy(ctx, "T1", store.DeployRecord{ID: "x"}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("a record without its start: %v", err)
	}
}

// TestDeploySaves: AddDeploy keeps a record already there (a start tried
// again) and lists it; UpdateDeploy replaces the record and leaves the list
// alone; SaveDeploy replaces and lists.
func TestDeploySaves(t *testing.T) {
	t.Parallel()
	ds := newStore(t).Deploys()
	ctx := t.Context()
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	rec := func(id, state string, at int) store.DeployRecord {
		return store.DeployRecord{ID: id, State: state, User: "U1", Channel: "C1", Started: start.Add(time.Duration(at) * time.Minute)}
	}
	steps := []struct {
		name string
		save func() error
		want []string // the list, newest first: id=state
	}{
		{"the start recorded", func() error { return ds.AddDeploy(ctx, "T1", rec("a", "queued", 0)) }, []string{"a=queued"}},
		{"followed", func() error { return ds.UpdateDeploy(ctx, "T1", rec("a", "in_progress", 0)) }, []string{"a=in_progress"}},
		{"the start again keeps what was followed", func() error { return ds.AddDeploy(ctx, "T1", rec("a", "queued", 0)) }, []string{"a=in_progress"}},
		{"an update lists nothing", func() error { return ds.UpdateDeploy(ctx, "T1", rec("b", "success", 1)) }, []string{"a=in_progress"}},
		{"a save replaces and lists", func() error { return ds.SaveDeploy(ctx, "T1", rec("b", "unknown", 1)) }, []string{"b=unknown", "a=in_progress"}},
		{"followed to its end", func() error { return ds.UpdateDeploy(ctx, "T1", rec("a", "success", 0)) }, []string{"b=unknown", "a=success"}},
	}
	for _, st := range steps {
		if err := st.save(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got, err := ds.RecentDeploys(ctx, "T1", store.DeploysKept)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		var list []string
		for _, r := range got {
			list = append(list, r.ID+"="+r.State)
		}
		if fmt.Sprint(list) != fmt.Sprint(st.want) {
			t.Errorf("%s: listed %v, want %v", st.name, list, st.want)
		}
	}
	for _, bad := range []func() error{
		func() error { return ds.AddDeploy(ctx, "T1", store.DeployRecord{ID: "x"}) },
		func() error { return ds.UpdateDeploy(ctx, "", rec("x", "queued", 0)) },
	} {
		if err := bad(); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("an invalid save: %v, want ErrInvalid", err)
		}
	}
}

// TestDeployCommands pins the Redis commands of a deployment's saves (INFO
// commandstats): its first record and list entry 4 (SET, ZADD, EXPIRE,
// ZREMRANGEBYRANK, in one round trip, no transaction), each later state 1.
func TestDeployCommands(t *testing.T) {
	t.Parallel()
	own := ownRedis(t)
	s := openStore(t, own.URL)
	ds := s.Deploys()
	ctx := t.Context()
	r := store.DeployRecord{ID: "d1", State: "queued", User: "U1", Channel: "C1", Started: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)}
	later := r
	later.State = "in_progress"
	// The connection's own commands (HELLO) come first, once.
	if err := ds.SaveDeploy(ctx, "T0", r); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		save func() error
		want int64
	}{
		{"AddDeploy", func() error { return ds.AddDeploy(ctx, "T1", r) }, 4},
		{"UpdateDeploy", func() error { return ds.UpdateDeploy(ctx, "T1", later) }, 1},
		{"AddDeploy of a record there", func() error { return ds.AddDeploy(ctx, "T1", r) }, 4},
		{"SaveDeploy", func() error { return ds.SaveDeploy(ctx, "T1", later) }, 4},
	}
	for _, tt := range tests {
		if n := commandsOf(t, s, tt.save); n != tt.want {
			t.Errorf("%s: %d commands, want %d", tt.name, n, tt.want)
		}
	}
}
