package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

func TestOpen(t *testing.T) {
	standaloneOnly(t)
	t.Parallel()
	ctx := t.Context()
	s, err := store.Open(ctx, srv.URL, store.WithPrefix(testPrefix(t)))
	if err != nil {
		t.Fatalf("Open(%s): %v", srv.URL, err)
	}
	defer s.Close()
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	link(t, s, testJob(1))
	if n := tracked(t, s); n != 1 {
		t.Fatalf("Tracked = %d, want 1", n)
	}

	def := store.New(rdb)
	if def.Prefix() != store.DefaultPrefix {
		t.Fatalf("default prefix = %q, want %q", def.Prefix(), store.DefaultPrefix)
	}
	if err := def.Close(); err != nil {
		t.Fatalf("Close of a Store made by New: %v", err)
	}
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Fatalf("Close of a Store made by New closed the caller's client: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	standaloneOnly(t)
	t.Parallel()
	const secret = "s3cret"
	tests := []struct {
		name string
		url  string
		want string // a word the message must contain
		kind error  // what errors.Is must find
	}{
		{"refused", "redis://user:s3cret@127.0.0.1:1/0", "connect", store.ErrUnreachable},
		{"bad port", "redis://user:s3cret@localhost:notaport", "parse", store.ErrBadURL},
		{"bad scheme", "http://user:s3cret@localhost:6380", "scheme", store.ErrBadURL},
		{"bad database", "redis://user:s3cret@localhost:6380/abc", "database", store.ErrBadURL},
		{"unknown option", "redis://user:s3cret@localhost:6380?bogus=1", "bogus", store.ErrBadURL},
		{"missing socket", "unix://user:s3cret@/nonexistent/redis.sock", "connect", store.ErrUnreachable},
		{"empty socket path", "unix://user:s3cret@", "socket", store.ErrBadURL},
		{"wrong credentials", "unix://user:" + secret + "@" + srv.Socket, "connect", store.ErrAuth},
		{"password only", "redis://:s3cret@127.0.0.1:1", "connect", store.ErrUnreachable},
		{"encoded password", "redis://user:s3%63ret@127.0.0.1:1", "connect", store.ErrUnreachable},
		{"not a URL", "user:s3cret@localhost:6380", "parse", store.ErrBadURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			s, err := store.Open(ctx, tt.url)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			msg := err.Error()
			for e := error(err); e != nil; e = errors.Unwrap(e) {
				if strings.Contains(e.Error(), secret) || strings.Contains(e.Error(), "s3%63ret") {
					t.Fatalf("error reveals the password: %q", e.Error())
				}
			}
			if !strings.Contains(msg, tt.want) || !strings.HasPrefix(msg, "store: ") {
				t.Fatalf("error %q: want a store error mentioning %q", msg, tt.want)
			}
			if !errors.Is(err, tt.kind) {
				t.Fatalf("error %q: errors.Is(err, %v) = false", msg, tt.kind)
			}
		})
	}
}

func TestPingAcrossRestart(t *testing.T) {
	standaloneOnly(t)
	t.Parallel()
	own, err := redistest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	ctx := t.Context()
	s, err := store.Open(ctx, own.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := own.Stop(); err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if err := s.Ping(pctx); err == nil {
		t.Fatal("Ping succeeded while the server was down")
	}
	if err := own.Restart(); err != nil {
		t.Fatal(err)
	}
	redistest.Until(t, "Ping to succeed after the restart", func() bool { return s.Ping(ctx) == nil })
}
