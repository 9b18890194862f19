package redistest

import (
	"context"
	"strconv"
	"testing"

	"github.com/redis/go-redis/v9"
)

// dbCount is the number of databases of a redis-server (its default).
const dbCount = 16

// DB is a database of a Server that one test has to itself (TakeDB).
type DB struct {
	// URL is the server's URL for this database (?db=N): a REDIS_URL.
	URL string
	// Num is the database's number.
	Num int
	// Client is a client of the database, closed when the test ends.
	Client *redis.Client
}

// TakeDB hands the test a database of s that no other test uses while it
// runs, for code that must own a whole database (a command that scans or
// counts its keys). It is emptied and given back when the test ends.
// Database 0, the one URL names, is never handed out, so 15 tests can hold
// one at a time; the test fails when none is left.
func (s *Server) TakeDB(tb testing.TB) DB {
	tb.Helper()
	s.dbMu.Lock()
	n := 0
	for i := 1; i < dbCount && n == 0; i++ {
		if !s.dbTaken[i] {
			n = i
		}
	}
	if n == 0 {
		s.dbMu.Unlock()
		tb.Fatalf("redistest: no database of the server left for %s: give a test a server of its own, or share a database by key prefixes", tb.Name())
	}
	s.dbTaken[n] = true
	s.dbMu.Unlock()
	c := redis.NewClient(&redis.Options{Network: "unix", Addr: s.Socket, DB: n})
	tb.Cleanup(func() {
		// A database that could not be emptied is not handed out again.
		if err := c.FlushDB(context.Background()).Err(); err == nil {
			s.dbMu.Lock()
			s.dbTaken[n] = false
			s.dbMu.Unlock()
		}
		_ = c.Close()
	})
	return DB{URL: s.URL + "?db=" + strconv.Itoa(n), Num: n, Client: c}
}
