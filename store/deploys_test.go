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
