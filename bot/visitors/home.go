package visitors

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/store"
)

// What the rest of docsbot (the App Home, bot/home) may read of the visitors:
// a summary of the last days from the caches alone, which never spends the
// analytics budget, and a hook after a person's summary or chart.

// Feature is the visitors feature registered on a bot, as other features
// see it through the small interfaces they declare. Register returns it.
type Feature struct{ v *visitors }

// homeTop is how many pages the cached summary names.
const homeTop = 3

// OnFetched registers fn, called with the person's workspace and id and the
// command's work key after their /docs-visitors summary or chart was
// answered, read from the analytics or the caches (the App Home
// republishes their Home, which shows CachedProjectSummary). fn must be
// quick: it runs in the command's work. Register before the bot runs.
func (f *Feature) OnFetched(fn func(ctx context.Context, team, user, work string)) {
	f.v.answered = append(f.v.answered, fn)
}

// CachedProjectSummary renders, in a few lines of mrkdwn, the visitors of
// the last days days of the project keyed projectKey (bot.ProjectKey: ""
// for the implicit or only project) from the caches /docs-visitors fills,
// at whatever age they are. It reads, first found first: the export of the
// days up to today (`/docs-visitors 7d`: totals, the AI share and the top
// pages), the export of the whole days up to yesterday (`compare`'s), then
// the totals a chart of either range cached (`/docs-visitors 7d chart`,
// which counts whole days: no pages). It never asks the docs API: ok is
// false when no cache holds any of them, or the bot serves no such project.
func (f *Feature) CachedProjectSummary(ctx context.Context, projectKey string, days int) (text string, ok bool, err error) {
	v := f.v
	tg, found, err := v.targetByKey(projectKey)
	if !found || err != nil {
		return "", false, err
	}
	today := daterange.Midnight(v.cfg.Now())
	var ranges []dateRange
	for _, whole := range []bool{false, true} { // as "/docs-visitors 7d" and "/docs-visitors 7d chart" read it
		r, bad := parseRange(strconv.Itoa(days)+"d", today, whole)
		if bad != nil {
			return "", false, bad
		}
		ranges = append(ranges, r)
	}
	for _, r := range ranges {
		cached, err := v.store.LoadVisitors(ctx, tg.cacheKey(r))
		switch {
		case errors.Is(err, store.ErrNotFound):
			continue
		case err != nil:
			return "", false, err
		}
		return homeSummary(r, cached), true, nil
	}
	for _, r := range slices.Backward(ranges) {
		c, err := v.store.LoadRangeTotals(ctx, tg.dayProject(), r.First, r.Last)
		switch {
		case errors.Is(err, store.ErrNotFound):
			continue
		case err != nil:
			return "", false, err
		}
		return homeTotals(r, c) + "\n_From the cache of a chart, which names no pages._", true, nil
	}
	return "", false, nil
}

// homeSummary is the Home's summary of r from its cached export.
func homeSummary(r dateRange, cached *store.CachedVisitors) string {
	var b strings.Builder
	b.WriteString(homeTotals(r, cached.Totals))
	if top := selectPages(cached.Pages, "", sortTotal, homeTop).Top; len(top) > 0 {
		parts := make([]string, len(top))
		for i, p := range top {
			parts[i] = inlineCode(p.Path) + " " + humanize.Count(p.Total)
		}
		b.WriteString("\nTop pages: " + strings.Join(parts, "  ·  "))
	}
	b.WriteString("\n_From the cache: fetched " + humanize.Ago(cached.Age) + "._")
	return b.String()
}

// homeTotals is the Home's line of r's totals c.
func homeTotals(r dateRange, c store.VisitorCounts) string {
	report := visitorsReport{Req: visitorsRequest{Range: r}}
	return fmt.Sprintf("*%s* (%s)\n*%s* visitors  ·  *%s* human  ·  *%s* AI  ·  AI share *%s*",
		r, report.spanNote(), humanize.Count(c.Total), humanize.Count(c.Human), humanize.Count(c.AI), share(c.AI, c.Total))
}
