package visitors_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// visitorsNow is the clock of the visitors tests, shared by the bot and the
// API test server so that "today" is the same day for both.
func visitorsNow() time.Time { return time.Date(2025, 11, 7, 15, 30, 0, 0, time.UTC) }

// visitorsHarness is a harness whose API serves a dataset of paths pages on
// the shared clock.
func visitorsHarness(t *testing.T, paths int, opts ...docsapitest.Option) (*harness, *docsapitest.Dataset) {
	t.Helper()
	ds := docsapitest.NewDataset(paths, 2025)
	h := newHarness(t, append([]docsapitest.Option{docsapitest.WithDataset(ds), docsapitest.WithClock(visitorsNow)}, opts...)...)
	return h, ds
}

// wideShare are analytics limits whose share of a person, 50, pays for a
// 30-day chart from a cold cache (31 requests), as the default share (20)
// does not: for the tests of what charts cost, not of the shares.
var wideShare = bot.AnalyticsLimits{Budget: 100, PerUser: 50, PerGuest: 5, DigestReserve: 10}

// visitorsBot is visitorsHarness with a bot started with cfg, on the
// shared clock unless cfg says otherwise.
func visitorsBot(t *testing.T, paths int, cfg bottest.Config) (*harness, *docsapitest.Dataset) {
	t.Helper()
	h, ds := visitorsHarness(t, paths)
	if cfg.Now == nil {
		cfg.Now = visitorsNow
	}
	h.StartBot(cfg)
	return h, ds
}

// postText is everything a response_url post shows.
func postText(p slacktest.ResponsePost) string {
	return p.Text + "\n" + rendered(slacktest.Message{Text: p.Text, Blocks: p.Blocks})
}

// summaries returns the in-channel posts made through response_urls.
func (h *harness) summaries() []slacktest.ResponsePost {
	var out []slacktest.ResponsePost
	for _, p := range h.Slack.ResponsePosts("") {
		if p.ResponseType == "in_channel" && p.Error == "" {
			out = append(out, p)
		}
	}
	return out
}

// privates returns the ephemeral posts made through response_urls (not
// the deletions of earlier ones).
func (h *harness) privates() []slacktest.ResponsePost {
	var out []slacktest.ResponsePost
	for _, p := range h.Slack.ResponsePosts("") {
		if p.ResponseType == "ephemeral" && p.Error == "" && !p.DeleteOriginal {
			out = append(out, p)
		}
	}
	return out
}

// visitorsCommand types /docs-visitors and checks the ack is empty (the
// work happens afterwards).
func (h *harness) visitorsCommand(text string) {
	h.T.Helper()
	ack := h.Command(alice, general, visitors.Command, text)
	if len(ack.Payload) > 0 && string(ack.Payload) != "null" {
		h.T.Fatalf("ack of %q carries %s, want an empty ack", text, ack.Payload)
	}
}

// tableRows returns the fields of the numbered rows of a summary's table.
// pageRows are a summary's top pages as rank, path, total, human and AI:
// the rows of its data_table, or, where it has none, of its monospace table.
func pageRows(p slacktest.ResponsePost) [][]string {
	_, table, ok := bottest.Table(p.Blocks)
	if !ok {
		return tableRows(postText(p))
	}
	var rows [][]string
	for i, r := range table[1:] {
		rows = append(rows, []string{fmt.Sprintf("%d.", i+1), r[0].Text, r[1].Text, r[2].Text, r[3].Text})
	}
	return rows
}

func tableRows(text string) [][]string {
	var rows [][]string
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) == 5 && strings.HasSuffix(f[0], ".") && strings.Trim(f[0], "0123456789") == "." {
			rows = append(rows, f)
		}
	}
	return rows
}

// waitSummaries waits until n summaries were posted and returns the last.
func (h *harness) waitSummaries(n int) slacktest.ResponsePost {
	h.T.Helper()
	h.WaitFor(fmt.Sprintf("%d visitors summaries", n), func() bool { return len(h.summaries()) >= n })
	s := h.summaries()
	if len(s) != n {
		h.T.Fatalf("%d summaries, want %d", len(s), n)
	}
	return s[n-1]
}

// waitPrivate waits for an ephemeral response_url post containing want.
func (h *harness) waitPrivate(want string) slacktest.ResponsePost {
	h.T.Helper()
	var got slacktest.ResponsePost
	h.WaitFor("a private reply with "+want, func() bool {
		for _, p := range h.privates() {
			if strings.Contains(p.Text, want) {
				got = p
				return true
			}
		}
		return false
	})
	return got
}

