package store_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// envTopology chooses the Redis the package's tests share: unset (one
// redis-server), "sentinel" or "cluster". `make test` runs the package once
// for each.
const envTopology = "DOCSBOT_TEST_REDIS"

// The Redis shared by the package's tests: srv when standalone, its URL in
// every topology, and rdb, a client of it. Each test keeps its keys apart
// with its own prefix (testPrefix).
var (
	srv       *redistest.Server
	sharedURL string
	topology  = os.Getenv(envTopology)
	rdb       redis.UniversalClient
)

func TestMain(m *testing.M) {
	// Many tests wait on servers of their own (a Sentinel's failover, a
	// lease running out): 8 at once, not one a core.
	redistest.Parallel(8)
	var closeRedis func() error
	switch topology {
	case "sentinel":
		d, err := redistest.StartSentinel()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		sharedURL, closeRedis = d.URL, d.Close
	case "cluster":
		c, err := redistest.StartCluster()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		sharedURL, closeRedis = c.URL, c.Close
	case "":
		s, err := redistest.Start()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		srv, sharedURL, closeRedis = s, s.URL, s.Close
	default:
		fmt.Fprintf(os.Stderr, "%s=%q: want sentinel, cluster or nothing\n", envTopology, topology)
		os.Exit(2)
	}
	rdb = newClient()
	code := m.Run()
	rdb.Close()
	if err := closeRedis(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	os.Exit(code)
}

// newClient returns a new client of the shared Redis, for its topology.
func newClient() redis.UniversalClient {
	switch topology {
	case "sentinel":
		o, _ := redis.ParseFailoverURL(sharedURL)
		return redis.NewFailoverClient(o)
	case "cluster":
		o, _ := redis.ParseClusterURL(sharedURL)
		return redis.NewClusterClient(o)
	}
	return srv.Client()
}

// testPrefix is a key prefix of the test's own. It has no hash tag: on a
// cluster the test's keys spread over the slots of the shards, as docsbot's
// do.
func testPrefix(tb testing.TB) string { return redistest.Prefix(tb) }

// standaloneOnly skips a test that starts or breaks Redis servers of its
// own, or inspects the shared one in ways only a single server allows.
func standaloneOnly(t *testing.T) {
	t.Helper()
	if topology != "" {
		t.Skipf("runs against one redis-server only (%s=%s)", envTopology, topology)
	}
}

// ownSentinel starts a Sentinel deployment for the test alone, closed when
// it ends: in the standalone pass only, in parallel, and not under -short
// (cost says what the test starts).
func ownSentinel(t *testing.T, cost string) *redistest.Sentinels {
	t.Helper()
	standaloneOnly(t)
	if testing.Short() {
		t.Skip(cost)
	}
	t.Parallel()
	d, err := redistest.StartSentinel()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// newStore returns a Store on the shared Redis with a prefix of its own.
func newStore(tb testing.TB, opts ...store.Option) *store.Store {
	tb.Helper()
	return store.New(rdb, append([]store.Option{store.WithPrefix(testPrefix(tb))}, opts...)...)
}

// testJob returns a job with its own id and thread.
func testJob(i int) store.Job {
	n := strconv.Itoa(i)
	return store.Job{
		ID:        "job-" + n,
		Thread:    store.Thread{Team: "T0001", Channel: "C0001", TS: "1732233445." + fmt.Sprintf("%06d", i)},
		Requester: "U0001",
		Prompt:    "Document the new CLI flags (" + n + ")",
		Status:    "active",
	}
}

// link stores j due at once and fails the test on error.
func link(t *testing.T, s *store.Store, j store.Job) {
	t.Helper()
	if err := s.Jobs().LinkJob(t.Context(), j, 0); err != nil {
		t.Fatalf("LinkJob(%s): %v", j.ID, err)
	}
}

// claimOne claims the single due job of s, failing unless it is id.
func claimOne(t *testing.T, s *store.Store, id string, lease time.Duration) store.Claim {
	t.Helper()
	cs, err := s.Jobs().Claim(t.Context(), 10, lease)
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	if len(cs) != 1 || cs[0].JobID != id {
		t.Fatalf("Claim = %v, want just %s", ids(cs), id)
	}
	return cs[0]
}

// ids lists the job ids of claims.
func ids(cs []store.Claim) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.JobID
	}
	return out
}

// tracked returns s.Tracked, failing the test on error.
func tracked(t *testing.T, s *store.Store) int64 {
	t.Helper()
	n, err := s.Jobs().Tracked(t.Context())
	if err != nil {
		t.Fatalf("Tracked: %v", err)
	}
	return n
}

// threadKey is the key of t's link, as documented in the package doc.
func threadKey(s *store.Store, t store.Thread) string { return s.ThreadKeyOf(t) }

// jobKey is the key of a job record, as documented in the package doc.
func jobKey(s *store.Store, j store.Job) string { return s.JobKeyOf(j.ID, j.Thread) }

// pttl returns the remaining time to live of key in ms (-1: none, -2: no key).
func pttl(t *testing.T, key string) time.Duration {
	t.Helper()
	d, err := rdb.PTTL(context.Background(), key).Result()
	if err != nil {
		t.Fatalf("PTTL %s: %v", key, err)
	}
	return d
}

// scheduled reports whether j is in s's schedule.
func scheduled(t *testing.T, s *store.Store, j store.Job) bool {
	t.Helper()
	err := rdb.ZScore(context.Background(), s.SchedKeyOf(j.Thread), j.ID).Err()
	if err == redis.Nil {
		return false
	}
	if err != nil {
		t.Fatalf("ZSCORE: %v", err)
	}
	return true
}

// mustJob returns s.Jobs().Job(id), failing the test on error.
func mustJob(t *testing.T, s *store.Store, id string) *store.Job {
	t.Helper()
	j, err := s.Jobs().Job(t.Context(), id)
	if err != nil {
		t.Fatalf("Job(%s): %v", id, err)
	}
	return j
}

// claimConcurrently runs replicas claimers, each with its own client and
// Store under prefix, calling claim until it returns nothing, and counts how
// often each id was claimed.
func claimConcurrently(t *testing.T, prefix string, replicas int, claim func(*store.Store) ([]string, error)) map[string]int {
	t.Helper()
	var (
		mu     sync.Mutex
		counts = map[string]int{}
		wg     sync.WaitGroup
		errs   = make(chan error, replicas)
	)
	for range replicas {
		wg.Go(func() {
			client := newClient()
			defer client.Close()
			s := store.New(client, store.WithPrefix(prefix))
			for {
				got, err := claim(s)
				if err != nil {
					errs <- err
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, id := range got {
					counts[id]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("claim: %v", err)
	}
	return counts
}
