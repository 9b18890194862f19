package visitors

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// datasetSnapshot returns the merged export of a test dataset over the 30
// days up to friday, as a walk would build it, and the request.
func datasetSnapshot(tb testing.TB, paths int) (*store.VisitorsSnapshot, visitorsRequest) {
	tb.Helper()
	return datasetSnapshotOver(tb, paths, "30d")
}

// datasetSnapshotOver is datasetSnapshot over another range.
func datasetSnapshotOver(tb testing.TB, paths int, rng string) (*store.VisitorsSnapshot, visitorsRequest) {
	tb.Helper()
	req, bad := parseVisitors(rng, friday)
	if bad != nil {
		tb.Fatal(bad)
	}
	ds := docsapitest.NewDataset(paths, 7)
	srv := docsapitest.NewServer(docsapitest.WithDataset(ds), docsapitest.WithClock(func() time.Time { return friday }))
	tb.Cleanup(srv.Close)
	to := req.Range.Last.AddDate(0, 0, 1)
	snap := &store.VisitorsSnapshot{Totals: counts(ds.Totals(req.Range.First, to)), Requests: (paths + 249) / 250}
	for _, p := range ds.Pages(req.Range.First, to) {
		snap.Pages = append(snap.Pages, store.VisitorPage{Path: p.Path, VisitorCounts: counts(p.Counts)})
	}
	return snap, req
}

// texts returns the text of every section and context element of a message.
func texts(msg *slack.WebhookMessage) (sections, contexts []string) {
	for _, b := range msg.Blocks.BlockSet {
		switch x := b.(type) {
		case *slack.SectionBlock:
			sections = append(sections, x.Text.Text)
		case *slack.ContextBlock:
			for _, e := range x.ContextElements.Elements {
				if t, ok := e.(*slack.TextBlockObject); ok {
					contexts = append(contexts, t.Text)
				}
			}
		}
	}
	return sections, contexts
}

// codeLines returns the lines inside the code blocks of the sections, with
// Slack's entities decoded.
func codeLines(sections []string) []string {
	var out []string
	for _, s := range sections {
		parts := strings.Split(s, "```")
		for i := 1; i < len(parts); i += 2 {
			for _, l := range strings.Split(strings.Trim(parts[i], "\n"), "\n") {
				out = append(out, strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(l))
			}
		}
	}
	return out
}

// checkLimits fails unless msg fits Slack's limits.
func checkLimits(t *testing.T, msg *slack.WebhookMessage) {
	t.Helper()
	if n := len(msg.Blocks.BlockSet); n > 50 {
		t.Errorf("%d blocks, more than 50", n)
	}
	if n := utf8.RuneCountInString(msg.Text); n >= 4000 {
		t.Errorf("fallback text of %d runes", n)
	}
	sections, contexts := texts(msg)
	for _, s := range append(sections, contexts...) {
		if n := utf8.RuneCountInString(s); n > 3000 || n == 0 {
			t.Errorf("block text of %d runes: %.80q", n, s)
		}
		if strings.Count(s, "```")%2 != 0 {
			t.Errorf("unbalanced code fence in %.200q", s)
		}
	}
}

func TestShare(t *testing.T) {
	t.Parallel()
	cases := []struct {
		part, whole int64
		want        string
	}{
		{1, 3, "33.3%"}, {0, 10, "0.0%"}, {10, 10, "100.0%"}, {5, 0, "n/a"}, {2345, 9876, "23.7%"},
	}
	for _, tc := range cases {
		if got := share(tc.part, tc.whole); got != tc.want {
			t.Errorf("share(%d, %d) = %q, want %q", tc.part, tc.whole, got, tc.want)
		}
	}
}

