package docsapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

func storyNow() time.Time { return time.Date(2025, 11, 20, 15, 30, 0, 0, time.UTC) }

// storyEnv serves the default story on a fixed clock with no rate limit.
func storyEnv(t *testing.T, opts ...docsapitest.Option) *env {
	t.Helper()
	return newEnv(t, append([]docsapitest.Option{
		docsapitest.WithClock(storyNow),
		docsapitest.WithLimits(docsapitest.Limits{}),
	}, opts...))
}

// lastEndpoint checks that the last request went to want, as both the server
// and EndpointOf name it.
func lastEndpoint(t *testing.T, srv *docsapitest.Server, want docsapitest.Endpoint) {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request made")
	}
	r := reqs[len(reqs)-1]
	name := docsapi.EndpointOf(r.Method, r.Path)
	if r.Endpoint != want || name != string(want) {
		t.Errorf("request %s %s: server saw %s, EndpointOf says %s; want %s", r.Method, r.Path, r.Endpoint, name, want)
	}
}

// TestAnalyticsStory reads the default story through each method.
func TestAnalyticsStory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name     string
		endpoint docsapitest.Endpoint
		check    func(t *testing.T, c *docsapi.Client, story *docsapitest.Analytics)
	}{
		{"views", docsapitest.EndpointViews, func(t *testing.T, c *docsapi.Client, _ *docsapitest.Analytics) {
			p, err := c.Views(ctx, docsapi.ViewsParams{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Views) != 10 || !p.HasMore || p.Totals.Total != p.Totals.Human+p.Totals.AI || p.Totals.Total == 0 {
				t.Errorf("views page: %d rows, hasMore %v, totals %+v", len(p.Views), p.HasMore, p.Totals)
			}
			for i, v := range p.Views {
				if v.Total != v.Human+v.AI || (i > 0 && v.Total > p.Views[i-1].Total) {
					t.Errorf("row %d %+v: total not human+ai or out of order", i, v)
				}
			}
		}},
		{"searches", docsapitest.EndpointSearches, func(t *testing.T, c *docsapi.Client, story *docsapitest.Analytics) {
			p, err := c.Searches(ctx, docsapi.SearchesParams{Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			var noClick []string
			for _, q := range p.Searches {
				if q.NoResultClicked() {
					noClick = append(noClick, q.Query)
				}
			}
			total := 0
			for _, s := range story.Searches {
				total += s.Hits
			}
			if !slices.Equal(noClick, []string{"sso", "saml"}) || p.NextCursor != "" || int(p.TotalSearches) != total ||
				len(p.Searches) != len(story.Searches) || p.Searches[0].Query != "webhooks" || p.Searches[0].LastSearchedAt == nil {
				t.Errorf("searches: no click %v, cursor %q, total %d (want %d), %d rows", noClick, p.NextCursor, p.TotalSearches, total, len(p.Searches))
			}
		}},
		{"feedback", docsapitest.EndpointFeedback, func(t *testing.T, c *docsapi.Client, _ *docsapitest.Analytics) {
			p, err := c.Feedback(ctx, docsapi.FeedbackParams{Source: docsapi.SourceContextual, Status: []docsapi.FeedbackStatus{docsapi.FeedbackPending}})
			if err != nil {
				t.Fatal(err)
			}
			down, comments := 0, 0
			for _, f := range p.Feedback {
				if f.Path == "/guides/webhooks" && f.ThumbsDown() {
					down++
					if f.Comment != "" {
						comments++
					}
				}
				if f.Source != docsapi.SourceContextual || f.Status != docsapi.FeedbackPending || f.CreatedAt == nil {
					t.Errorf("filter not applied: %+v", f)
				}
			}
			if down != 4 || comments != 3 || p.HasMore {
				t.Errorf("webhooks: %d 👎, %d comments, hasMore %v; want 4, 3, false", down, comments, p.HasMore)
			}
		}},
		{"code snippet", docsapitest.EndpointFeedback, func(t *testing.T, c *docsapi.Client, _ *docsapitest.Analytics) {
			p, err := c.Feedback(ctx, docsapi.FeedbackParams{Source: docsapi.SourceCodeSnippet})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Feedback) != 1 || p.Feedback[0].Filename != "verify-signature.js" || p.Feedback[0].Path != "/guides/webhooks" ||
				!strings.Contains(p.Feedback[0].Code, "sha1") || p.Feedback[0].Lang != "javascript" || p.Feedback[0].Helpful != nil {
				t.Errorf("code snippets: %+v", p.Feedback)
			}
		}},
		{"feedback by page", docsapitest.EndpointFeedbackByPage, func(t *testing.T, c *docsapi.Client, _ *docsapitest.Analytics) {
			p, err := c.FeedbackByPage(ctx, docsapi.FeedbackByPageParams{Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			want := docsapi.PageFeedback{Path: "/guides/webhooks", ThumbsUp: 1, ThumbsDown: 4, Code: 1, Total: 6}
			if len(p.Pages) != 1 || p.Pages[0] != want || !p.HasMore {
				t.Errorf("by page = %+v, want [%+v] and hasMore", p, want)
			}
		}},
		{"conversations", docsapitest.EndpointConversations, func(t *testing.T, c *docsapi.Client, story *docsapitest.Analytics) {
			p, err := c.Conversations(ctx, docsapi.ConversationsParams{})
			if err != nil {
				t.Fatal(err)
			}
			byCat := map[string]int{}
			for _, r := range p.Conversations {
				if !r.IsAnswered() {
					byCat[r.Category]++
				}
			}
			if byCat["Audit logs"] != 4 || byCat["Authentication"] != 1 || len(byCat) != 2 || len(p.Conversations) != len(story.Conversations) || p.HasMore {
				t.Errorf("unanswered by category %v, %d rows", byCat, len(p.Conversations))
			}
			for i := 1; i < len(p.Conversations); i++ {
				if p.Conversations[i].At.After(*p.Conversations[i-1].At) {
					t.Errorf("rows not newest first at %d", i)
				}
			}
		}},
		{"thread", docsapitest.EndpointThread, func(t *testing.T, c *docsapi.Client, _ *docsapitest.Analytics) {
			th, err := c.ConversationThread(ctx, docsapitest.ThreadID(6))
			if err != nil {
				t.Fatal(err)
			}
			var roles []string
			for _, m := range th.Messages {
				roles = append(roles, m.Role)
			}
			if th.ID != docsapitest.ThreadID(6) || !slices.Equal(roles, []string{"user", "assistant", "user", "assistant"}) ||
				th.Messages[0].Content != "How do I verify a webhook?" || th.Messages[1].Content != "Which language does your endpoint use?" {
				t.Errorf("thread = %+v", th)
			}
		}},
		{"unknown thread", docsapitest.EndpointThread, func(t *testing.T, c *docsapi.Client, _ *docsapitest.Analytics) {
			_, err := c.ConversationThread(ctx, docsapitest.ThreadID(999))
			var apiErr *docsapi.APIError
			if !errors.Is(err, docsapi.ErrNotFound) || !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound {
				t.Errorf("unknown thread: %v", err)
			}
		}},
		{"malformed thread id", docsapitest.EndpointThread, func(t *testing.T, c *docsapi.Client, _ *docsapitest.Analytics) {
			if _, err := c.ConversationThread(ctx, "not-a-ulid"); !errors.Is(err, docsapi.ErrInvalidRequest) {
				t.Errorf("malformed thread id: %v", err)
			}
		}},
		{"caller stats", docsapitest.EndpointCallerStats, func(t *testing.T, c *docsapi.Client, story *docsapitest.Analytics) {
			st, err := c.CallerStats(ctx, docsapi.AnalyticsRange{})
			if err != nil {
				t.Fatal(err)
			}
			var want docsapi.CallerStats
			for _, c := range story.Conversations {
				switch c.Caller {
				case "api":
					want.API++
				case "other":
					want.Other++
				default:
					want.Web++
				}
			}
			want.Total = want.Web + want.API + want.Other
			if *st != want {
				t.Errorf("caller stats = %+v, want %+v", *st, want)
			}
		}},
		{"caller stats in a range", docsapitest.EndpointCallerStats, func(t *testing.T, c *docsapi.Client, _ *docsapitest.Analytics) {
			// The last day before today: the turns 20 to 39 hours old, of
			// which three are in the story (threads 3 and two of 6).
			st, err := c.CallerStats(ctx, docsapi.AnalyticsRange{From: "2025-11-19", To: "2025-11-20"})
			if err != nil {
				t.Fatal(err)
			}
			if st.Total < 3 {
				t.Errorf("caller stats for 2025-11-19 = %+v, want at least 3", *st)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, float := range []bool{false, true} {
				e := storyEnv(t, docsapitest.WithFloatCounts(float))
				tt.check(t, e.c, e.srv.Analytics())
				lastEndpoint(t, e.srv, tt.endpoint)
			}
		})
	}
}

// collectPages walks a pager; it returns the pages and the error that ended it.
func collectPages[T any](seq func(func(T, error) bool)) ([]T, error) {
	var pages []T
	for p, err := range seq {
		if err != nil {
			return pages, err
		}
		pages = append(pages, p)
	}
	return pages, nil
}

// TestAnalyticsPagers walks each pager to the end and to a bound.
func TestAnalyticsPagers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	story := docsapitest.DefaultAnalytics()
	tests := []struct {
		name     string
		endpoint docsapitest.Endpoint
		rows     int // rows of the whole walk
		limit    int
		// walk walks with the limit and bound and returns the pages' row
		// counts and the error that ended it.
		walk func(c *docsapi.Client, limit, bound int) ([]int, error)
	}{
		{"views", docsapitest.EndpointViews, 240, 50, func(c *docsapi.Client, limit, bound int) ([]int, error) {
			pages, err := collectPages(c.ViewPages(ctx, docsapi.ViewsParams{Limit: limit}, bound))
			return lens(pages, func(p *docsapi.ViewsPage) int { return len(p.Views) }), err
		}},
		{"searches", docsapitest.EndpointSearches, len(story.Searches), 10, func(c *docsapi.Client, limit, bound int) ([]int, error) {
			pages, err := collectPages(c.SearchPages(ctx, docsapi.SearchesParams{Limit: limit}, bound))
			return lens(pages, func(p *docsapi.SearchesPage) int { return len(p.Searches) }), err
		}},
		{"feedback", docsapitest.EndpointFeedback, len(story.Feedback), 5, func(c *docsapi.Client, limit, bound int) ([]int, error) {
			pages, err := collectPages(c.FeedbackPages(ctx, docsapi.FeedbackParams{Limit: limit}, bound))
			return lens(pages, func(p *docsapi.FeedbackPage) int { return len(p.Feedback) }), err
		}},
		{"conversations", docsapitest.EndpointConversations, len(story.Conversations), 7, func(c *docsapi.Client, limit, bound int) ([]int, error) {
			pages, err := collectPages(c.ConversationPages(ctx, docsapi.ConversationsParams{Limit: limit}, bound))
			return lens(pages, func(p *docsapi.ConversationsPage) int { return len(p.Conversations) }), err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := storyEnv(t)
			full := (tt.rows + tt.limit - 1) / tt.limit
			if full < 3 {
				t.Fatalf("story too small: %d rows make %d pages of %d", tt.rows, full, tt.limit)
			}
			counts, err := tt.walk(e.c, tt.limit, 0)
			sum := 0
			for _, n := range counts {
				sum += n
			}
			if err != nil || len(counts) != full || sum != tt.rows || e.srv.Count(tt.endpoint) != full {
				t.Errorf("full walk: %v pages, %d rows, %d requests, %v; want %d pages, %d rows", counts, sum, e.srv.Count(tt.endpoint), err, full, tt.rows)
			}

			e.srv.ResetRequests()
			counts, err = tt.walk(e.c, tt.limit, 2)
			var be *docsapi.PageBoundError
			if !errors.Is(err, docsapi.ErrPageBound) || !errors.As(err, &be) || be.Pages != 2 || be.Endpoint != string(tt.endpoint) ||
				len(counts) != 2 || e.srv.Count(tt.endpoint) != 2 {
				t.Errorf("bound 2: %v pages, %d requests, %v; want 2 pages and a PageBoundError", counts, e.srv.Count(tt.endpoint), err)
			}

			// A bound equal to the pages needed is no error.
			e.srv.ResetRequests()
			if counts, err := tt.walk(e.c, tt.limit, full); err != nil || len(counts) != full {
				t.Errorf("bound %d: %v, %v", full, counts, err)
			}

			// Every request past the first carries the previous page's cursor
			// or offset, so no row is fetched twice (checked by the sum above);
			// and each is named by EndpointOf.
			for _, r := range e.srv.Requests() {
				if docsapi.EndpointOf(r.Method, r.Path) == docsapi.EndpointOther {
					t.Errorf("%s %s not named by EndpointOf", r.Method, r.Path)
				}
			}
		})
	}
}

func lens[T any](pages []T, n func(T) int) []int {
	out := make([]int, len(pages))
	for i, p := range pages {
		out[i] = n(p)
	}
	return out
}

// TestAnalyticsPagerStopsEarly checks that a caller that stops makes no
// further request.
func TestAnalyticsPagerStopsEarly(t *testing.T) {
	t.Parallel()
	e := storyEnv(t)
	for range e.c.SearchPages(context.Background(), docsapi.SearchesParams{Limit: 5}, 0) {
		break
	}
	if n := e.srv.Count(docsapitest.EndpointSearches); n != 1 {
		t.Errorf("%d requests after stopping at the first page, want 1", n)
	}
}

// TestAnalyticsPagerBadServers pages over hand-written answers.
func TestAnalyticsPagerBadServers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		bodies    []string // answered in turn; the last repeats
		wantPages int
		wantErr   func(error) bool
	}{
		{"cursor repeats", []string{`{"searches":[{"searchQuery":"a","hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"x"}],"totalSearches":1,"nextCursor":"c1"}`},
			1, func(err error) bool { return err != nil && strings.Contains(err.Error(), "repeats") }},
		{"hasMore without cursor", []string{`{"searches":[],"totalSearches":0,"nextCursor":null,"hasMore":true}`},
			0, func(err error) bool { return errors.Is(err, docsapi.ErrMalformedResponse) }},
		{"12.0 counts and a cursor then null", []string{
			`{"searches":[{"searchQuery":"a","hits":12.0,"ctr":0.5,"topClickedPage":"/a","lastSearchedAt":"2025-11-19T10:00:00Z"}],"totalSearches":13.0,"nextCursor":"c1"}`,
			`{"searches":[{"searchQuery":"b","hits":1.0,"ctr":0,"topClickedPage":null,"lastSearchedAt":"2025-11-19T10:00:00Z"}],"totalSearches":13.0,"nextCursor":null}`},
			2, func(err error) bool { return err == nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int32
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b := tt.bodies[min(int(n.Add(1))-1, len(tt.bodies)-1)]
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(b))
			}))
			t.Cleanup(hs.Close)
			key := testKey(t)
			c, _ := newClient(t, hs.URL, key, "proj")
			pages, err := collectPages(c.SearchPages(context.Background(), docsapi.SearchesParams{}, 10))
			if len(pages) != tt.wantPages || !tt.wantErr(err) {
				t.Errorf("%d pages, error %v", len(pages), err)
			}
		})
	}
}

