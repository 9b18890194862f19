package main

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestHealthReports runs each report in each format against the default
// story of the test API: sso and saml searches that find nothing, an angry
// /guides/webhooks with a code-snippet report, unanswered audit-log questions.
func TestHealthReports(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sub, format string
		want        []string
		// check decodes the JSON output and checks it.
		check func(t *testing.T, out []byte)
	}{
		{"searches", "table", []string{"found nothing clicked: \"sso\" (41 searches), \"saml\" (23 searches)",
			"TERM", "CLICK-THROUGH", "WENT TO", "webhooks", "61.0%", "/guides/webhooks"}, nil},
		{"searches", "csv", []string{"query,hits,click_rate,top_clicked_page,found_nothing_clicked,last_searched_at\n",
			"webhooks,120,0.6100,/guides/webhooks,false,", "sso,41,0.0000,,true,"}, nil},
		{"searches", "json", nil, func(t *testing.T, out []byte) {
			var rep term.SearchesReport
			mustDecode(t, out, &rep)
			if len(rep.Searches) == 0 || rep.Searches[0].Query != "webhooks" {
				t.Fatalf("searches %+v, want webhooks first", rep.Searches)
			}
			nowhere := rep.Nowhere()
			if len(nowhere) != 2 || nowhere[0].Query != "sso" || nowhere[1].Query != "saml" {
				t.Errorf("found nothing clicked: %+v, want sso and saml", nowhere)
			}
		}},
		{"feedback", "table", []string{"/guides/webhooks", "THUMBS DOWN", "CODE REPORTS",
			"👎  The signature example doesn't work at all. Wasted two hours on this.",
			"Code-snippet reports: 1", "verify-signature.js (javascript)", "This sample signs with SHA-1"}, nil},
		{"feedback", "csv", []string{"path,thumbs_down,thumbs_up,code_reports,total,latest_comments,code_report_files\n",
			"/guides/webhooks,4,1,1,6,", "verify-signature.js"}, nil},
		{"feedback", "json", nil, func(t *testing.T, out []byte) {
			var rep term.FeedbackReport
			mustDecode(t, out, &rep)
			if len(rep.Pages) == 0 || rep.Pages[0].Path != "/guides/webhooks" || rep.Pages[0].ThumbsDown != 4 {
				t.Fatalf("first page %+v, want /guides/webhooks with 4 👎", rep.Pages)
			}
			if c := rep.Pages[0].LatestComments; len(c) != term.LatestComments || c[0].Vote != "down" || !strings.Contains(c[0].Comment, "signature example") {
				t.Errorf("latest comments %+v, want the newest 👎 first", c)
			}
			if len(rep.CodeReports) != 1 || rep.CodeReports[0].Filename != "verify-signature.js" || !strings.Contains(rep.CodeReports[0].Code, "sha1") {
				t.Errorf("code reports %+v, want verify-signature.js with its code", rep.CodeReports)
			}
		}},
		{"questions", "table", []string{"Unanswered questions to the assistant", ": 5 of 21 questions",
			"Audit logs (4)", "How do I export audit logs?", "replied: I couldn't find anything about audit logs", "Authentication (1)"}, nil},
		{"questions", "csv", []string{"category,asked_at,question,reply_excerpt,reply_type,page_url,thread_id\n",
			"Audit logs,", "How do I export audit logs?", ",answer,"}, nil},
		{"questions", "json", nil, func(t *testing.T, out []byte) {
			var rep term.QuestionsReport
			mustDecode(t, out, &rep)
			if rep.Unanswered != 5 || len(rep.Categories) != 2 || rep.Categories[0].Category != "Audit logs" || len(rep.Categories[0].Questions) != 4 {
				t.Fatalf("report %+v, want 5 unanswered, 4 of them about audit logs", rep)
			}
			if q := rep.Categories[0].Questions[0]; q.Question != "How do I export audit logs?" || len([]rune(q.Reply)) > term.ReplyExcerpt {
				t.Errorf("newest audit-log question %+v, want the export question with a short reply", q)
			}
		}},
		{"views", "table", []string{"Page views, ", "AI share", "Top ", "PAGE", "HUMAN"}, nil},
		{"views", "csv", []string{"path,human,ai,total\n"}, nil},
		{"views", "json", nil, func(t *testing.T, out []byte) {
			var rep term.ViewsReport
			mustDecode(t, out, &rep)
			if len(rep.Pages) == 0 || rep.Totals.Total == 0 || rep.Truncated {
				t.Fatalf("report %+v, want pages and totals, all of them", rep)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.sub+"/"+tt.format, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t)
			r, stdout, stderr := apiRunner(t, srv)
			if code := runCode(r, []string{"health", tt.sub, "--format", tt.format}); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			out := stdout.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output does not contain %q:\n%s", w, out)
				}
			}
			if tt.format == "csv" {
				if _, err := csv.NewReader(strings.NewReader(out)).ReadAll(); err != nil {
					t.Errorf("not CSV: %v", err)
				}
			}
			if tt.check != nil {
				tt.check(t, []byte(out))
			}
			if stderr.String() != "" {
				t.Errorf("stderr = %q, want nothing", stderr)
			}
		})
	}
}