func TestVisitorsEndToEnd(t *testing.T) {
	t.Parallel()
	h, ds := visitorsHarness(t, 613)
	first := h.StartBot(bottest.Config{Now: visitorsNow})

	from, to := time.Date(2025, 10, 9, 0, 0, 0, 0, time.UTC), time.Date(2025, 11, 8, 0, 0, 0, 0, time.UTC)
	pages := ds.Pages(from, to)
	if len(pages) != 613 {
		t.Fatalf("the dataset has %d pages with visitors in 30 days, want all 613", len(pages))
	}
	h.visitorsCommand("30d")
	sum := h.waitSummaries(1)

	// Exactly ceil(613/250) = 3 requests of 250 rows, for the right days.
	reqs := h.API.Requests()
	if len(reqs) != 3 || h.API.Count(docsapitest.EndpointVisitors) != 3 {
		t.Fatalf("%d API requests, want exactly 3", len(reqs))
	}
	for i, r := range reqs {
		q := r.Query
		wantOffset := ""
		if i > 0 {
			wantOffset = fmt.Sprint(250 * i)
		}
		if q.Get("limit") != "250" || q.Get("offset") != wantOffset || q.Get("dateFrom") != "2025-10-09" || q.Get("dateTo") != "2025-11-08" {
			t.Errorf("request %d query %v, want limit=250 offset=%q dateFrom=2025-10-09 dateTo=2025-11-08", i, q, wantOffset)
		}
	}

	text := postText(sum)
	totals := ds.Totals(from, to)
	bottest.WantContains(t, "summary", text,
		"Oct 9 – Nov 7, 2025", "*"+humanize.Count(int64(totals.Total))+"* visitors", "*"+humanize.Count(int64(totals.Human))+"* human",
		"*"+humanize.Count(int64(totals.AI))+"* AI", "613 pages had visitors", "<@"+alice+">", "3 API requests",
	)
	rows := pageRows(sum)
	if len(rows) != 10 {
		t.Fatalf("%d table rows, want 10:\n%s", len(rows), text)
	}
	for i, p := range pages[:10] {
		want := []string{fmt.Sprintf("%d.", i+1), p.Path, humanize.Count(int64(p.Total)), humanize.Count(int64(p.Human)), humanize.Count(int64(p.AI))}
		if !slices.Equal(rows[i], want) {
			t.Errorf("row %d = %q, want %q", i+1, rows[i], want)
		}
	}
	// The summary is in the channel; a progress note went privately before it.
	if !strings.Contains(rendered(h.Roots(general)[0]), humanize.Count(int64(totals.Total))) {
		t.Errorf("the channel does not show the summary")
	}
	if p := h.privates(); len(p) != 1 || !strings.Contains(p[0].Text, "Counting visitors for Oct 9 – Nov 7, 2025") || !p[0].At.Before(sum.At) {
		t.Errorf("private posts %+v, want one progress note before the summary", p)
	}
	if n := h.progressNotesShown(); n != 0 {
		t.Errorf("%d progress notes still shown after the summary, want none", n)
	}

	// Asked again, with other options: the cache answers.
	h.visitorsCommand("30d top=5 sort=ai")
	again := postText(h.waitSummaries(2))
	if !strings.Contains(again, "Top 5 pages by AI visitors") || !strings.Contains(again, "reused for up to 10 minutes") {
		t.Errorf("second summary:\n%s", again)
	}
	h.WantRequests(docsapitest.EndpointVisitors, 3, "still 3 after a cached summary")

	// Another replica on the same Redis answers from the same cache.
	first.Stop()
	h.StartBot(bottest.Config{Now: visitorsNow})
	h.visitorsCommand("30d")
	h.waitSummaries(3)
	h.WantRequests(docsapitest.EndpointVisitors, 3, "still 3 after a summary on a second replica")
	if n := len(h.privates()); n != 1 {
		t.Errorf("%d private posts, want only the first progress note", n)
	}
}

