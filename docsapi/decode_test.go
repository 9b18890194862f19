package docsapi

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func TestDecodeJob(t *testing.T) {
	t.Parallel()
	created := time.Date(2025, 11, 3, 10, 4, 5, 0, time.UTC)
	tests := []struct {
		name                   string
		body                   string
		wantErr                bool
		status                 Status
		final, known           bool
		pr, ref                string // "" means nil
		created, archived      bool   // whether the timestamps are set
		wantCreated            *time.Time
		repository, model, err string
	}{
		{name: "active, nulls", body: `{"id":"j1","status":"active","source":{"repository":"https://github.com/o/r","ref":null},"model":"m","prLink":null,"createdAt":"2025-11-03T10:04:05Z","archivedAt":null}`,
			status: StatusActive, known: true, created: true, wantCreated: &created, repository: "https://github.com/o/r", model: "m"},
		{name: "completed with PR", body: `{"id":"j1","status":"completed","source":{"repository":"r","ref":"main"},"prLink":"https://github.com/o/r/pull/7","createdAt":"2025-11-03T10:04:05.123+02:00"}`,
			status: StatusCompleted, final: true, known: true, pr: "https://github.com/o/r/pull/7", ref: "main", created: true, repository: "r"},
		{name: "archived", body: `{"id":"j1","status":"archived","archivedAt":"2025-11-04T00:00:00Z"}`,
			status: StatusArchived, final: true, known: true, archived: true},
		{name: "failed, fields absent", body: `{"id":"j1","status":"failed"}`, status: StatusFailed, final: true, known: true},
		{name: "unknown status kept", body: `{"id":"j1","status":"queued","extra":{"a":[1,2]}}`, status: "queued"},
		{name: "status case kept", body: `{"id":"j1","status":"Completed"}`, status: "Completed"},
		{name: "timestamp without zone", body: `{"id":"j1","status":"active","createdAt":"2025-11-03T10:04:05"}`,
			status: StatusActive, known: true, created: true, wantCreated: &created},
		{name: "timestamp with a space", body: `{"id":"j1","status":"active","createdAt":"2025-11-03 10:04:05Z"}`,
			status: StatusActive, known: true, created: true, wantCreated: &created},
		{name: "timestamp with a space, without zone", body: `{"id":"j1","status":"active","createdAt":"2025-11-03 10:04:05.000"}`,
			status: StatusActive, known: true, created: true, wantCreated: &created},
		{name: "unreadable timestamp left nil", body: `{"id":"j1","status":"active","createdAt":"last tuesday","archivedAt":17}`, status: StatusActive, known: true},
		{name: "no id", body: `{"status":"active"}`, wantErr: true},
		{name: "null", body: `null`, wantErr: true},
		{name: "array", body: `[]`, wantErr: true},
		{name: "html", body: `<html>oops</html>`, wantErr: true},
		{name: "trailing garbage", body: `{"id":"j1"} x`, wantErr: true},
		{name: "status not a string", body: `{"id":"j1","status":3}`, wantErr: true},
		{name: "empty", body: ``, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			j, err := decodeJob([]byte(tt.body))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("decodeJob(%s) = %+v, want an error", tt.body, j)
				}
				return
			}
			if err != nil {
				t.Fatalf("decodeJob(%s): %v", tt.body, err)
			}
			if j.ID != "j1" || j.Status != tt.status || j.Status.Final() != tt.final || j.Status.Known() != tt.known {
				t.Errorf("job = %+v (final %v, known %v), want id j1, status %q, final %v, known %v",
					j, j.Status.Final(), j.Status.Known(), tt.status, tt.final, tt.known)
			}
			if j.PR() != tt.pr || (j.PRLink == nil) != (tt.pr == "") {
				t.Errorf("PRLink = %v, want %q", j.PRLink, tt.pr)
			}
			if (j.Source.Ref == nil) != (tt.ref == "") || (j.Source.Ref != nil && *j.Source.Ref != tt.ref) {
				t.Errorf("Source.Ref = %v, want %q", j.Source.Ref, tt.ref)
			}
			if j.Source.Repository != tt.repository || j.Model != tt.model {
				t.Errorf("repository %q model %q, want %q %q", j.Source.Repository, j.Model, tt.repository, tt.model)
			}
			if (j.CreatedAt != nil) != tt.created || (j.ArchivedAt != nil) != tt.archived {
				t.Errorf("CreatedAt %v ArchivedAt %v, want set %v %v", j.CreatedAt, j.ArchivedAt, tt.created, tt.archived)
			}
			if tt.wantCreated != nil && !j.CreatedAt.Equal(*tt.wantCreated) {
				t.Errorf("CreatedAt = %v, want %v", j.CreatedAt, tt.wantCreated)
			}
		})
	}
}