// selectPages must agree with sorting everything and cutting.
func TestSelectPagesMatchesFullSort(t *testing.T) {
	t.Parallel()
	snap, _ := datasetSnapshot(t, 613)
	// Ties on every column, and pages without visitors, must be handled too.
	snap.Pages = append(snap.Pages,
		store.VisitorPage{Path: "/tie-b", VisitorCounts: store.VisitorCounts{Human: 5, AI: 5, Total: 8}},
		store.VisitorPage{Path: "/tie-a", VisitorCounts: store.VisitorCounts{Human: 5, AI: 5, Total: 8}},
		store.VisitorPage{Path: "/none"},
	)
	for _, by := range []sortColumn{sortTotal, sortHuman, sortAI} {
		for _, prefix := range []string{"", "/api-reference", "/guides/", "/nothing-here"} {
			var want []store.VisitorPage
			for _, p := range snap.Pages {
				if strings.HasPrefix(p.Path, prefix) && (p.Total > 0 || p.Human > 0 || p.AI > 0) {
					want = append(want, p)
				}
			}
			key := func(p store.VisitorPage) int64 {
				return map[sortColumn]int64{sortTotal: p.Total, sortHuman: p.Human, sortAI: p.AI}[by]
			}
			slices.SortFunc(want, func(a, b store.VisitorPage) int {
				return cmp.Or(cmp.Compare(key(b), key(a)), cmp.Compare(b.Total, a.Total), strings.Compare(a.Path, b.Path))
			})
			for _, n := range []int{1, 10, 50} {
				got := selectPages(snap.Pages, prefix, by, n)
				top := want[:min(n, len(want))]
				if got.Matching != len(want) || !slices.Equal(got.Top, top) {
					t.Errorf("sort %s prefix %q top %d: %d matching, top %v; want %d, %v", by, prefix, n, got.Matching, got.Top, len(want), top)
				}
			}
		}
	}
}