// TestAnalyticsSharedLimit spends the analytics budget across endpoints.
func TestAnalyticsSharedLimit(t *testing.T) {
	t.Parallel()
	e := storyEnv(t, docsapitest.WithLimits(docsapitest.Limits{Visitors: 4}))
	ctx := context.Background()
	calls := []func() error{
		func() error { _, err := e.c.Visitors(ctx, docsapi.VisitorsParams{Limit: 1}); return err },
		func() error { _, err := e.c.Views(ctx, docsapi.ViewsParams{Limit: 1}); return err },
		func() error { _, err := e.c.Searches(ctx, docsapi.SearchesParams{Limit: 1}); return err },
		func() error { _, err := e.c.FeedbackByPage(ctx, docsapi.FeedbackByPageParams{}); return err },
		func() error { _, err := e.c.CallerStats(ctx, docsapi.AnalyticsRange{}); return err },
		func() error { _, err := e.c.ConversationThread(ctx, docsapitest.ThreadID(1)); return err },
	}
	for i, call := range calls {
		err := call()
		if i < 4 {
			if err != nil {
				t.Fatalf("call %d within the budget: %v", i, err)
			}
			continue
		}
		var apiErr *docsapi.APIError
		// The whole window is the clock's now, so the wait is the hour; far
		// above the client's MaxWait, so it is not retried.
		if !errors.Is(err, docsapi.ErrRateLimited) || !errors.As(err, &apiErr) || apiErr.RetryAfter != time.Hour {
			t.Errorf("call %d over the budget: %v", i, err)
		}
	}
	if got := len(e.srv.Requests()); got != len(calls) {
		t.Errorf("%d requests, want %d (no retries of a long 429)", got, len(calls))
	}
}