func TestVisitorsSinglePageAndRedelivery(t *testing.T) {
	t.Parallel()
	h, ds := visitorsBot(t, 120, bottest.Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	env, trigger, err := h.Slack.SendSlashCommand(ctx, slacktest.SlashCommand{Command: visitors.Command, Text: "yesterday", UserID: alice, ChannelID: general})
	if err != nil {
		t.Fatal(err)
	}
	h.waitSummaries(1)
	if err := h.Slack.Redeliver(ctx, env); err != nil {
		t.Fatalf("redeliver: %v", err)
	}
	h.WaitLogged("slash command delivered again; already handled", 1)
	h.StopAll()
	if n := len(h.Slack.ResponsePosts(trigger)); n != 1 {
		t.Errorf("%d posts for one command delivered twice, want 1 (no progress note for one page)", n)
	}
	reqs := h.API.Requests()
	if len(reqs) != 1 || reqs[0].Query.Get("limit") != "250" || reqs[0].Query.Get("dateFrom") != "2025-11-06" || reqs[0].Query.Get("dateTo") != "2025-11-07" {
		t.Fatalf("requests %+v, want one of 250 rows for Nov 6", reqs)
	}
	day := time.Date(2025, 11, 6, 0, 0, 0, 0, time.UTC)
	text := postText(h.summaries()[0])
	if want := "*" + humanize.Count(int64(ds.Totals(day, day.AddDate(0, 0, 1)).Total)) + "* visitors"; !strings.Contains(text, want) || !strings.Contains(text, "Nov 6, 2025") {
		t.Errorf("summary lacks %q and the day:\n%s", want, text)
	}
}

func TestVisitorsPathFilter(t *testing.T) {
	t.Parallel()
	h, ds := visitorsBot(t, 300, bottest.Config{})
	h.visitorsCommand("2025-11-01..2025-11-05 path=/api-reference/endpoint top=3")
	sum := h.waitSummaries(1)
	text := postText(sum)
	if q := h.API.Requests()[0].Query; q.Get("dateFrom") != "2025-11-01" || q.Get("dateTo") != "2025-11-06" {
		t.Errorf("query %v, want dateFrom=2025-11-01 dateTo=2025-11-06 (the day after the end)", q)
	}
	var under []docsapi.PageVisitors
	for _, p := range ds.Pages(time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 11, 6, 0, 0, 0, 0, time.UTC)) {
		if strings.HasPrefix(p.Path, "/api-reference/endpoint") {
			under = append(under, p)
		}
	}
	if len(under) < 4 {
		t.Fatalf("only %d pages under the prefix", len(under))
	}
	bottest.WantContains(t, "summary", text,
		"Only pages whose path starts with `/api-reference/endpoint`", "can't be added up into unique visitors",
		fmt.Sprintf("Top 3 pages under `/api-reference/endpoint` by total visitors* (%d pages had visitors)", len(under)),
	)
	rows := pageRows(sum)
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3:\n%s", len(rows), text)
	}
	for i, p := range under[:3] {
		if rows[i][1] != p.Path || rows[i][2] != humanize.Count(int64(p.Total)) {
			t.Errorf("row %d = %q, want %s %s", i+1, rows[i], p.Path, humanize.Count(int64(p.Total)))
		}
	}
}

func TestVisitorsBudgetExhausted(t *testing.T) {
	t.Parallel()
	h, _ := visitorsBot(t, 613, bottest.Config{Config: app.Config{Bot: bot.Config{Analytics: bot.AnalyticsLimits{Budget: 3}}, Visitors: visitors.Config{CacheTTL: 50 * time.Millisecond}}})

	h.visitorsCommand("30d") // takes the whole budget: 3 requests
	h.waitSummaries(1)
	if n := h.API.Count(docsapitest.EndpointVisitors); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}

	// A range never fetched: nothing to fall back on, so a clear refusal.
	h.visitorsCommand("7d")
	p := h.waitPrivate("budget of 3 analytics requests an hour")
	if !strings.Contains(p.Text, "frees up in about 1 hour") {
		t.Errorf("refusal %q does not say when the budget frees up", p.Text)
	}

	// The first range again after its cache expired: the stale copy answers.
	time.Sleep(100 * time.Millisecond) // past the 50ms cache TTL
	h.visitorsCommand("30d")
	stale := postText(h.waitSummaries(2))
	bottest.WantContains(t, "stale summary", stale, "These numbers are from less than a minute ago", "budget of 3 analytics requests an hour")
	h.WantRequests(docsapitest.EndpointVisitors, 3, "still 3: the budget is spent")
}

