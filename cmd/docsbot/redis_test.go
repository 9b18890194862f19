package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// sharedRedis is the redis-server of the package, started once by TestMain;
// each test that uses it takes a database of its own with TakeDB.
var sharedRedis *redistest.Server

// privateRedis starts a redis-server for a test that stops it or changes its
// configuration, which a shared server must not see.
func privateRedis(t *testing.T) *redistest.Server {
	t.Helper()
	rs, err := redistest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rs.Close() })
	return rs
}

// redisMonitor reads the shared Redis's MONITOR stream: every command any
// client runs, with the database it ran on.
type redisMonitor struct {
	conn net.Conn
	r    *bufio.Reader
}

// monitorRedis starts watching the commands the shared Redis runs.
func monitorRedis(t *testing.T) *redisMonitor {
	t.Helper()
	conn, err := net.Dial("unix", sharedRedis.Socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	m := &redisMonitor{conn: conn, r: bufio.NewReader(conn)}
	if _, err := conn.Write([]byte("MONITOR\r\n")); err != nil {
		t.Fatal(err)
	}
	if line := m.line(t); line != "+OK" {
		t.Fatalf("MONITOR answered %q", line)
	}
	return m
}

func (m *redisMonitor) line(t *testing.T) string {
	t.Helper()
	if err := m.conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	line, err := m.r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading MONITOR: %v", err)
	}
	return strings.TrimRight(line, "\r\n")
}

// commands returns the names of the commands run on db since the monitor
// started or last returned, lower-cased and in order. It sends a marker
// through db first and reads up to it, so nothing that ran before is missed.
func (m *redisMonitor) commands(t *testing.T, db redistest.DB) []string {
	t.Helper()
	marker := rand.Text()
	if err := db.Client.Echo(context.Background(), marker).Err(); err != nil {
		t.Fatal(err)
	}
	// A line reads: +1700000000.123456 [3 unix:/path/redis.sock] "set" "key" "value"
	var names []string
	for {
		line := m.line(t)
		if strings.Contains(line, `"`+marker+`"`) {
			return names
		}
		_, rest, ok := strings.Cut(line, " [")
		dbNum, rest, ok2 := strings.Cut(rest, " ")
		_, args, ok3 := strings.Cut(rest, `] "`)
		if !ok || !ok2 || !ok3 || dbNum != strconv.Itoa(db.Num) {
			continue
		}
		name, _, _ := strings.Cut(args, `"`)
		names = append(names, strings.ToLower(name))
	}
}

// sharedStore opens the shared Redis under a prefix of the test's own,
// closed when the test ends, for a command that reads what the bot left
// there (audit, quality, workspaces); it returns the store and the prefix.
func sharedStore(t *testing.T) (*store.Store, string) {
	t.Helper()
	prefix := redistest.Prefix(t)
	st, err := store.Open(t.Context(), sharedRedis.URL, store.WithPrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st, prefix
}
