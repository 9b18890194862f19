package health

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// Feature is the docs health as other features see it (the App Home, the
// pane).
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
// analytics budget: ok is false when none is cached. It reads as
// summaryText says.
func (f *Feature) CachedHealth(ctx context.Context, projectKey string, words bool) (text string, ok bool, err error) {
	h := f.h
	p, found := h.core.Project(projectKey)
	if !found {
		return "", false, nil
	}
	s, err := h.summaryOf(p, defaultDays)
	if err != nil {
		return "", false, err
	}
	c, err := h.store.Analytics.LoadReport(ctx, s.key)
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
	return h.summaryText(ctx, &rep, c.Age, s, words), true, nil
}

// defaultDays is the span of defaultRange, in days.
const defaultDays = 30

// summary is the summary view of a project's last days: where it is
// cached, and how a person asks for it in a channel.
type summary struct {
	served bot.Served
	api    HealthAPI
	rng    daterange.Range
	key    string
	// command is the /docs-health that shows it, in mrkdwn.
	command string
}

// summaryOf is the summary of p's last days days, today included, as
// "/docs-health 7d" reads them today.
func (h *health) summaryOf(p bot.Served, days int) (summary, error) {
	text := strconv.Itoa(days) + "d"
	rng, perr := daterange.Parse(text, daterange.Midnight(h.cfg.Now()), false)
	if perr != nil {
		return summary{}, perr
	}
	command := Command
	if text != defaultRange {
		command += " " + text
	}
	api := HealthAPI(p.API)
	from, to := rng.Params()
	return summary{served: p, api: api, rng: rng, key: cacheKey(api, viewSummary, from, to),
		command: command + project.Arg(bot.ProjectKey(p.Project))}, nil
}

// summaryText renders rep, the summary s read age ago, in a few lines of
// mrkdwn. Its counts are for everyone, the help channels' threads resolved
// by experts among them (read from the store each time, as the views read
// it); with words (bot.Sight.Words of the viewer) it names the search terms
// that found nothing and the categories of the questions left unanswered,
// the first few of each.
func (h *health) summaryText(ctx context.Context, rep *report, age time.Duration, s summary, words bool) string {
	nowhere, questions := 0, 0
	var terms, categories []string
	for _, q := range rep.Searches {
		if q.Nowhere {
			nowhere++
			if len(terms) < homeNames {
				terms = append(terms, "`"+mrkdwn.Escape(mrkdwn.Cut(q.Query, 40))+"`")
			}
		}
	}
	for _, g := range rep.Questions {
		questions += len(g.Items)
		if len(categories) < homeNames {
			categories = append(categories, mrkdwn.Escape(mrkdwn.Cut(g.Category, 40)))
		}
	}
	text := fmt.Sprintf("%d searches found nothing clicked · %d pages voted down · %d questions the assistant could not answer",
		nowhere, len(rep.Pages), questions)
	key := bot.ProjectKey(s.served.Project)
	if n, err := h.store.HelpChannels.ResolvedCalls(ctx, key, s.rng.First, s.rng.Last.AddDate(0, 0, 1)); err != nil {
		h.log.Warn("counting the threads resolved by experts for a cached docs health failed; it leaves them out", "project", key, "err", err)
	} else {
		text += " · " + resolvedCount(n)
	}
	if !words {
		return text + fmt.Sprintf("\n_As of %s; `%s` in a channel shows the counts and the pages._", humanize.Ago(age), s.command)
	}
	if len(terms) > 0 {
		text += "\nSearched for, nothing clicked: " + strings.Join(terms, ", ")
	}
	if len(categories) > 0 {
		text += "\nUnanswered questions about: " + strings.Join(categories, ", ")
	}
	return text + fmt.Sprintf("\n_As of %s; `%s` in a channel shows them, with Fix with agent._", humanize.Ago(age), s.command)
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
