package redistest_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store/redistest"
)

func TestStartMissingBinary(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	s, err := redistest.Start()
	if err == nil {
		s.Close()
		t.Fatal("Start succeeded without redis-server on PATH")
	}
	want := "redis-server not found on PATH: install it (sudo apt-get install -y redis-server)"
	if err.Error() != want {
		t.Fatalf("error = %q, want %q", err, want)
	}
}

func TestServerLifecycle(t *testing.T) {
	t.Parallel()
	s, err := redistest.Start()
	if err != nil {
		t.Fatal(err)
	}
	if s.URL != "unix://"+s.Socket {
		t.Fatalf("URL = %q, socket %q", s.URL, s.Socket)
	}
	ctx := context.Background()
	rdb := s.Client()
	defer rdb.Close()

	if err := rdb.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatalf("SET: %v", err)
	}
	cfg, err := rdb.ConfigGet(ctx, "port").Result()
	if err != nil {
		t.Fatalf("CONFIG GET: %v", err)
	}
	if cfg["port"] != "0" {
		t.Fatalf("port = %q, want 0 (no TCP listener)", cfg["port"])
	}

	if err := s.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := os.Stat(s.Socket); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket still there after Stop: %v", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	err = rdb.Ping(pctx).Err()
	cancel()
	if err == nil {
		t.Fatal("PING succeeded on a stopped server")
	}
	if err := s.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}

	if err := s.Restart(); err != nil {
		t.Fatalf("Restart: %v", err)
	}
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Fatalf("PING after Restart: %v", err)
	}
	if err := s.Restart(); err != nil {
		t.Fatalf("Restart of a running server: %v", err)
	}
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Fatalf("PING after second Restart: %v", err)
	}

	dir := s.Socket[:strings.LastIndex(s.Socket, "/")]
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("temp dir still there after Close: %v", err)
	}
}

func TestPrefix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
	}{
		{"plain"},
		{"with spaces/and:colons{braces}"},
		{strings.Repeat("long", 40)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, b := redistest.Prefix(t), redistest.Prefix(t)
			if a == b {
				t.Fatalf("two prefixes for one test are equal: %q", a)
			}
			for _, p := range []string{a, b} {
				if !strings.HasPrefix(p, "t:") || !strings.HasSuffix(p, ":") {
					t.Errorf("prefix %q is not of the form t:...:", p)
				}
				if strings.ContainsAny(p, " /{}") {
					t.Errorf("prefix %q holds characters that need quoting", p)
				}
				if strings.Count(p, ":") != 3 {
					t.Errorf("prefix %q: want exactly 3 colons", p)
				}
				if len(p) > 64 {
					t.Errorf("prefix %q is %d bytes long", p, len(p))
				}
			}
		})
	}
}

func TestAppendOnlySurvivesKill(t *testing.T) {
	s, err := redistest.Start(redistest.WithAppendOnly())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	rdb := s.Client()
	defer rdb.Close()
	if err := rdb.Set(t.Context(), "k", "v", 0).Err(); err != nil {
		t.Fatalf("SET: %v", err)
	}
	if err := s.Kill(); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	if err := rdb.Ping(t.Context()).Err(); err == nil {
		t.Fatal("PING answered after Kill")
	}
	if err := s.Start(); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if v, err := rdb.Get(t.Context(), "k").Result(); err != nil || v != "v" {
		t.Fatalf("GET after Kill and Start = %q, %v; want v", v, err)
	}
}
