package docsapitest

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// expectLimited checks a 429 answer and its Retry-After.
func expectLimited(t *testing.T, r reply, retryAfter int) {
	t.Helper()
	e := mustError(t, r, http.StatusTooManyRequests)
	if e.Error != msgRateLimited {
		t.Errorf("error %q, want %q", e.Error, msgRateLimited)
	}
	if got := r.header.Get("Retry-After"); got != strconv.Itoa(retryAfter) {
		t.Errorf("Retry-After %q, want %d", got, retryAfter)
	}
}

func TestDefaultLimits(t *testing.T) {
	t.Parallel()
	if got := DefaultLimits(); got != (Limits{Create: 100, Message: 100, Get: 0, Visitors: 100, Assistant: 10000, Discovery: 10000, Deploy: 10, Preview: 5}) {
		t.Errorf("DefaultLimits() = %+v", got)
	}
}

func TestRateLimitWindow(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now), WithLimits(Limits{Create: 2}))
	create := func() reply { return do(t, srv, http.MethodPost, jobsPath(srv), promptBody("x")) }

	mustJob(t, create(), http.StatusCreated) // t0
	clock.Advance(10 * time.Minute)
	mustJob(t, create(), http.StatusCreated) // t0+10m
	clock.Advance(10 * time.Minute)
	expectLimited(t, create(), 40*60) // t0 leaves at t0+60m
	clock.Advance(39*time.Minute + 59*time.Second + 500*time.Millisecond)
	expectLimited(t, create(), 1) // half a second left rounds up
	clock.Advance(500 * time.Millisecond)
	mustJob(t, create(), http.StatusCreated) // t0+60m: the first left the window
	expectLimited(t, create(), 10*60)        // t0+10m leaves at t0+70m
	if n := len(srv.Jobs()); n != 3 {
		t.Errorf("%d jobs, want 3: rejected requests must not create jobs", n)
	}

	// Raising the limit lets requests through at once; lowering it counts
	// what is already in the window.
	srv.SetLimits(Limits{Create: 3})
	mustJob(t, create(), http.StatusCreated)
	srv.SetLimits(Limits{Create: 1})
	expectLimited(t, create(), 60*60) // all three must leave; the newest was sent now
}

func TestRateLimitCounting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		limits Limits
		// before are requests sent first; then probe is sent and must be limited or not.
		before  []string
		probe   string
		limited bool
	}{
		{"create limit", Limits{Create: 1}, []string{"create"}, "create", true},
		{"message separate from create", Limits{Create: 1, Message: 1}, []string{"create"}, "message", false},
		{"message limit", Limits{Message: 1}, []string{"message"}, "message", true},
		{"get limit", Limits{Get: 2}, []string{"get", "get"}, "get", true},
		{"get unlimited", Limits{}, []string{"get", "get", "get"}, "get", false},
		{"visitors limit", Limits{Visitors: 1}, []string{"visitors"}, "visitors", true},
		{"bad query counts", Limits{Visitors: 1}, []string{"visitors-bad"}, "visitors", true},
		{"bad prompt counts", Limits{Create: 1}, []string{"create-bad"}, "create", true},
		{"wrong key does not count", Limits{Create: 1}, []string{"create-nokey", "create-nokey"}, "create", false},
		{"wrong project does not count", Limits{Visitors: 1}, []string{"visitors-noproject"}, "visitors", false},
		{"fault answer does not count", Limits{Create: 1}, []string{"create-faulted"}, "create", false},
		{"fault after act counts", Limits{Create: 1}, []string{"create-faulted-after"}, "create", true},
		{"limited requests do not count", Limits{Create: 1}, []string{"create", "create", "create"}, "create", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := slacktest.NewManualClock(clockStart())
			// Limits start at none so the set-up job is free.
			srv := startServer(t, WithClock(clock.Now), WithLimits(Limits{}))
			job := createJob(t, srv, "set-up")
			srv.SetLimits(tc.limits)
			send1 := func(kind string) reply {
				switch kind {
				case "create":
					return do(t, srv, http.MethodPost, jobsPath(srv), promptBody("x"))
				case "create-bad":
					return do(t, srv, http.MethodPost, jobsPath(srv), `{"prompt":""}`)
				case "create-nokey":
					r, err := send(t, context.Background(), http.MethodPost, srv.URL+jobsPath(srv), "Bearer wrong", promptBody("x"))
					if err != nil {
						t.Fatal(err)
					}
					return r
				case "create-faulted", "create-faulted-after":
					srv.AddFault(Fault{Endpoint: EndpointCreate, Status: http.StatusBadGateway, Times: 1, AfterAct: kind == "create-faulted-after"})
					return do(t, srv, http.MethodPost, jobsPath(srv), promptBody("x"))
				case "message":
					return do(t, srv, http.MethodPost, messagePath(srv, job.ID), promptBody("x"))
				case "get":
					return do(t, srv, http.MethodGet, jobPath(srv, job.ID), "")
				case "visitors":
					return do(t, srv, http.MethodGet, visitorsPath(srv)+"?limit=1", "")
				case "visitors-bad":
					return do(t, srv, http.MethodGet, visitorsPath(srv)+"?limit=0", "")
				case "visitors-noproject":
					return do(t, srv, http.MethodGet, "/v1/analytics/other/visitors", "")
				}
				t.Fatalf("unknown kind %q", kind)
				return reply{}
			}
			for _, k := range tc.before {
				send1(k)
			}
			r := send1(tc.probe)
			if tc.limited {
				expectLimited(t, r, 3600)
				return
			}
			if r.status/100 != 2 {
				t.Errorf("probe status %d, want success; body %s", r.status, r.body)
			}
		})
	}
}
