package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestErrorKinds makes a real redis-server fail in each way docsbot tells
// apart, and checks the kind with errors.Is.
func TestErrorKinds(t *testing.T) {
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
	if err := admin.Do(ctx, "ACL", "SETUSER", "reader", "on", ">reader-pw", "~*", "+@read", "+@connection").Err(); err != nil {
		t.Fatalf("ACL SETUSER: %v", err)
	}

	open := func(url string) *store.Store {
		t.Helper()
		s, err := store.Open(ctx, url)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	reader := open("unix://reader:reader-pw@" + own.Socket)
	err = reader.LinkJob(ctx, testJob(1), time.Minute)
	if !errors.Is(err, store.ErrNoPerm) || store.Temporary(err) {
		t.Errorf("write as a read-only ACL user = %v; want ErrNoPerm, not temporary", err)
	}

	if _, err := store.Open(ctx, "unix://reader:wrong@"+own.Socket); !errors.Is(err, store.ErrAuth) {
		t.Errorf("Open with a wrong password = %v, want ErrAuth", err)
	}

	// A replica of a primary it cannot reach stays read-only.
	rw := open(own.URL)
	if err := admin.Do(ctx, "REPLICAOF", "127.0.0.1", "1").Err(); err != nil {
		t.Fatalf("REPLICAOF: %v", err)
	}
	err = rw.LinkJob(ctx, testJob(2), time.Minute)
	if !errors.Is(err, store.ErrReadOnly) || !store.Temporary(err) {
		t.Errorf("write to a replica = %v; want ErrReadOnly, temporary", err)
	}
	if err := admin.Do(ctx, "REPLICAOF", "NO", "ONE").Err(); err != nil {
		t.Fatalf("REPLICAOF NO ONE: %v", err)
	}

	if err := own.Stop(); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err = rw.Tracked(sctx)
	if !errors.Is(err, store.ErrUnreachable) || !store.Temporary(err) {
		t.Errorf("a call while Redis is stopped = %v; want ErrUnreachable, temporary", err)
	}
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
	if err != nil || n != 2*1200+1 { // a record and a link per job, and the schedule
		t.Fatalf("DeletePrefix = %d, %v; want %d keys", n, err, 2*1200+1)
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
