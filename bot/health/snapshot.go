package health

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// Feature is the docs health as other features see it (the App Home).
type Feature struct{ h *health }

// OnFetched registers fn, called with the person's workspace and id and the
// command's work key after their /docs-health summary was shown, read from
// the analytics or the cache (the App Home republishes their Home, which
// shows CachedHealth). fn must be quick: it runs in the command's work.
// Register before the bot runs.
func (f *Feature) OnFetched(fn func(ctx context.Context, team, user, work string)) {
	f.h.shown = append(f.h.shown, fn)
}

// CachedHealth renders the summary of the last 30 days of the project keyed
// projectKey (bot.ProjectKey) from the cache alone, at no cost to the
// analytics budget: ok is false when none is cached. Its counts are for
// everyone, the help channels' threads resolved by experts among them
// (read from the store each time, as the views read it); with words
// (bot.Sight.Words of the viewer) it names the search terms that found
// nothing and the categories of the questions left unanswered, the first
// few of each.
func (f *Feature) CachedHealth(ctx context.Context, projectKey string, words bool) (text string, ok bool, err error) {
	h := f.h
	p, found := h.core.Project(projectKey)
	if !found {
		return "", false, nil
	}
	api := HealthAPI(p.API)
	rng, perr := daterange.Parse(defaultRange, daterange.Midnight(h.cfg.Now()), false)
	if perr != nil {
		return "", false, perr
	}
	from, to := rng.Params()
	c, err := h.store.Analytics.LoadReport(ctx, cacheKey(api, viewSummary, from, to))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "", false, nil
	case err != nil:
		return "", false, err
	}
	var rep report
	if err := json.Unmarshal(c.Data, &rep); err != nil {
		return "", false, fmt.Errorf("health: a cached summary: %w", err)
	}
	nowhere, questions := 0, 0
	var terms, categories []string
	for _, s := range rep.Searches {
		if s.Nowhere {
			nowhere++
			if len(terms) < homeNames {
				terms = append(terms, "`"+mrkdwn.Escape(mrkdwn.Cut(s.Query, 40))+"`")
			}
		}
	}
	for _, g := range rep.Questions {
		questions += len(g.Items)
		if len(categories) < homeNames {
			categories = append(categories, mrkdwn.Escape(mrkdwn.Cut(g.Category, 40)))
		}
	}
	text = fmt.Sprintf("%d searches found nothing clicked · %d pages voted down · %d questions the assistant could not answer",
		nowhere, len(rep.Pages), questions)
	if n, err := h.store.HelpChannels.ResolvedCalls(ctx, projectKey, rng.First, rng.Last.AddDate(0, 0, 1)); err != nil {
		h.log.Warn("counting the threads resolved by experts for a cached docs health failed; it leaves them out", "project", projectKey, "err", err)
	} else {
		text += " · " + resolvedCount(n)
	}
	if !words {
		return text + fmt.Sprintf("\n_As of %s; `%s` in a channel shows the counts and the pages._", humanize.Ago(c.Age), Command), true, nil
	}
	if len(terms) > 0 {
		text += "\nSearched for, nothing clicked: " + strings.Join(terms, ", ")
	}
	if len(categories) > 0 {
		text += "\nUnanswered questions about: " + strings.Join(categories, ", ")
	}
	return text + fmt.Sprintf("\n_As of %s; `%s` in a channel shows them, with Fix with agent._", humanize.Ago(c.Age), Command), true, nil
}

// resolvedCount is the count of the help channels' threads resolved by
// experts, in the cached health's line of counts.
func resolvedCount(n int64) string {
	if n == 1 {
		return "1 thread in the help channels resolved by an expert"
	}
	return humanize.Count(n) + " threads in the help channels resolved by experts"
}

// homeNames is how many search terms and question categories the Home
// names.
const homeNames = 3
