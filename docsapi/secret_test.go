package docsapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/docsapi"
)

// TestKeyNeverLeaks runs a hostile server that echoes the Authorization
// header into every kind of answer the client reads, and checks that the key
// shows in no error and no log line.
func TestKeyNeverLeaks(t *testing.T) {
	t.Parallel()
	bodies := map[string]struct {
		status      int
		contentType string
		body        func(key string) string
	}{
		// Long messages put the key across the cut made to long texts.
		"json-message": {401, "application/json", func(k string) string {
			return `{"error":"` + strings.Repeat("x", 470) + ` bad key ` + k + `"}`
		}},
		"json-details": {400, "application/json", func(k string) string {
			return `{"error":"invalid","details":[{"message":"key ` + k + ` rejected"},"` + k + `"]}`
		}},
		"text": {403, "text/plain", func(k string) string { return strings.Repeat("y", 180) + " Bearer " + k }},
		"html": {502, "text/html", func(k string) string { return "<html><body>" + k + "</body></html>" }},
		"count": {200, "application/json", func(k string) string {
			return `{"totals":{"human":"` + k + `","ai":0,"total":0},"visitors":[],"hasMore":false}`
		}},
		"status": {200, "application/json", func(k string) string { return `{"id":"j1","status":{"k":"` + k + `"}}` }},
		"job-id": {200, "application/json", func(k string) string { return `{"id":"j1","status":"active","prLink":` + k + `}` }},
		"rate":   {429, "application/json", func(k string) string { return `{"error":"slow down, ` + k + `"}` }},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		kind := r.URL.Query().Get("kind")
		if kind == "" { // job endpoints: the kind is the job id
			kind = r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		}
		b, ok := bodies[kind]
		if !ok {
			b = bodies["json-message"]
		}
		w.Header().Set("Content-Type", b.contentType)
		w.Header().Set("Retry-After", key) // not a number or a date: ignored
		w.WriteHeader(b.status)
		_, _ = w.Write([]byte(b.body(key)))
	}))
	t.Cleanup(srv.Close)

	key := testKey(t)
	c, logs := newClient(t, srv.URL, key, "p1")
	ctx := context.Background()
	var errs []error
	for kind := range bodies {
		_, err := c.GetJob(ctx, kind)
		errs = append(errs, err)
		_, err = c.SendMessage(ctx, kind, "hello")
		errs = append(errs, err)
	}
	_, err := c.CreateJob(ctx, "hello")
	errs = append(errs, err)
	// The visitors path carries no id to pick an answer by: a transport adds
	// the kind to the query.
	vc, vlogs := newClient(t, srv.URL+"/", key, "p1", docsapi.WithHTTPClient(&http.Client{Transport: addQuery{"kind", "count"}}))
	_, err = allVisitors(ctx, vc, docsapi.VisitorsParams{})
	errs = append(errs, err)

	for i, err := range errs {
		if err == nil {
			t.Errorf("call %d succeeded against the hostile server", i)
			continue
		}
		assertNoKey(t, key, err)
		var apiErr *docsapi.APIError
		if errors.As(err, &apiErr) && apiErr.RetryAfter != 0 {
			t.Errorf("RetryAfter %v read from a bogus header", apiErr.RetryAfter)
		}
	}
	for _, out := range []string{logs.String(), vlogs.String()} {
		if !strings.Contains(out, "docsapi attempt") {
			t.Errorf("no attempt logged at debug level:\n%s", out)
		}
	}
	// A partial key is a leak too: no 12-character piece of it may show.
	all := logs.String() + vlogs.String()
	for _, err := range errs {
		if err != nil {
			all += err.Error()
		}
	}
	for i := 0; i+12 <= len(key); i++ {
		if strings.Contains(all, key[i:i+12]) {
			t.Fatalf("output contains part of the key %q", key[i:i+12])
		}
	}
}

// addQuery is a transport that adds a query parameter to every request.
type addQuery struct{ name, value string }

func (a addQuery) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	q := r.URL.Query()
	q.Set(a.name, a.value)
	r.URL.RawQuery = q.Encode()
	return http.DefaultTransport.RoundTrip(r)
}
