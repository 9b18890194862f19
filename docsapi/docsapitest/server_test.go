package docsapitest

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/docsbot/docsbot/docsapi"
)

func TestStartAddresses(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithAddr("0.0.0.0:0"))
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") || strings.HasSuffix(srv.URL, "/") {
		t.Errorf("URL %q, want http://127.0.0.1:port", srv.URL)
	}
	createJob(t, srv, "reachable")

	// A taken address is an error from Start and a panic from NewServer.
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	if _, err := Start(WithAddr("127.0.0.1:" + port)); err == nil {
		t.Error("Start on a used address succeeded")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("NewServer on a used address did not panic")
			}
		}()
		NewServer(WithAddr("127.0.0.1:" + port))
	}()

	srv.Close()
	srv.Close() // twice is fine
	if _, err := send(t, t.Context(), http.MethodGet, srv.URL+visitorsPath(srv), "Bearer "+srv.Key, ""); err == nil {
		t.Error("closed server answered")
	}
}

func TestLogger(t *testing.T) {
	t.Parallel()
	var buf LogBuffer
	srv := startServer(t, WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	createJob(t, srv, "logged")
	do(t, srv, http.MethodGet, "/nowhere", "")
	srv.Close()
	out := buf.String()
	if !strings.Contains(out, "status=201") || !strings.Contains(out, "status=404") {
		t.Errorf("log lacks the requests:\n%s", out)
	}
	if strings.Contains(out, srv.Key) {
		t.Error("log holds the key")
	}
}

// TestConcurrentReplicas has two pollers share many jobs while faults come
// and go, as two bot replicas would.
func TestConcurrentReplicas(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithLimits(Limits{}))
	const jobs = 20
	ids := make(chan string, jobs)
	var wg sync.WaitGroup
	for i := range jobs {
		wg.Go(func() {
			prompt := "job"
			if i%4 == 0 {
				prompt = "[fail] job"
			}
			j, err := tryJob(t, srv, http.MethodPost, jobsPath(srv), promptBody(prompt))
			if err != nil {
				t.Error(err)
				return
			}
			ids <- j.ID
		})
	}
	wg.Wait()
	close(ids)
	var all []string
	for id := range ids {
		all = append(all, id)
	}
	for range 2 { // replicas
		wg.Go(func() {
			for _, id := range all {
				for i := 0; ; i++ {
					j, err := tryJob(t, srv, http.MethodGet, jobPath(srv, id), "")
					if err == nil && j.Status.Final() {
						break
					}
					// Errors are the injected 502s; they are finite.
					if i > 100 {
						t.Errorf("job %s never finished: %v", id, err)
						return
					}
				}
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			srv.AddFault(Fault{Endpoint: EndpointGet, Status: http.StatusBadGateway, Times: 1})
			srv.Requests()
			srv.Jobs()
		}
	})
	wg.Wait()
	srv.ClearFaults()

	var failed int
	for _, j := range srv.Jobs() {
		if j.Status == docsapi.StatusFailed {
			failed++
		}
		if !j.Status.Final() {
			t.Errorf("job %s still %q", j.ID, j.Status)
		}
	}
	if failed != jobs/4 {
		t.Errorf("%d failed jobs, want %d", failed, jobs/4)
	}
}

// tryJob makes a job request without failing the test, for goroutines.
func tryJob(t testing.TB, srv *Server, method, path, body string) (docsapi.Job, error) {
	var j docsapi.Job
	r, err := send(t, t.Context(), method, srv.URL+path, "Bearer "+srv.Key, body)
	if err != nil {
		return j, err
	}
	if r.status/100 != 2 {
		return j, fmt.Errorf("%s %s: status %d", method, path, r.status)
	}
	if err := json.Unmarshal(r.body, &j); err != nil {
		return j, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return j, nil
}

func BenchmarkCreateAndPoll(b *testing.B) {
	srv := startServer(b, WithLimits(Limits{}), WithLifecycle(func(string) Lifecycle { return Lifecycle{} }))
	client := &http.Client{}
	req := func(method, path, body string) {
		r, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		r.Header.Set("Authorization", "Bearer "+srv.Key)
		resp, err := client.Do(r)
		if err != nil {
			b.Fatal(err)
		}
		var j docsapi.Job
		if err := json.NewDecoder(resp.Body).Decode(&j); err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
	id := ""
	for b.Loop() {
		req(http.MethodPost, jobsPath(srv), `{"prompt":"x"}`)
		if id == "" {
			id = srv.Jobs()[0].ID
		}
		req(http.MethodGet, jobPath(srv, id), "")
	}
}
