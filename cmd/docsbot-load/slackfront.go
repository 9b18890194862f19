package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"
)

// slackFront stands between the replicas and the fake Slack's Web API as
// Slack's own servers do: a call takes its latency, then the fake Slack
// carries it out, even when the replica hung up meanwhile. A replica that
// stops cancels its calls in flight, but a post that reached Slack is posted
// all the same, after the latency; the fake Slack's own latency
// (SetAPILatency) ends when the caller hangs up, and the post lands at once.
//
// Reads (isRead) take their own latency: Slack answers them sooner
// than it posts, so that a replica may read a thread before a post that
// another replica sent earlier lands in it.
type slackFront struct {
	srv *httptest.Server
	// APIURL is the Web API's base URL for the bot (SLACK_API_URL).
	APIURL string
}

// isRead reports whether a Web API method takes the read latency.
func isRead(method string) bool {
	return method == "conversations.history" || method == "conversations.replies"
}

// newSlackFront serves the Web API at apiURL (the fake Slack's, ending in
// /api/) with latency for every call but the reads, which take readLatency.
// arrived, if not nil, is called with each call's method once the call has
// reached Slack, before its latency.
func newSlackFront(apiURL string, latency, readLatency time.Duration, arrived func(method string)) (*slackFront, error) {
	target, err := url.Parse(apiURL)
	if err != nil {
		return nil, fmt.Errorf("slack front: the fake Slack's API URL: %w", err)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme, pr.Out.URL.Host = target.Scheme, target.Host
			pr.Out.Host = target.Host
		},
		// A replica that hung up gets no answer; that is no error here.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The call reached Slack once its body did.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return // the replica hung up before its call arrived
		}
		method := strings.TrimPrefix(r.URL.Path, "/api/")
		if arrived != nil {
			arrived(method)
		}
		d := latency
		if isRead(method) {
			d = readLatency
		}
		if d > 0 {
			time.Sleep(d) // not cut short by the caller: Slack does not notice a hang-up
		}
		// A context of its own, which the caller's hang-up does not end (a
		// context that cannot end would have the proxy watch the caller's
		// connection instead).
		ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
		defer cancel()
		r = r.WithContext(ctx)
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(h)
	return &slackFront{srv: srv, APIURL: srv.URL + "/api/"}, nil
}

// close waits for the calls in flight and stops serving.
func (f *slackFront) close() { f.srv.Close() }
