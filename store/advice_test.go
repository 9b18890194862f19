package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/store"
)

func TestJudge(t *testing.T) {
	t.Parallel()
	const url = "redis://:hunter2-password@localhost:6379/0"
	tests := []struct {
		name string
		rep  store.Report
		err  error
		ok   bool
		want []string
	}{
		{"standalone, no CONFIG", store.Report{Topology: store.Standalone}, nil, true, []string{"PING ok, write ok"}},
		{"no memory limit", store.Report{Topology: store.Standalone, MaxMemory: "0", Policy: "allkeys-lru"}, nil, true, []string{"no memory limit"}},
		{"noeviction", store.Report{Topology: store.Standalone, MaxMemory: "100mb", Policy: "noeviction"}, nil, true, []string{"maxmemory-policy noeviction"}},
		{"evicts", store.Report{Topology: store.Standalone, MaxMemory: "100mb", Policy: "allkeys-lru"}, nil, false,
			[]string{"maxmemory-policy is allkeys-lru", "set maxmemory-policy noeviction"}},
		{"cluster", store.Report{Topology: store.Cluster, Primaries: 3}, nil, true, []string{"(cluster of 3 primaries)"}},
		{"sentinel", store.Report{Topology: store.Sentinel, Primary: "10.0.0.1:6379"}, nil, true, []string{"(sentinel, primary 10.0.0.1:6379)"}},
		{"refused credentials", store.Report{}, &store.CheckError{Step: "PING failed", Err: fmt.Errorf("WRONGPASS: %w", store.ErrAuth)}, false,
			[]string{"PING failed", "put the credentials in REDIS_URL"}},
		{"read-only", store.Report{}, &store.CheckError{Step: "PING ok, write refused", Err: store.ErrReadOnly}, false, []string{"point it at the primary"}},
		{"timeout", store.Report{}, &store.CheckError{Step: "PING failed", Err: context.DeadlineExceeded}, false, []string{"check the host and port in REDIS_URL"}},
		{"mismatch", store.Report{}, &store.CheckError{Step: "PING ok, write ok", Err: store.ErrMismatch}, false, []string{"a Redis database of its own"}},
		{"bad URL", store.Report{}, fmt.Errorf("parse: %w", store.ErrBadURL), false, []string{"parse redis URL", "write REDIS_URL as"}},
	}
	for _, tt := range tests {
		v := store.Judge(url, tt.rep, tt.err)
		text := v.Line + "\n" + v.Fix
		if v.OK != tt.ok {
			t.Errorf("%s: OK = %v, want %v (%s)", tt.name, v.OK, tt.ok, text)
		}
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: verdict does not say %q:\n%s", tt.name, w, text)
			}
		}
		if strings.Contains(text, "hunter2") {
			t.Errorf("%s: verdict shows the password:\n%s", tt.name, text)
		}
	}
}
