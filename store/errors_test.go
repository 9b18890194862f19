package store_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestErrorKinds makes real redis-servers fail in each way of the store's
// table of failures and checks that the store's error is of that kind and
// no other (errors.Is), whether it is Temporary, and that what failed
// beneath stays in the chain.
func TestErrorKinds(t *testing.T) {
	standaloneOnly(t)
	t.Parallel()
	isReply := func(err error) bool { _, ok := errors.AsType[redis.Error](err); return ok }
	isNet := func(err error) bool {
		_, ok := errors.AsType[net.Error](err)
		return ok || errors.Is(err, context.DeadlineExceeded)
	}
	type failing struct {
		name string
		// fail makes a Redis fail and returns the error of a store call.
		fail      func(t *testing.T, ctx context.Context) error
		kind      error
		temporary bool
		beneath   func(error) bool // what must still be in the chain; nil: anything
	}
	tests := []failing{
		{
			name: "server stopped",
			fail: func(t *testing.T, ctx context.Context) error {
				own := ownRedis(t)
				s := openStore(t, own.URL)
				if err := own.Stop(); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(ctx, time.Second)
				defer cancel()
				_, err := s.Jobs().Tracked(ctx)
				return err
			},
			kind: store.ErrUnreachable, temporary: true, beneath: isNet,
		},
		{
			name: "requirepass, no password",
			fail: func(t *testing.T, ctx context.Context) error {
				own := ownRedis(t)
				requirePass(t, own, "the-pass")
				_, err := store.Open(ctx, own.URL)
				return err
			},
			kind: store.ErrAuth, beneath: isReply,
		},
		{
			name: "requirepass, wrong password",
			fail: func(t *testing.T, ctx context.Context) error {
				own := ownRedis(t)
				requirePass(t, own, "the-pass")
				_, err := store.Open(ctx, "unix://:not-the-pass@"+own.Socket)
				return err
			},
			kind: store.ErrAuth, beneath: isReply,
		},
		{
			name: "ACL user without write permission",
			fail: func(t *testing.T, ctx context.Context) error {
				own := ownRedis(t)
				admin(t, own, "ACL", "SETUSER", "reader", "on", ">reader-pw", "~*", "+@read", "+@connection")
				s := openStore(t, "unix://reader:reader-pw@"+own.Socket)
				return s.Jobs().LinkJob(ctx, testJob(1), time.Minute)
			},
			kind: store.ErrNoPerm, beneath: isReply,
		},
		{
			name: "write to a replica",
			fail: func(t *testing.T, ctx context.Context) error {
				primary := ownRedis(t, redistest.WithTCP(), redistest.WithArgs("--repl-diskless-sync-delay", "0"))
				host, port, err := net.SplitHostPort(primary.Addr)
				if err != nil {
					t.Fatal(err)
				}
				replica := ownRedis(t, redistest.WithArgs("--replicaof", host, port))
				rc := replica.Client()
				defer rc.Close()
				redistest.Until(t, "the replica to follow the primary", func() bool {
					info, err := rc.Info(ctx, "replication").Result()
					return err == nil && strings.Contains(info, "master_link_status:up")
				})
				s := openStore(t, replica.URL)
				return s.Jobs().LinkJob(ctx, testJob(2), time.Minute)
			},
			kind: store.ErrReadOnly, temporary: true, beneath: isReply,
		},
		{
			name: "out of memory",
			fail: func(t *testing.T, ctx context.Context) error {
				own := ownRedis(t)
				s := openStore(t, own.URL)
				admin(t, own, "CONFIG", "SET", "maxmemory", "1", "maxmemory-policy", "noeviction")
				return s.Jobs().LinkJob(ctx, testJob(3), time.Minute)
			},
			kind: store.ErrFull, beneath: isReply,
		},
		{
			name: "cannot save",
			fail: func(t *testing.T, ctx context.Context) error {
				// A snapshot into a directory that is gone fails, and a Redis
				// with save points then refuses writes
				// (stop-writes-on-bgsave-error).
				dir := filepath.Join(t.TempDir(), "data")
				if err := os.Mkdir(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				own := ownRedis(t, redistest.WithArgs("--dir", dir, "--save", "3600 1"))
				s := openStore(t, own.URL)
				if err := os.Remove(dir); err != nil {
					t.Fatal(err)
				}
				admin(t, own, "BGSAVE")
				rc := own.Client()
				defer rc.Close()
				redistest.Until(t, "the snapshot to fail", func() bool {
					info, err := rc.Info(ctx, "persistence").Result()
					return err == nil && strings.Contains(info, "rdb_last_bgsave_status:err")
				})
				err := s.Jobs().LinkJob(ctx, testJob(4), time.Minute)
				// Without save points it stops at once instead of trying a
				// last snapshot.
				admin(t, own, "CONFIG", "SET", "save", "")
				return err
			},
			kind: store.ErrCannotPersist, beneath: isReply,
		},
		{
			name: "TLS certificate not trusted",
			fail: func(t *testing.T, ctx context.Context) error {
				srv := httptest.NewUnstartedServer(http.NotFoundHandler())
				srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake fails on purpose
				srv.StartTLS()
				defer srv.Close()
				_, err := store.Open(ctx, "rediss://"+srv.Listener.Addr().String())
				return err
			},
			kind: store.ErrTLS,
		},
		{
			// A primary without replicas: WAIT for one times out after
			// the write went through.
			name: "no replica confirms",
			fail: func(t *testing.T, ctx context.Context) error {
				client := ownRedis(t).Client()
				t.Cleanup(func() { _ = client.Close() })
				s := store.New(client, store.WithReplicaAcks(1, 10*time.Millisecond))
				_, err := s.Inbox().Enqueue(ctx, work(1), time.Hour)
				return err
			},
			kind: store.ErrUnconfirmed, temporary: true,
		},
		{
			name: "URL does not parse",
			fail: func(t *testing.T, ctx context.Context) error {
				_, err := store.Open(ctx, "http://localhost:6379")
				return err
			},
			kind: store.ErrBadURL,
		},
	}
	// Every kind of the table is made to happen but ErrLoading, which needs
	// a Redis loading its data or a cluster without its slots.
	for _, k := range store.FailureKinds() {
		if k != store.ErrLoading && !slices.ContainsFunc(tests, func(tt failing) bool { return tt.kind == k }) {
			t.Errorf("no test makes %v happen", k)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.fail(t, t.Context())
			t.Logf("error: %v", err)
			for _, k := range store.FailureKinds() {
				if got, want := errors.Is(err, k), k == tt.kind; got != want {
					t.Errorf("errors.Is(%v, %v) = %v, want %v", err, k, got, want)
				}
			}
			if got := store.Temporary(err); got != tt.temporary {
				t.Errorf("Temporary(%v) = %v, want %v", err, got, tt.temporary)
			}
			if tt.beneath != nil && !tt.beneath(err) {
				t.Errorf("%v: the failure of Redis or the network is not in the chain", err)
			}
		})
	}
}

