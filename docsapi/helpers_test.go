package docsapi_test

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// testPolicy retries quickly, so that tests stay fast, and waits up to 3s for
// a Retry-After.
func testPolicy() docsapi.RetryPolicy {
	return docsapi.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond, MaxWait: 3 * time.Second}
}

// testKey returns a fresh, recognisable API key.
func testKey(t *testing.T) string {
	t.Helper()
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return "mint_" + hex.EncodeToString(b[:])
}

// env is a test server and a client pointed at it.
type env struct {
	srv  *docsapitest.Server
	c    *docsapi.Client
	logs *docsapitest.LogBuffer
}

// newEnv starts a test server with a fresh key and a client using it. At the
// end of the test it checks that the client logged something and never the key.
func newEnv(t *testing.T, srvOpts []docsapitest.Option, clientOpts ...docsapi.Option) *env {
	t.Helper()
	srv := docsapitest.NewServer(append([]docsapitest.Option{docsapitest.WithKey(testKey(t))}, srvOpts...)...)
	t.Cleanup(srv.Close)
	c, logs := newClient(t, srv.URL, srv.Key, srv.ProjectID, clientOpts...)
	return &env{srv: srv, c: c, logs: logs}
}

// newClient builds a client with quick retries and a debug logger whose
// output is checked for the key when the test ends.
func newClient(t *testing.T, baseURL, key, project string, opts ...docsapi.Option) (*docsapi.Client, *docsapitest.LogBuffer) {
	t.Helper()
	logs := &docsapitest.LogBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	all := append([]docsapi.Option{
		docsapi.WithBaseURL(baseURL),
		docsapi.WithRetryPolicy(testPolicy()),
		docsapi.WithAttemptTimeout(5 * time.Second),
		docsapi.WithLogger(logger),
	}, opts...)
	c, err := docsapi.NewClient(key, project, all...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() {
		if out := logs.String(); strings.Contains(out, key) {
			t.Errorf("client log contains the API key:\n%s", out)
		}
	})
	return c, logs
}

// assertNoKey fails the test when the error shows the key in any form.
func assertNoKey(t *testing.T, key string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	for _, s := range []string{err.Error(), fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
		if strings.Contains(s, key) {
			t.Errorf("error shows the API key: %s", s)
		}
	}
}

// sameJob compares two jobs field by field, timestamps by instant.
func sameJob(a, b docsapi.Job) bool {
	str := func(p *string) string {
		if p == nil {
			return "<nil>"
		}
		return *p
	}
	tm := func(p *time.Time) string {
		if p == nil {
			return "<nil>"
		}
		return p.UTC().Format(time.RFC3339Nano)
	}
	return a.ID == b.ID && a.Status == b.Status && a.Model == b.Model &&
		a.Source.Repository == b.Source.Repository && str(a.Source.Ref) == str(b.Source.Ref) &&
		str(a.PRLink) == str(b.PRLink) && tm(a.CreatedAt) == tm(b.CreatedAt) && tm(a.ArchivedAt) == tm(b.ArchivedAt)
}
