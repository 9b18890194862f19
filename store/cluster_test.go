package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestCluster runs every kind of store write against a real three-node Redis
// Cluster with the default prefix, whose shards spread over the primaries:
// the inbox, the job schedule from link to report, the budget, the visitors
// cache, retry offers and prefix deletion.
func TestCluster(t *testing.T) {
	standaloneOnly(t)
	if testing.Short() {
		t.Skip("starts a three-node Redis Cluster")
	}
	t.Parallel()
	c, err := redistest.StartCluster()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx := t.Context()
	s, err := store.Open(ctx, c.URL)
	if err != nil {
		t.Fatalf("Open(%s): %v", c.URL, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if s.Topology() != store.Cluster {
		t.Fatalf("Topology = %s, want cluster", s.Topology())
	}
	o, err := redis.ParseClusterURL(c.URL)
	if err != nil {
		t.Fatal(err)
	}
	cc := redis.NewClusterClient(o)
	t.Cleanup(func() { _ = cc.Close() })
	nodes := map[string]bool{}
	for _, k := range s.SchedKeys() {
		node, err := cc.MasterForKey(ctx, k)
		if err != nil {
			t.Fatalf("MasterForKey(%s): %v", k, err)
		}
		nodes[node.Options().Addr] = true
	}
	if len(nodes) != 3 {
		t.Fatalf("the schedule's %d shards are on %d primaries, want all 3", store.Shards, len(nodes))
	}
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s on the cluster: %v", what, err)
		}
	}

	// The inbox.
	enqueue(t, s, work(1))
	taken, err := s.Inbox().ClaimWork(ctx, 10, time.Minute)
	if err != nil || len(taken) != 1 {
		t.Fatalf("ClaimWork = %d, %v", len(taken), err)
	}
	must("Mark", s.Inbox().Mark(ctx, taken[0], time.Minute, map[string]string{"root": "1.2"}))
	must("Defer", s.Inbox().Defer(ctx, taken[0], 0))
	taken, err = s.Inbox().ClaimWork(ctx, 10, time.Minute)
	if err != nil || len(taken) != 1 || taken[0].Marks["root"] != "1.2" {
		t.Fatalf("ClaimWork again = %+v, %v", taken, err)
	}
	must("ReleaseWork", s.Inbox().ReleaseWork(ctx, taken, 0))
	taken, _ = s.Inbox().ClaimWork(ctx, 10, time.Minute)
	must("Done", s.Inbox().Done(ctx, taken[0]))

	// A job from link to report.
	j := testJob(1)
	must("LinkJob", s.Jobs().LinkJob(ctx, j, 0))
	if _, err := s.Jobs().JobByThread(ctx, j.Thread); err != nil {
		t.Fatalf("JobByThread: %v", err)
	}
	_, err = s.Jobs().FollowUp(ctx, j, "", 0)
	must("FollowUp", err)
	claims, err := s.Jobs().Claim(ctx, 10, time.Minute)
	if err != nil || len(claims) != 1 {
		t.Fatalf("Claim = %d, %v", len(claims), err)
	}
	must("Reschedule", s.Jobs().Reschedule(ctx, claims[0], "active", 0))
	claims, _ = s.Jobs().Claim(ctx, 10, time.Minute)
	notify, err := s.Jobs().Finish(ctx, claims[0], "completed", "https://github.com/acme/docs/pull/1", time.Minute)
	if err != nil || !notify {
		t.Fatalf("Finish = %v, %v", notify, err)
	}
	must("MarkNotified", s.Jobs().MarkNotified(ctx, claims[0]))
	if _, ok, err := s.Jobs().NextDue(ctx); err != nil || ok {
		t.Fatalf("NextDue after the report = %v, %v; want nothing scheduled", ok, err)
	}

	// The budget, the visitors cache and retry offers.
	b := store.Budget{Name: "analytics", Limit: 5, Window: time.Hour}
	g, err := s.Limits().TakeBudget(ctx, b, 2)
	must("TakeBudget", err)
	must("ReturnBudget", s.Limits().ReturnBudget(ctx, b, g.Tokens))
	// A person's draw: the budget and their share in one script.
	d := store.Draw{Budget: b, Keep: 1, Who: "T1:U1", Share: 2}
	g, err = s.Limits().Draw(ctx, d, 2)
	must("Draw", err)
	if !g.OK() {
		t.Fatalf("Draw on the cluster: %+v", g)
	}
	_, err = s.Limits().Room(ctx, d)
	must("Room", err)
	must("Refund", s.Limits().Refund(ctx, d, g.Tokens))
	must("BlockBudget", s.Limits().BlockBudget(ctx, b, time.Second))
	must("SaveVisitors", s.Analytics().SaveVisitors(ctx, "p:2025-11-01:2025-11-08", &store.VisitorsSnapshot{Requests: 1}, time.Minute))
	if _, err := s.Analytics().LoadVisitors(ctx, "p:2025-11-01:2025-11-08"); err != nil {
		t.Fatalf("LoadVisitors: %v", err)
	}
	must("OfferRetry", s.RetryOffers().OfferRetry(ctx, j.Thread, []byte("x"), time.Minute))
	_, err = s.RetryOffers().TakeRetry(ctx, j.Thread)
	must("TakeRetry", err)

	if rep, err := store.Check(ctx, c.URL, store.DefaultPrefix); err != nil || rep.Topology != store.Cluster || rep.Primaries != 3 {
		t.Fatalf("Check of the cluster = %+v, %v; want a cluster of 3 primaries", rep, err)
	}

	// Everything under the prefix goes, on whichever node it is.
	n, err := s.DeletePrefix(context.Background(), store.DefaultPrefix)
	if err != nil || n == 0 {
		t.Fatalf("DeletePrefix = %d, %v", n, err)
	}
	if q, _ := s.Inbox().Queued(ctx); q != 0 {
		t.Fatalf("Queued after DeletePrefix = %d", q)
	}
}