func TestRenderSummary(t *testing.T) {
	t.Parallel()
	snap, req := datasetSnapshot(t, 613)
	req.Top = 12
	r := visitorsReport{Req: req, Snap: snap, Requester: "U0ALICE", Fetched: true, CacheTTL: 10 * time.Minute}
	msg := r.message()
	checkLimits(t, msg)
	if msg.ResponseType != slack.ResponseTypeInChannel {
		t.Errorf("response type %q, want in_channel", msg.ResponseType)
	}
	sections, contexts := texts(msg)
	all := strings.Join(append(sections, contexts...), "\n")
	tot := snap.Totals
	for _, want := range []string{
		"Oct 9 – Nov 7, 2025", "UTC, 30 days, today so far",
		"*" + humanize.Count(tot.Total) + "* visitors", "*" + humanize.Count(tot.Human) + "* human", "*" + humanize.Count(tot.AI) + "* AI",
		"AI share *" + share(tot.AI, tot.Total) + "*", "AI share = AI visitors ÷ all unique visitors", "not human + AI",
		fmt.Sprintf("*Top 12 pages by total visitors* (%s pages had visitors)", humanize.Count(int64(countVisited(snap.Pages)))),
		"<@U0ALICE>", "fetched just now (3 API requests)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("summary lacks %q:\n%s", want, all)
		}
	}
	if tot.Total >= 1000 && !strings.Contains(humanize.Count(tot.Total), ",") {
		t.Fatalf("no thousands separator in %q", humanize.Count(tot.Total))
	}
	if !strings.Contains(msg.Text, humanize.Count(tot.Total)) {
		t.Errorf("fallback text %q lacks the total", msg.Text)
	}

	// The table: a header and the top pages in order, columns aligned.
	lines := codeLines(sections)
	if len(lines) != 13 {
		t.Fatalf("%d table lines, want a header and 12 rows:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	width := utf8.RuneCountInString(lines[0])
	for i, l := range lines {
		if utf8.RuneCountInString(l) != width {
			t.Errorf("line %d is %d runes wide, header %d: %q", i, utf8.RuneCountInString(l), width, l)
		}
	}
	if f := strings.Fields(lines[0]); !slices.Equal(f, []string{"#", "Page", "Total", "↓", "Human", "AI"}) {
		t.Errorf("header %q", lines[0])
	}
	for i, p := range snap.Pages[:12] { // the dataset serves pages by total
		f := strings.Fields(lines[i+1])
		want := []string{fmt.Sprintf("%d.", i+1), p.Path, humanize.Count(p.Total), humanize.Count(p.Human), humanize.Count(p.AI)}
		if !slices.Equal(f, want) {
			t.Errorf("row %d = %q, want %q", i+1, f, want)
		}
	}
}

func TestRenderSortAndPathFilter(t *testing.T) {
	t.Parallel()
	snap, req := datasetSnapshot(t, 613)
	req.Path, req.Sort, req.Top = "/api-reference", sortAI, 5
	msg := visitorsReport{Req: req, Snap: snap, Requester: "U0ALICE", Age: 3 * time.Minute, CacheTTL: 10 * time.Minute}.message()
	checkLimits(t, msg)
	sections, contexts := texts(msg)
	all := strings.Join(append(sections, contexts...), "\n")
	sel := selectPages(snap.Pages, "/api-reference", sortAI, 5)
	for _, want := range []string{
		"Only pages whose path starts with `/api-reference`",
		fmt.Sprintf("%s of %s pages with visitors", humanize.Count(int64(sel.Matching)), humanize.Count(int64(countVisited(snap.Pages)))),
		"can't be added up into unique visitors", "totals above are for the whole site",
		"*Top 5 pages under `/api-reference` by AI visitors*",
		"fetched 3 minutes ago, reused for up to 10 minutes",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("summary lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(strings.ToLower(all), "sum") {
		t.Errorf("a path summary mentions a sum:\n%s", all)
	}
	lines := codeLines(sections)
	if f := strings.Fields(lines[0]); !slices.Equal(f, []string{"#", "Page", "Total", "Human", "AI", "↓"}) {
		t.Errorf("header %q", lines[0])
	}
	for i, p := range sel.Top {
		if f := strings.Fields(lines[i+1]); len(f) < 2 || f[1] != p.Path {
			t.Errorf("row %d = %q, want %s", i+1, lines[i+1], p.Path)
		}
	}

	req.Path = "/no-such-section"
	msg = visitorsReport{Req: req, Snap: snap, Requester: "U0ALICE"}.message()
	sections, _ = texts(msg)
	if !strings.Contains(strings.Join(sections, "\n"), "No page under `/no-such-section` had visitors") {
		t.Errorf("no-match summary: %q", sections)
	}
}

func TestRenderStaleNote(t *testing.T) {
	t.Parallel()
	snap, req := datasetSnapshot(t, 40)
	why := bot.Describe((&budgetError{Need: 1, Grant: store.Grant{RetryAfter: 12 * time.Minute, Refused: store.RefusedBudget}}).told())
	msg := visitorsReport{Req: req, Snap: snap, Requester: "U0ALICE", Age: 2*time.Hour + 5*time.Minute, Stale: why}.message()
	checkLimits(t, msg)
	sections, contexts := texts(msg)
	all := strings.Join(append(sections, contexts...), "\n")
	for _, want := range []string{"These numbers are from 2 hours 5 minutes ago", "budget of 100 analytics requests an hour", "frees up in about 12 minutes"} {
		if !strings.Contains(all, want) {
			t.Errorf("stale summary lacks %q:\n%s", want, all)
		}
	}
	// A site with fewer pages than top lists them all.
	if !strings.Contains(all, "pages with visitors, by total visitors*") && !strings.Contains(all, "*Top 10 pages") {
		t.Errorf("heading of a small site:\n%s", all)
	}
}

func TestRenderEscapesPaths(t *testing.T) {
	t.Parallel()
	hostile := []string{
		"/<!channel>",
		"/a&b<c>d",
		"/```code```/x",
		"/<@U0BOB>/<https://evil.example|click>",
		"/*bold*_it_~st~",
	}
	snap := &store.VisitorsSnapshot{Totals: store.VisitorCounts{Human: 10, AI: 5, Total: 12}, Requests: 1}
	for i, p := range hostile {
		snap.Pages = append(snap.Pages, store.VisitorPage{Path: p, VisitorCounts: store.VisitorCounts{Human: int64(10 - i), AI: 1, Total: int64(10 - i)}})
	}
	req, _ := parseVisitors("7d", friday)
	for _, path := range []string{"", "/<!channel>"} {
		req.Path = path
		msg := visitorsReport{Req: req, Snap: snap, Requester: "U0ALICE"}.message()
		checkLimits(t, msg)
		sections, contexts := texts(msg)
		all := strings.Join(append(sections, contexts...), "\n") + msg.Text
		for _, bad := range []string{"<!channel>", "<@U0BOB>", "<https://evil", "&b<c"} {
			if strings.Contains(all, bad) {
				t.Errorf("summary (path %q) contains live markup %q:\n%s", path, bad, all)
			}
		}
		for _, s := range sections {
			if n := strings.Count(s, "```"); n != 0 && n != 2 {
				t.Errorf("a path broke out of the code block (%d fences):\n%s", n, s)
			}
		}
		lines := codeLines(sections)
		joined := strings.Join(lines, "\n")
		for _, want := range []string{"/<!channel>", "/a&b<c>d", "/*bold*_it_~st~", "/ˋˋˋcodeˋˋˋ/x"} {
			if path == "" && !strings.Contains(joined, want) {
				t.Errorf("table lacks %q (after decoding entities):\n%s", want, joined)
			}
		}
	}
}

func TestRenderLimitsWithHugeSites(t *testing.T) {
	t.Parallel()
	long := func(i int) string {
		return "/" + strings.Repeat("<&>", 1500) + fmt.Sprint(i)
	}
	big, req := datasetSnapshotOver(t, 100_000, "400d")
	if len(big.Pages) != 100_000 {
		t.Fatalf("%d pages with visitors, want 100,000", len(big.Pages))
	}
	cases := []struct {
		name string
		snap *store.VisitorsSnapshot
	}{
		{"100,000 paths", big},
		{"very long paths of markup", func() *store.VisitorsSnapshot {
			s := &store.VisitorsSnapshot{Totals: big.Totals, Requests: 1}
			for i := range 5000 {
				s.Pages = append(s.Pages, store.VisitorPage{Path: long(i), VisitorCounts: store.VisitorCounts{Human: int64(1e9 - i), AI: 1e9, Total: int64(2e9 - i)}})
			}
			return s
		}()},
	}
	for _, tc := range cases {
		for _, path := range []string{"", "/" + strings.Repeat("<&>", 2000)} {
			req.Top, req.Path, req.Sort = maxTop, path, sortHuman
			msg := visitorsReport{Req: req, Snap: tc.snap, Requester: "U0ALICE", Stale: strings.Repeat("x", 300), Age: time.Hour}.message()
			checkLimits(t, msg)
			sections, _ := texts(msg)
			if lines := codeLines(sections); path == "" && len(lines) != maxTop+1 {
				t.Errorf("%s: %d table lines, want %d", tc.name, len(lines), maxTop+1)
			}
			// Rows with a button are a section each; the rest share one or
			// two.
			tables, buttons := 0, 0
			for _, b := range msg.Blocks.BlockSet {
				sec, ok := b.(*slack.SectionBlock)
				if !ok || !strings.Contains(sec.Text.Text, "```") {
					continue
				}
				if sec.Accessory != nil && sec.Accessory.ButtonElement != nil && sec.Accessory.ButtonElement.ActionID == jobdraft.ActionImprovePage {
					buttons++
				} else {
					tables++
				}
			}
			if tc.name == "100,000 paths" && path == "" && (tables > 3 || buttons < 40) {
				t.Errorf("%s: %d rows with a button and %d other table sections, want 40 or more and at most three (the header's included)", tc.name, buttons, tables)
			}
		}
	}
}