func TestDecodeVisitors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		body    string
		wantErr string // substring; "" for success
		want    VisitorsPage
	}{
		{name: "integers", body: `{"totals":{"human":10,"ai":3,"total":12},"visitors":[{"path":"/a","human":5,"ai":1,"total":6}],"hasMore":true}`,
			want: VisitorsPage{Totals: Counts{10, 3, 12}, Visitors: []PageVisitors{{"/a", Counts{5, 1, 6}}}, HasMore: true}},
		{name: "float forms", body: `{"totals":{"human":12.0,"ai":1.5e3,"total":1E1},"visitors":[{"path":"/b","human":2.4,"ai":2.5,"total":-0.0}],"hasMore":false}`,
			want: VisitorsPage{Totals: Counts{12, 1500, 10}, Visitors: []PageVisitors{{"/b", Counts{2, 3, 0}}}}},
		{name: "nulls and unknown fields", body: `{"totals":{"human":null,"ai":1,"total":1,"bots":9},"visitors":null,"hasMore":false,"next":"x"}`,
			want: VisitorsPage{Totals: Counts{0, 1, 1}, Visitors: []PageVisitors{}}},
		{name: "empty rows", body: `{"totals":{"human":0,"ai":0,"total":0},"visitors":[],"hasMore":false}`,
			want: VisitorsPage{Visitors: []PageVisitors{}}},
		{name: "count as string", body: `{"totals":{"human":"12","ai":0,"total":0},"visitors":[],"hasMore":false}`, wantErr: "not a number"},
		{name: "count too large", body: `{"totals":{"human":1e300,"ai":0,"total":0},"visitors":[],"hasMore":false}`, wantErr: "not a number"},
		{name: "count of 2^63", body: `{"totals":{"human":9223372036854775808,"ai":0,"total":0},"visitors":[],"hasMore":false}`, wantErr: "not a number"},
		{name: "count that rounds to 2^63", body: `{"totals":{"human":9.2233720368547758e18,"ai":0,"total":0},"visitors":[],"hasMore":false}`, wantErr: "not a number"},
		{name: "count below -2^63", body: `{"totals":{"human":-9.3e18,"ai":0,"total":0},"visitors":[],"hasMore":false}`, wantErr: "not a number"},
		{name: "largest counts", body: `{"totals":{"human":9223372036854775807,"ai":-9223372036854775808,"total":-9.223372036854775808e18},"visitors":[],"hasMore":false}`,
			want: VisitorsPage{Totals: Counts{math.MaxInt64, math.MinInt64, math.MinInt64}, Visitors: []PageVisitors{}}},
		{name: "missing hasMore", body: `{"totals":{"human":0,"ai":0,"total":0},"visitors":[]}`, wantErr: "hasMore"},
		{name: "empty object", body: `{}`, wantErr: "totals, visitors, hasMore"},
		{name: "null", body: `null`, wantErr: "totals"},
		{name: "visitors not a list", body: `{"totals":{},"visitors":{},"hasMore":false}`, wantErr: "visitors"},
		{name: "truncated", body: `{"totals":{"human":1`, wantErr: "unexpected end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := decodeVisitors([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("decodeVisitors(%s) = %+v, %v; want an error containing %q", tt.body, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("decodeVisitors(%s): %v", tt.body, err)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tt.want)
			if string(g) != string(w) || got.Visitors == nil {
				t.Errorf("decodeVisitors(%s) = %s, want %s", tt.body, g, w)
			}
		})
	}
}

// FuzzDecodeJob checks that no answer body makes job decoding panic, and that
// a decoded job always has an id.
func FuzzDecodeJob(f *testing.F) {
	for _, s := range []string{
		`{"id":"j1","status":"active","source":{"repository":"https://github.com/o/r","ref":null},"model":"m","prLink":null,"createdAt":"2025-11-03T10:04:05Z","archivedAt":null}`,
		`{"id":"j1","status":"queued","prLink":"https://x/pull/1","archivedAt":"2025-11-03 10:04:05"}`,
		`{"id":"","status":1}`, `null`, `[]`, `"x"`, ``, `{"id":"j1","createdAt":{"a":1}}`, `<html></html>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		j, err := decodeJob(b)
		if err == nil && strings.TrimSpace(j.ID) == "" {
			t.Fatalf("decodeJob(%q) accepted a job without id", b)
		}
		if err == nil {
			_ = j.Status.Final()
			_ = j.PR()
		}
	})
}

// FuzzDecodeVisitors checks that no answer body makes page decoding panic,
// and that a decoded page always has a non-nil row list.
func FuzzDecodeVisitors(f *testing.F) {
	for _, s := range []string{
		`{"totals":{"human":10,"ai":3,"total":12},"visitors":[{"path":"/a","human":5,"ai":1,"total":6}],"hasMore":true}`,
		`{"totals":{"human":12.0,"ai":1.5e3,"total":9.3e18},"visitors":null,"hasMore":false}`,
		`{"totals":{"human":-1e19},"visitors":[],"hasMore":false}`,
		`{"totals":null,"visitors":[null],"hasMore":null}`, `null`, `{}`, ``, `[1,2]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := decodeVisitors(b)
		if err == nil && p.Visitors == nil {
			t.Fatalf("decodeVisitors(%q) gave nil rows", b)
		}
	})
}

// FuzzErrorBody checks that error-body reading never panics and always gives
// short, single-line text.
func FuzzErrorBody(f *testing.F) {
	for _, s := range []string{
		`{"error":"rate limit exceeded"}`, `{"error":"bad","details":[{"message":"limit too big"},"x",3]}`,
		`<!DOCTYPE html><html><body>502</body></html>`, "plain\ntext\r\n", "", `{"error":{"message":"m"}}`, "\xff\xfe",
	} {
		f.Add([]byte(s), "")
	}
	f.Fuzz(func(t *testing.T, b []byte, ct string) {
		msg, details := errorBody(b, ct)
		for _, s := range append([]string{msg}, details...) {
			if strings.ContainsAny(s, "\n\r") || len([]rune(s)) > maxJSONMessage+1 {
				t.Fatalf("errorBody(%q) gave %q", b, s)
			}
		}
		if len(details) > maxErrorDetails {
			t.Fatalf("errorBody(%q) gave %d details", b, len(details))
		}
	})
}