func TestVisitorsRateLimitedByTheAPI(t *testing.T) {
	t.Parallel()
	h, _ := visitorsHarness(t, 100)
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusTooManyRequests, RetryAfter: 20 * time.Minute, Times: 1})
	h.StartBot(bottest.Config{Now: visitorsNow})
	h.visitorsCommand("7d")
	p := h.waitPrivate("rate limit")
	if !strings.Contains(p.Text, "in about 20 minutes") {
		t.Errorf("reply %q does not say when to retry", p.Text)
	}
	if n := h.API.Count(docsapitest.EndpointVisitors); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
	// The 429 blocks the shared budget: the next summary does not ask.
	h.visitorsCommand("today")
	h.WaitFor("a second refusal", func() bool { return len(h.privates()) == 2 })
	if second := h.privates()[1].Text; !strings.Contains(second, "rate limit for analytics is reached") || !strings.Contains(second, "in about 20 minutes") {
		t.Errorf("second reply %q", second)
	}
	h.WantRequests(docsapitest.EndpointVisitors, 1, "still 1 while blocked")
	if n := len(h.summaries()); n != 0 {
		t.Errorf("%d summaries, want none", n)
	}
}

func TestVisitorsAPIErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		fault docsapitest.Fault
		want  string
	}{
		{"server error", docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusInternalServerError}, "having trouble: it answered 500 Internal Server Error"},
		{"malformed", docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Malformed: true}, "could not read"},
		{"html page", docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Body: "<html>proxy</html>"}, "could not read"},
		{"bad key", docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusUnauthorized}, "DOCS_API_KEY"},
		{"bad query", docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusBadRequest, Body: `{"error":"dateFrom <b>bad</b>"}`}, "dateFrom &lt;b&gt;bad&lt;/b&gt;"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, _ := visitorsHarness(t, 50)
			h.API.AddFault(tc.fault)
			h.StartBot(bottest.Config{Now: visitorsNow})
			h.visitorsCommand("7d")
			h.waitPrivate(tc.want)
			if n := len(h.summaries()); n != 0 {
				t.Errorf("%d summaries after an error, want none", n)
			}
			if n := h.API.Count(docsapitest.EndpointVisitors); n < 1 || n > 2 {
				t.Errorf("%d requests, want 1 (or 2 with the client's one retry)", n)
			}
		})
	}
}

func TestVisitorsAnswersInTheAck(t *testing.T) {
	t.Parallel()
	h, _ := visitorsHarness(t, 50)
	h.Slack.AddChannel(slacktest.Channel{ID: "C0OTHER", Name: "other", BotMember: true})
	h.Slack.AddUser("U0MALLORY", "mallory")
	h.StartBot(bottest.Config{Now: visitorsNow, Config: app.Config{Bot: bot.Config{AllowedUsers: []string{alice}, AllowedChannels: []string{general}}}})
	cases := []struct {
		name, user, channel, text string
		want                      []string
	}{
		{"help", alice, general, "help", []string{"*Usage:*", "this-month", "top=N"}},
		{"unknown word", alice, general, "7d please", []string{"`please`", "not a date range", "*Usage:*"}},
		{"impossible date", alice, general, "2023-02-29", []string{"`2023-02-29`", "not a day of the calendar", "*Usage:*"}},
		{"start after end", alice, general, "2025-11-05..2025-11-01", []string{"start is after the end"}},
		{"top=0", alice, general, "top=0", []string{"`top=0`", "from 1 to 50"}},
		{"markup is quoted escaped", alice, general, "<!channel>", []string{"`&lt;!channel&gt;`"}},
		{"user not allowed", "U0MALLORY", general, "7d", []string{"not on the list"}},
		{"channel not allowed", alice, "C0OTHER", "7d", []string{"not enabled in this channel"}},
	}
	for _, tc := range cases {
		ack := h.Command(tc.user, tc.channel, visitors.Command, tc.text)
		var p struct {
			ResponseType string `json:"response_type"`
			Text         string `json:"text"`
		}
		if err := json.Unmarshal(ack.Payload, &p); err != nil {
			t.Fatalf("%s: ack payload %s: %v", tc.name, ack.Payload, err)
		}
		if p.ResponseType != "ephemeral" {
			t.Errorf("%s: ack is %q, want ephemeral", tc.name, p.ResponseType)
		}
		for _, w := range tc.want {
			if !strings.Contains(p.Text, w) {
				t.Errorf("%s: ack %q lacks %q", tc.name, p.Text, w)
			}
		}
		if strings.Contains(p.Text, "<!channel>") {
			t.Errorf("%s: ack carries live markup: %q", tc.name, p.Text)
		}
	}
	h.StopAll() // nothing may follow the acks
	if n := len(h.API.Requests()); n != 0 {
		t.Errorf("%d API requests, want none", n)
	}
	if n := len(h.Slack.ResponsePosts("")); n != 0 {
		t.Errorf("%d response_url posts, want none", n)
	}
}
