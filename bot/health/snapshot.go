package health

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/store"
)

// Feature is the docs health as other features see it (the App Home).
type Feature struct{ h *health }

// CachedHealth renders the summary of the last 30 days of the project keyed
// projectKey (bot.ProjectKey) from the cache alone, at no cost to the
// analytics budget: ok is false when none is cached.
func (f *Feature) CachedHealth(ctx context.Context, projectKey string) (text string, ok bool, err error) {
	h := f.h
	p, found := h.core.ProjectByKey(projectKey)
	if !found {
		return "", false, nil
	}
	api, found := h.apis[p.Name]
	if !found {
		return "", false, nil
	}
	rng, perr := daterange.Parse(defaultRange, daterange.Midnight(h.cfg.Now()), false)
	if perr != nil {
		return "", false, perr
	}
	from, to := rng.Params()
	c, err := h.store.Reports.LoadReport(ctx, cacheKey(api, viewSummary, from, to))
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
	nowhere := 0
	for _, s := range rep.Searches {
		if s.Nowhere {
			nowhere++
		}
	}
	questions := 0
	for _, g := range rep.Questions {
		questions += len(g.Items)
	}
	return fmt.Sprintf("%d searches found nothing clicked · %d pages voted down · %d questions the assistant could not answer\n"+
		"_As of %s; `%s` in a channel shows them, with Fix with agent._", nowhere, len(rep.Pages), questions, humanize.Ago(c.Age), Command), true, nil
}