// ownRedis starts a redis-server for one test that breaks it.
func ownRedis(t *testing.T, opts ...redistest.Option) *redistest.Server {
	t.Helper()
	own, err := redistest.Start(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = own.Close() })
	return own
}

// openStore opens a Store on url, closed when the test ends.
func openStore(t *testing.T, url string) *store.Store {
	t.Helper()
	s, err := store.Open(t.Context(), url)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// admin runs one command on own as its default user.
func admin(t *testing.T, own *redistest.Server, args ...any) {
	t.Helper()
	c := own.Client()
	defer c.Close()
	if err := c.Do(t.Context(), args...).Err(); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

// requirePass gives own's default user a password (requirepass).
func requirePass(t *testing.T, own *redistest.Server, pass string) {
	t.Helper()
	admin(t, own, "CONFIG", "SET", "requirepass", pass)
}

func TestCheck(t *testing.T) {
	standaloneOnly(t)
	t.Parallel()
	own, err := redistest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = own.Close() })
	admin := own.Client()
	t.Cleanup(func() { _ = admin.Close() })
	ctx := t.Context()

	rep, err := store.Check(ctx, own.URL, "docsbot:")
	if err != nil || rep.MaxMemory != "0" || rep.Evicts() || rep.Topology != store.Standalone {
		t.Fatalf("Check of a healthy Redis = %+v, %v; want no error, no memory limit", rep, err)
	}
	if err := admin.ConfigSet(ctx, "maxmemory", "100mb").Err(); err != nil {
		t.Fatal(err)
	}
	if err := admin.ConfigSet(ctx, "maxmemory-policy", "allkeys-lru").Err(); err != nil {
		t.Fatal(err)
	}
	if rep, err := store.Check(ctx, own.URL, "docsbot:"); err != nil || !rep.Evicts() || rep.Policy != "allkeys-lru" {
		t.Fatalf("Check with allkeys-lru = %+v, %v; want a report that it evicts", rep, err)
	}
	if n, err := admin.Keys(ctx, "docsbot:doctor:*").Result(); err != nil || len(n) != 0 {
		t.Fatalf("probe keys left behind: %v, %v", n, err)
	}

	if err := admin.Do(ctx, "ACL", "SETUSER", "reader", "on", ">pw", "~*", "+@read", "+@connection").Err(); err != nil {
		t.Fatal(err)
	}
	_, err = store.Check(ctx, "unix://reader:pw@"+own.Socket, "docsbot:")
	var ce *store.CheckError
	if !errors.As(err, &ce) || ce.Step != "PING ok, write refused" || !errors.Is(err, store.ErrNoPerm) {
		t.Fatalf("Check as a read-only user = %v; want the write step refused with ErrNoPerm", err)
	}
	if _, err := store.Check(ctx, "http://nowhere", "docsbot:"); !errors.Is(err, store.ErrBadURL) {
		t.Fatalf("Check of a bad URL = %v, want ErrBadURL", err)
	}
}

func TestDeletePrefix(t *testing.T) {
	standaloneOnly(t)
	t.Parallel()
	prefix := testPrefix(t)
	s := store.New(rdb, store.WithPrefix(prefix+"inner:"))
	for i := range 1200 {
		link(t, s, testJob(i))
	}
	ctx := t.Context()
	if err := rdb.Set(ctx, prefix+"kept", "1", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	n, err := s.DeletePrefix(ctx, prefix+"inner:")
	// A record and a link per job, the schedule's shards (1,200 jobs fill
	// all of them), and the job lists (the requester's recent jobs, the
	// channel's running ones).
	if err != nil || n != 2*1200+store.Shards+2 {
		t.Fatalf("DeletePrefix = %d, %v; want %d keys", n, err, 2*1200+store.Shards+2)
	}
	if left, _ := rdb.Keys(ctx, prefix+"inner:*").Result(); len(left) != 0 {
		t.Fatalf("%d keys left under the prefix", len(left))
	}
	if rdb.Exists(ctx, prefix+"kept").Val() != 1 {
		t.Fatal("a key outside the prefix was deleted")
	}
	if _, err := s.DeletePrefix(ctx, ""); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("DeletePrefix(\"\") = %v, want ErrInvalid", err)
	}
}
