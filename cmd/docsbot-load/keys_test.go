package main

import (
	"context"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestStoreKeysNameTheStoresKeys links a job through the store, under a
// prefix of its own, and checks that storeKey names the keys the store wrote.
func TestStoreKeysNameTheStoresKeys(t *testing.T) {
	t.Parallel()
	rs, err := redistest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rs.Close() })
	rdb := rs.Client()
	t.Cleanup(func() { _ = rdb.Close() })
	st := store.New(rdb, store.WithPrefix("docsbot-load-test:"))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	const id, ts = "job-keys-1", "1700000000.000100"
	err = st.LinkJob(ctx, store.Job{
		ID:     id,
		Thread: store.Thread{Team: loadTeam, Channel: loadChannel, TS: ts},
		Prompt: "Document the webhooks", Requester: loadUser, Status: "active",
	}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		parts []string
	}{
		{"schedule", []string{"sched"}},
		{"job record", []string{"job", id}},
		{"thread link", []string{"thread", loadTeam, loadChannel, ts}},
	}
	for _, tc := range tests {
		k := storeKey(st, tc.parts...)
		if n, err := rdb.Exists(ctx, k).Result(); err != nil || n != 1 {
			t.Errorf("%s: key %q exists %d (%v), want 1", tc.name, k, n, err)
		}
	}
}