// TestAnalyticsFaults checks errors from the server's faults.
func TestAnalyticsFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		fault     *docsapitest.Fault
		call      func(ctx context.Context, c *docsapi.Client) error
		ctxTime   time.Duration
		wantErr   func(error) bool
		wantCalls int
	}{
		{
			name: "bad search cursor is 400",
			call: func(ctx context.Context, c *docsapi.Client) error {
				_, err := c.Searches(ctx, docsapi.SearchesParams{Cursor: "garbage!"})
				return err
			},
			wantErr:   func(err error) bool { return errors.Is(err, docsapi.ErrInvalidRequest) },
			wantCalls: 1,
		},
		{
			name: "bad conversations cursor is 400",
			call: func(ctx context.Context, c *docsapi.Client) error {
				_, err := c.Conversations(ctx, docsapi.ConversationsParams{Cursor: "01JDQ5"})
				return err
			},
			wantErr:   func(err error) bool { return errors.Is(err, docsapi.ErrInvalidRequest) },
			wantCalls: 1,
		},
		{
			name:  "one 500 is retried",
			fault: &docsapitest.Fault{Endpoint: docsapitest.EndpointFeedback, Status: 500, Times: 1},
			call: func(ctx context.Context, c *docsapi.Client) error {
				_, err := c.Feedback(ctx, docsapi.FeedbackParams{})
				return err
			},
			wantErr:   func(err error) bool { return err == nil },
			wantCalls: 2,
		},
		{
			name:  "500 every time",
			fault: &docsapitest.Fault{Endpoint: docsapitest.EndpointConversations, Status: 500},
			call: func(ctx context.Context, c *docsapi.Client) error {
				_, err := c.Conversations(ctx, docsapi.ConversationsParams{})
				return err
			},
			wantErr: func(err error) bool {
				var apiErr *docsapi.APIError
				return errors.As(err, &apiErr) && apiErr.StatusCode == 500
			},
			wantCalls: 3,
		},
		{
			name:  "429 with a long Retry-After",
			fault: &docsapitest.Fault{Endpoint: docsapitest.EndpointViews, Status: 429, RetryAfter: 2 * time.Minute},
			call: func(ctx context.Context, c *docsapi.Client) error {
				_, err := c.Views(ctx, docsapi.ViewsParams{})
				return err
			},
			wantErr: func(err error) bool {
				var apiErr *docsapi.APIError
				return errors.Is(err, docsapi.ErrRateLimited) && errors.As(err, &apiErr) && apiErr.RetryAfter == 2*time.Minute
			},
			wantCalls: 1,
		},
		{
			name:  "truncated body",
			fault: &docsapitest.Fault{Endpoint: docsapitest.EndpointCallerStats, Malformed: true},
			call: func(ctx context.Context, c *docsapi.Client) error {
				_, err := c.CallerStats(ctx, docsapi.AnalyticsRange{})
				return err
			},
			wantErr:   func(err error) bool { return errors.Is(err, docsapi.ErrMalformedResponse) },
			wantCalls: 1,
		},
		{
			name:    "slow page outlives the caller",
			fault:   &docsapitest.Fault{Endpoint: docsapitest.EndpointSearches, Latency: time.Minute},
			ctxTime: 50 * time.Millisecond,
			call: func(ctx context.Context, c *docsapi.Client) error {
				_, err := c.Searches(ctx, docsapi.SearchesParams{})
				return err
			},
			wantErr:   func(err error) bool { return errors.Is(err, context.DeadlineExceeded) },
			wantCalls: 1,
		},
		{
			name: "bad limit is not sent",
			call: func(ctx context.Context, c *docsapi.Client) error {
				_, err := c.Conversations(ctx, docsapi.ConversationsParams{Limit: 1001})
				var ve *docsapi.ValidationError
				if errors.As(err, &ve) && ve.Field == "limit" {
					return nil
				}
				return err
			},
			wantErr:   func(err error) bool { return err == nil },
			wantCalls: 0,
		},
		{
			name: "bad feedback source is not sent",
			call: func(ctx context.Context, c *docsapi.Client) error {
				_, err := c.Feedback(ctx, docsapi.FeedbackParams{Source: "email"})
				var ve *docsapi.ValidationError
				if errors.As(err, &ve) {
					return nil
				}
				return err
			},
			wantErr:   func(err error) bool { return err == nil },
			wantCalls: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := storyEnv(t)
			if tt.fault != nil {
				e.srv.AddFault(*tt.fault)
			}
			ctx := context.Background()
			if tt.ctxTime > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.ctxTime)
				defer cancel()
			}
			err := tt.call(ctx, e.c)
			if !tt.wantErr(err) {
				t.Errorf("error %v", err)
			}
			assertNoKey(t, e.srv.Key, err)
			if got := len(e.srv.Requests()); got != tt.wantCalls {
				t.Errorf("%d requests, want %d", got, tt.wantCalls)
			}
		})
	}
}
