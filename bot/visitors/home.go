package visitors

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/store"
)

// What the rest of docsbot (the App Home, bot/home) may read of the visitors:
// a summary of the last days from the cache alone, which never spends the
// analytics budget.

// Feature is the visitors feature registered on a bot, as other features
// see it through the small interfaces they declare. Register returns it.
type Feature struct{ v *visitors }

// homeTop is how many pages the cached summary names.
const homeTop = 3

// CachedProjectSummary renders, in a few lines of mrkdwn, the visitors of
// the last days days (today included) of the project keyed projectKey
// (bot.ProjectKey: "" for the implicit or only project) from the cache that
// /docs-visitors fills, at whatever age it is: totals, the AI share and the
// top pages. It never asks the docs API: ok is false when the cache holds
// no export of that range, or the bot serves no such project.
func (f *Feature) CachedProjectSummary(ctx context.Context, projectKey string, days int) (text string, ok bool, err error) {
	v := f.v
	tg, found, err := v.targetByKey(projectKey)
	if !found || err != nil {
		return "", false, err
	}
	r, bad := parseRange(strconv.Itoa(days)+"d", daterange.Midnight(v.cfg.Now()), false) // as "/docs-visitors 7d" does
	if bad != nil {
		return "", false, bad
	}
	cached, err := v.store.LoadVisitors(ctx, tg.cacheKey(r))
	if errors.Is(err, store.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	t := cached.Totals
	var b strings.Builder
	report := visitorsReport{Req: visitorsRequest{Range: r}}
	fmt.Fprintf(&b, "*%s* (%s)\n*%s* visitors  ·  *%s* human  ·  *%s* AI  ·  AI share *%s*",
		r, report.spanNote(), humanize.Count(t.Total), humanize.Count(t.Human), humanize.Count(t.AI), share(t.AI, t.Total))
	if top := selectPages(cached.Pages, "", sortTotal, homeTop).Top; len(top) > 0 {
		parts := make([]string, len(top))
		for i, p := range top {
			parts[i] = inlineCode(p.Path) + " " + humanize.Count(p.Total)
		}
		b.WriteString("\nTop pages: " + strings.Join(parts, "  ·  "))
	}
	b.WriteString("\n_From the cache: fetched " + humanize.Ago(cached.Age) + "._")
	return b.String(), true, nil
}
