package docsapitest

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
)

func TestRequestRecords(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now))
	job := createJob(t, srv, "first")
	clock.Advance(time.Second)
	getJob(t, srv, job.ID)
	clock.Advance(time.Second)
	do(t, srv, http.MethodGet, visitorsPath(srv)+"?limit=10&dateFrom=2025-11-01", "")
	if _, err := send(t, context.Background(), http.MethodGet, srv.URL+jobPath(srv, job.ID), "Bearer wrong", ""); err != nil {
		t.Fatal(err)
	}
	do(t, srv, http.MethodDelete, "/v2/nowhere", "")

	want := []Request{
		{Endpoint: EndpointCreate, Method: "POST", Path: jobsPath(srv), Body: promptBody("first"), Status: 201, At: clockStart()},
		{Endpoint: EndpointGet, Method: "GET", Path: jobPath(srv, job.ID), Status: 200, At: clockStart().Add(time.Second)},
		{Endpoint: EndpointVisitors, Method: "GET", Path: visitorsPath(srv), Status: 200, At: clockStart().Add(2 * time.Second)},
		{Endpoint: EndpointGet, Method: "GET", Path: jobPath(srv, job.ID), Status: 401, At: clockStart().Add(2 * time.Second)},
		{Endpoint: EndpointUnknown, Method: "DELETE", Path: "/v2/nowhere", Status: 404, At: clockStart().Add(2 * time.Second)},
	}
	got := srv.Requests()
	if len(got) != len(want) {
		t.Fatalf("%d requests recorded, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Endpoint != w.Endpoint || g.Method != w.Method || g.Path != w.Path || g.Body != w.Body || g.Status != w.Status || !g.At.Equal(w.At) {
			t.Errorf("request %d = %+v, want %+v", i, g, w)
		}
	}
	if q := got[2].Query; q.Get("limit") != "10" || q.Get("dateFrom") != "2025-11-01" {
		t.Errorf("query %v", q)
	}
	got[2].Query.Set("limit", "mutated")
	if srv.Requests()[2].Query.Get("limit") != "10" {
		t.Error("Requests() shares query maps with the server")
	}

	for e, n := range map[Endpoint]int{EndpointCreate: 1, EndpointGet: 2, EndpointVisitors: 1, EndpointUnknown: 1, EndpointMessage: 0} {
		if got := srv.Count(e); got != n {
			t.Errorf("Count(%s) = %d, want %d", e, got, n)
		}
	}
	srv.ResetRequests()
	if len(srv.Requests()) != 0 || srv.Count(EndpointGet) != 0 {
		t.Error("ResetRequests left records")
	}
	if len(srv.Jobs()) != 1 {
		t.Error("ResetRequests dropped jobs")
	}
}

func TestMaxRequests(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithMaxRequests(3))
	job := createJob(t, srv, "x")
	for range 9 {
		getJob(t, srv, job.ID)
	}
	got := srv.Requests()
	if len(got) != 3 {
		t.Fatalf("%d records, want the last 3", len(got))
	}
	for _, r := range got {
		if r.Endpoint != EndpointGet {
			t.Errorf("kept %s, want only the latest gets", r.Endpoint)
		}
	}
	if srv.Count(EndpointGet) != 9 || srv.Count(EndpointCreate) != 1 {
		t.Errorf("counts %d/%d, want exact 9/1", srv.Count(EndpointGet), srv.Count(EndpointCreate))
	}
}