func mustDecode(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
}

// TestHealthDefaultRange checks the range sent without --from and --to: the
// last 30 days, today included, --to exclusive.
func TestHealthDefaultRange(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	r, _, stderr := apiRunner(t, srv)
	now := time.Date(2026, 3, 10, 23, 30, 0, 0, time.UTC)
	r.now = func() time.Time { return now }
	if code := runCode(r, []string{"health", "searches"}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if q := reqs[0].Query; q.Get("dateFrom") != "2026-02-09" || q.Get("dateTo") != "2026-03-11" {
		t.Errorf("range %s to %s, want 2026-02-09 to 2026-03-11", q.Get("dateFrom"), q.Get("dateTo"))
	}
}

// TestHealthFailures words failures through term.Explain: a 429 with its
// retry time and the shared budget, a bad range, bad flags.
func TestHealthFailures(t *testing.T) {
	t.Parallel()
	limited := func(e docsapitest.Endpoint) docsapitest.Fault {
		return docsapitest.Fault{Endpoint: e, Status: http.StatusTooManyRequests, RetryAfter: time.Hour}
	}
	const rateLimited = "rate limited by the docs API: try again in 1h0m0s"
	tests := []struct {
		name     string
		fault    *docsapitest.Fault
		args     []string
		wantCode int
		want     []string
	}{
		{"searches rate limited", new(limited(docsapitest.EndpointSearches)), []string{"searches"}, cli.ExitFailure,
			[]string{rateLimited, "analytics allow 100 requests per hour for the whole organization"}},
		{"feedback by page rate limited", new(limited(docsapitest.EndpointFeedbackByPage)), []string{"feedback"}, cli.ExitFailure, []string{rateLimited}},
		{"feedback list rate limited", new(limited(docsapitest.EndpointFeedback)), []string{"feedback"}, cli.ExitFailure, []string{rateLimited}},
		{"questions rate limited", new(limited(docsapitest.EndpointConversations)), []string{"questions"}, cli.ExitFailure, []string{rateLimited}},
		{"views rate limited", new(limited(docsapitest.EndpointViews)), []string{"views", "--format", "csv"}, cli.ExitFailure, []string{rateLimited}},
		{"bad query", &docsapitest.Fault{Endpoint: docsapitest.EndpointSearches, Status: http.StatusBadRequest}, []string{"searches"}, cli.ExitFailure,
			[]string{"check --from and --to"}},
		{"not a date", nil, []string{"views", "--from", "Nov 1"}, cli.ExitUsage, []string{`--from "Nov 1" is not a date`}},
		{"empty range", nil, []string{"searches", "--from", "2025-11-02", "--to", "2025-11-01"}, cli.ExitUsage, []string{"must be after --from"}},
		{"from in the future", nil, []string{"questions", "--from", "2999-01-01"}, cli.ExitUsage, []string{"is after the default --to"}},
		{"argument", nil, []string{"feedback", "webhooks"}, cli.ExitUsage, []string{`unexpected argument "webhooks"`}},
		{"max pages", nil, []string{"views", "--max-pages", "0"}, cli.ExitUsage, []string{"--max-pages must be at least 1"}},
		{"bad format", nil, []string{"searches", "--format", "xml"}, cli.ExitUsage, []string{"must be one of table, json, csv"}},
		{"unknown report", nil, []string{"pages"}, cli.ExitUsage, []string{`health: unknown subcommand "pages"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t)
			if tt.fault != nil {
				srv.AddFault(*tt.fault)
			}
			r, stdout, stderr := apiRunner(t, srv)
			code := runCode(r, append([]string{"health"}, tt.args...))
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.wantCode, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q does not contain %q", stderr, w)
				}
			}
			if stdout.String() != "" {
				t.Errorf("stdout = %q, want nothing on failure", stdout)
			}
		})
	}
}

// TestHealthMaxPages stops a report at --max-pages, says so, and keeps
// what came before.
func TestHealthMaxPages(t *testing.T) {
	t.Parallel()
	srv := newServer(t, docsapitest.WithDataset(docsapitest.NewDataset(613, 2)))
	r, stdout, stderr := apiRunner(t, srv)
	if code := runCode(r, []string{"health", "views", "--format", "json", "--max-pages", "2"}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep term.ViewsReport
	mustDecode(t, []byte(stdout.String()), &rep)
	if len(rep.Pages) != 500 || !rep.Truncated || rep.StoppedAfter != 2 {
		t.Errorf("%d pages, truncated %t after %d; want 500, true, 2", len(rep.Pages), rep.Truncated, rep.StoppedAfter)
	}
	if n := srv.Count(docsapitest.EndpointViews); n != 2 {
		t.Errorf("server saw %d requests, want 2", n)
	}
	if !strings.Contains(stderr.String(), "stopped after 2 requests (--max-pages 2): the docs API has more pages") {
		t.Errorf("stderr = %q, want a note that more pages exist", stderr)
	}
}

// TestHealthCSVFormulas keeps text from the API from being read as a
// formula in a spreadsheet.
func TestHealthCSVFormulas(t *testing.T) {
	t.Parallel()
	a := &docsapitest.Analytics{
		Searches:      []docsapitest.SearchStat{{Query: "=HYPERLINK(\"http://evil\")", Hits: 3, Age: time.Hour}},
		Feedback:      []docsapitest.FeedbackEntry{{Path: "/x", Source: "contextual", Vote: -1, Comment: "+1 broken", Age: time.Hour}},
		Conversations: []docsapitest.ConversationTurn{{ThreadID: docsapitest.ThreadID(1), Query: "@SUM(A1)", Response: "-2", Category: "=cmd", Age: time.Hour}},
	}
	for _, tt := range []struct{ sub, want string }{
		{"searches", `"'=HYPERLINK(""http://evil"")"`},
		{"feedback", "'+1 broken"},
		{"questions", "'=cmd,"},
		{"questions", ",'@SUM(A1),'-2,"},
	} {
		srv := newServer(t, docsapitest.WithAnalytics(a))
		r, stdout, stderr := apiRunner(t, srv)
		if code := runCode(r, []string{"health", tt.sub, "--format", "csv"}); code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.sub, code, stderr)
		}
		if !strings.Contains(stdout.String(), tt.want) {
			t.Errorf("%s: CSV %q does not contain %q", tt.sub, stdout, tt.want)
		}
	}
}

func TestHealthHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"health", "-h"}, {"help", "health"}, {"health", "searches", "-h"}, {"health", "views", "--help"}} {
		r, stdout, stderr := testRunner(t, nil, "")
		if code := runCode(r, args); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		for _, w := range []string{"--to", "EXCLUDED", "30 days"} {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("%q: help does not say %q:\n%s", args, w, stdout)
			}
		}
	}
}
