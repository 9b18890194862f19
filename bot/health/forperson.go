package health

import (
	"context"
	"errors"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// What other features (the pane) may ask of the docs health for a person:
// a summary of the last days read from the cache, else from the analytics
// on the person's share of the budget, and whether it can be had now.

// HealthFor renders the summary of the last days days of the project keyed
// projectKey (bot.ProjectKey) for who, as CachedHealth renders it: from the
// cache when it is fresh, else read from the analytics on who's share of
// the analytics budget (bot.AnalyticsLimits.Draw; what it does not use is
// given back) and cached for everyone. When the budget refuses or the
// analytics cannot be read, ok is false and text says why, for who (the
// budget's words say when it frees up). Its error is the store's.
func (f *Feature) HealthFor(ctx context.Context, projectKey string, days int, who bot.Spender, words bool) (text string, ok bool, err error) {
	h := f.h
	p, found := h.core.Project(projectKey)
	if !found {
		return project.NotServed(projectKey), false, nil
	}
	s, err := h.summaryOf(p, days)
	if err != nil {
		return "", false, err
	}
	from, to := s.rng.Params()
	log := h.log.With("user", who.User, "project", projectKey, "days", days)
	got, err := h.load(ctx, p.Project, s.api, viewSummary, s.key, docsapi.AnalyticsRange{From: from, To: to}, who, log)
	switch {
	case err != nil:
		return "", false, err
	case got.rep == nil && got.failed != nil:
		return healthFailure(got.failed), false, nil
	case got.rep == nil:
		return h.core.Analytics().Refusal(who, got.refused, got.need, h.cfg.Now()), false, nil
	}
	return h.summaryText(ctx, got.rep, got.age, s, words), true, nil
}

// HealthAtHand reports whether HealthFor would give the summary now: it is
// cached and fresh, or who's share of the analytics budget has room for
// reading it. It spends nothing.
func (f *Feature) HealthAtHand(ctx context.Context, projectKey string, days int, who bot.Spender) (bool, error) {
	h := f.h
	p, found := h.core.Project(projectKey)
	if !found {
		return false, nil
	}
	s, err := h.summaryOf(p, days)
	if err != nil {
		return false, err
	}
	c, err := h.store.Analytics.LoadReport(ctx, s.key)
	switch {
	case err == nil && c.Age < h.cfg.CacheTTL:
		return true, nil
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return false, err
	}
	g, err := h.store.Limits.Room(ctx, h.core.Analytics().Draw(p.Project, who))
	if err != nil {
		return false, err
	}
	return !g.Blocked && g.Remaining >= plan(viewSummary, h.cfg.MaxPages), nil
}
