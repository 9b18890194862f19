package unfurl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// viewsPerPage is the views report's page size: 250 docs pages a request.
const viewsPerPage = 250

// feedbackPages is how many pages the feedback report counts (its most).
const feedbackPages = 100

// readerWait is how long an unfurl waits for the figures another replica is
// reading, at most readerTries times, before unfurling without them.
const (
	readerWait  = 2 * time.Second
	readerTries = 3
)

// pageFigures are a project's pages' figures of the last 30 days, as
// cached: views (human and AI) and 👍/👎 by path. Why says, when there are
// none (Views nil), why not, in words for everyone who sees the unfurl.
type pageFigures struct {
	Views map[string]int64    `json:"views,omitempty"`
	Votes map[string][2]int64 `json:"votes,omitempty"`
	// ViewsCut says the views report had more pages than were read: a page
	// not in Views may have views.
	ViewsCut bool   `json:"views_cut,omitempty"`
	Why      string `json:"-"`
}

// The words of an unfurl without figures.
const (
	whyBudget  = "Views and votes are not shown: docsbot's analytics requests of this hour are spent."
	whyPool    = "Views and votes are not shown: docsbot's analytics requests for links of this hour are spent."
	whyNotIn   = "Views and votes are shown where docsbot is in the conversation."
	whyPoster  = "Views and votes are shown under links posted by members of the organisation only."
	whyFailed  = "Views and votes are not shown: the docs site's analytics could not be read just now."
	whyPending = "Views and votes are being read; they show on the next link to this page."
)

// figures returns the project's page figures: from the cache, else read by
// this replica when its mark is the first in cacheKeep (one request set for
// every page of the project), drawn on the unfurls' own pool of the budget
// (Config.AnalyticsPerHour). Its error is the store's, or a Later to wait
// for another replica's reading.
func (u *unfurls) figures(ctx context.Context, w *bot.Work, p project.Project, api UnfurlAPI, log *slog.Logger) (pageFigures, error) {
	rng, perr := daterange.Parse(fmt.Sprintf("%dd", days), daterange.Midnight(u.cfg.Now()), false)
	if perr != nil {
		return pageFigures{}, perr
	}
	from, to := rng.Params()
	key := fmt.Sprintf("unfurl:%s:%s..%s", api.ProjectID(), from, to)
	if got, ok := u.cached(ctx, key); ok {
		return got, nil
	}
	first, err := u.store.Limits.Once(ctx, "unfurl-read:"+key, cacheKeep)
	if err != nil {
		return pageFigures{}, bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if !first {
		// Another replica reads them (or read them, and the cache is
		// gone): wait a little, then unfurl without.
		if w.Attempt < readerTries {
			return pageFigures{}, bot.Later(readerWait, errors.New("the page figures are being read by another replica"))
		}
		return pageFigures{Why: whyPending}, nil
	}
	draw := u.core.Analytics().Pool(p, Name, u.cfg.AnalyticsPerHour)
	need := u.cfg.MaxPages + 1
	g, err := u.store.Limits.Draw(ctx, draw, need)
	if err != nil {
		u.forget(ctx, key, log)
		return pageFigures{}, bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if !g.OK() {
		u.forget(ctx, key, log)
		log.Info("page figures not read: the analytics budget refused", "remaining", g.Remaining, "refused", g.Refused)
		if g.Refused == store.RefusedShare {
			return pageFigures{Why: whyPool}, nil
		}
		return pageFigures{Why: whyBudget}, nil
	}
	got, used, ferr := u.read(ctx, api, docsapi.AnalyticsRange{From: from, To: to})
	if used < len(g.Tokens) {
		if err := u.store.Limits.Refund(context.WithoutCancel(ctx), draw, g.Tokens[used:]); err != nil {
			log.Warn("giving back unused analytics requests failed", "err", err)
		}
	}
	if ferr != nil {
		var apiErr *docsapi.APIError
		if errors.Is(ferr, docsapi.ErrRateLimited) && errors.As(ferr, &apiErr) && apiErr.RetryAfter > 0 {
			if err := u.store.Limits.BlockBudget(ctx, draw.Budget, apiErr.RetryAfter); err != nil {
				log.Warn("blocking the analytics budget failed", "err", err)
			}
		}
		u.forget(ctx, key, log)
		log.Warn("reading the page figures failed", "err", ferr)
		return pageFigures{Why: whyFailed}, nil
	}
	if data, err := json.Marshal(got); err == nil {
		if err := u.store.Analytics.SaveReport(ctx, key, data, cacheKeep); err != nil {
			log.Warn("caching the page figures failed", "err", err)
		}
	}
	return got, nil
}

// cached returns the figures cached under key, younger than cacheKeep.
func (u *unfurls) cached(ctx context.Context, key string) (pageFigures, bool) {
	c, err := u.store.Analytics.LoadReport(ctx, key)
	if err != nil || c.Age >= cacheKeep {
		return pageFigures{}, false
	}
	var got pageFigures
	if json.Unmarshal(c.Data, &got) != nil || got.Views == nil {
		return pageFigures{}, false
	}
	return got, true
}

// forget drops this replica's mark, so that the next link may read.
func (u *unfurls) forget(ctx context.Context, key string, log *slog.Logger) {
	if err := u.store.Limits.ForgetOnce(context.WithoutCancel(ctx), "unfurl-read:"+key); err != nil {
		log.Warn("dropping the page figures' mark failed; the next link waits for it", "err", err)
	}
}

// read reads the views report (at most MaxPages pages) and the feedback by
// page, and how many requests that took.
func (u *unfurls) read(ctx context.Context, api UnfurlAPI, r docsapi.AnalyticsRange) (pageFigures, int, error) {
	got := pageFigures{Views: map[string]int64{}, Votes: map[string][2]int64{}}
	used := 0
	for page, err := range api.ViewPages(ctx, docsapi.ViewsParams{AnalyticsRange: r, Limit: viewsPerPage}, u.cfg.MaxPages) {
		if errors.Is(err, docsapi.ErrPageBound) {
			got.ViewsCut = true
			break
		}
		used++
		if err != nil {
			return pageFigures{}, used, err
		}
		for _, v := range page.Views {
			got.Views[v.Path] += int64(v.Total)
		}
	}
	used++
	fb, err := api.FeedbackByPage(ctx, docsapi.FeedbackByPageParams{AnalyticsRange: r, Limit: feedbackPages})
	if err != nil {
		return pageFigures{}, used, err
	}
	for _, f := range fb.Pages {
		got.Votes[f.Path] = [2]int64{int64(f.ThumbsUp), int64(f.ThumbsDown)}
	}
	return got, used, nil
}
