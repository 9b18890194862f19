package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// VisitorsAPI is what /docs-visitors needs from the docs API.
type VisitorsAPI interface {
	VisitorPages(ctx context.Context, p docsapi.VisitorsParams) iter.Seq2[*docsapi.VisitorsPage, error]
	// ProjectID names the project the numbers are for; it keys the cache, so
	// deployments sharing a Redis never share each other's numbers.
	ProjectID() string
}

// VisitorsStore is what /docs-visitors keeps in Redis: the exports cached for
// every replica, the analytics request budget they share, and the markers
// that drop a command delivered twice.
type VisitorsStore interface {
	LoadVisitors(ctx context.Context, key string) (*store.CachedVisitors, error)
	SaveVisitors(ctx context.Context, key string, snap *store.VisitorsSnapshot, keep time.Duration) error
	TakeBudget(ctx context.Context, b store.Budget, n int) (store.Grant, error)
	ReturnBudget(ctx context.Context, b store.Budget, tokens []string) error
	BlockBudget(ctx context.Context, b store.Budget, d time.Duration) error
}

const (
	// visitorsWork bounds a whole summary: cache, export walk and posts.
	visitorsWork = 5 * time.Minute
	// visitorsKeep is how long an export stays in the cache as a stale copy,
	// to answer with when the budget is spent.
	visitorsKeep = 24 * time.Hour
	// analyticsBudget names the shared budget of analytics requests.
	analyticsBudget = "analytics"
	// analyticsWindow is the period of the service's analytics limit.
	analyticsWindow = time.Hour
	// rateLimitPause is how long a 429 without Retry-After blocks the budget.
	rateLimitPause = time.Minute
)

// budgetError says that the analytics budget cannot pay for a summary now.
type budgetError struct {
	// Limit is the budget per hour.
	Limit int
	// Need is the number of requests the export is expected to take.
	Need int
	// RetryAfter is when enough of the budget is free again; 0 when Need is
	// more than the whole budget.
	RetryAfter time.Duration
	// Blocked reports that the docs API asked to wait (a 429).
	Blocked bool
}

func (e *budgetError) Error() string {
	return fmt.Sprintf("analytics budget: %d requests needed, limit %d an hour, retry after %v (blocked %t)",
		e.Need, e.Limit, e.RetryAfter, e.Blocked)
}

// text is what the user reads; describe in errors.go uses it.
func (e *budgetError) text() string {
	switch {
	case e.Blocked:
		return "The docs API's rate limit for analytics is reached, so docsbot is not asking it for now. Try again " + inAbout(e.RetryAfter) + "."
	case e.RetryAfter <= 0:
		return fmt.Sprintf("This range takes about %d requests to the docs API, more than the %d an hour it allows for analytics. Try a shorter range.", e.Need, e.Limit)
	}
	return fmt.Sprintf("docsbot has used its budget of %d analytics requests an hour (shared by all its replicas). It frees up %s.", e.Limit, inAbout(e.RetryAfter))
}

// onVisitorsCommand handles /docs-visitors. Help, refusals and bad input are
// answered in the ack; a summary is acked at once and made afterwards.
func (b *Bot) onVisitorsCommand(ctx context.Context, r *CommandRequest) {
	cmd := r.Command
	b.metrics.command(cmd.Command)
	req, bad := parseVisitors(cmd.Text, b.cfg.Now())
	refusal := b.access.check(cmd.UserID, cmd.ChannelID)
	switch {
	case bad == nil && req.Help:
		r.Ack(ephemeral(visitorsHelp()))
		return
	case refusal != "":
		r.Ack(ephemeral(refusal))
		return
	case bad != nil:
		r.Ack(ephemeral(bad.message() + "\n\n" + visitorsUsage()))
		return
	}
	payload, _ := json.Marshal(cmd)
	if !b.accept(ctx, store.Work{Key: "cmd:" + r.DeliveryID, Kind: workVisitors, Payload: payload}, redeliveredCommand) {
		r.Ack(ephemeral("docsbot cannot reach its storage right now, so it did not count visitors. Try again in a minute."))
		return
	}
	r.Ack(nil)
}

// workVisitors is the kind of inbox work of a /docs-visitors summary.
const workVisitors = "visitors.summary"

// doVisitors makes a /docs-visitors summary from the inbox. The range is
// read as of when the command was received.
func (b *Bot) doVisitors(ctx context.Context, w *Work) error {
	var cmd slack.SlashCommand
	if err := json.Unmarshal(w.Payload, &cmd); err != nil {
		return fmt.Errorf("decoding a visitors command: %w", err)
	}
	req, bad := parseVisitors(cmd.Text, b.cfg.Now())
	if bad != nil {
		return nil // answered in the ack
	}
	ctx, cancel := context.WithTimeout(ctx, visitorsWork)
	defer cancel()
	b.summarizeVisitors(ctx, cmd, req)
	return nil
}

// giveUpVisitors tells the person that no summary could be made in time.
func (b *Bot) giveUpVisitors(ctx context.Context, w *Work) {
	var cmd slack.SlashCommand
	if json.Unmarshal(w.Payload, &cmd) == nil {
		b.replyPrivately(ctx, cmd, "docsbot could not count visitors: Slack or its storage kept failing. Try again.")
	}
}

// summarizeVisitors answers a /docs-visitors command: from the cache when it
// is fresh, else from a new export within the shared budget, else from a
// stale copy, else with a private explanation.
func (b *Bot) summarizeVisitors(ctx context.Context, cmd slack.SlashCommand, req visitorsRequest) {
	log := b.log.With("user", cmd.UserID, "channel", cmd.ChannelID, "team", cmd.TeamID, "range", req.Range.String())
	key := b.visitorsKey(req.Range)
	cached, err := b.store.LoadVisitors(ctx, key)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			log.Warn("reading the visitors cache failed; fetching instead", "err", err)
		}
		cached = nil
	}
	report := visitorsReport{Req: req, Requester: cmd.UserID, CacheTTL: b.cfg.VisitorsCacheTTL}
	if cached != nil && cached.Age < b.cfg.VisitorsCacheTTL {
		b.metrics.VisitorsCache("hit")
		report.Snap, report.Age = cached.VisitorsSnapshot, cached.Age
		b.postSummary(ctx, cmd, report, log)
		return
	}

	snap, err := b.fetchVisitors(ctx, cmd, req.Range, cached, log)
	if err != nil {
		if cached != nil && mustWait(err) {
			b.metrics.VisitorsCache("stale")
			log.Info("analytics budget spent; answering with a stale copy", "age", cached.Age, "err", err)
			report.Snap, report.Age, report.Stale = cached.VisitorsSnapshot, cached.Age, describe(err)
			b.postSummary(ctx, cmd, report, log)
			return
		}
		b.metrics.VisitorsCache("miss")
		log.Warn("visitors summary failed", "err", err)
		b.replyPrivately(ctx, cmd, describe(err))
		return
	}
	b.metrics.VisitorsCache("miss")
	keep := max(visitorsKeep, 2*b.cfg.VisitorsCacheTTL)
	if err := b.store.SaveVisitors(ctx, key, snap, keep); err != nil {
		log.Warn("caching the visitors export failed", "err", err)
	}
	report.Snap, report.Fetched = snap, true
	b.postSummary(ctx, cmd, report, log)
}

// mustWait reports whether err means "not now": the budget is spent or the
// API asked to wait. A stale copy is a fair answer then.
func mustWait(err error) bool {
	if _, ok := errors.AsType[*budgetError](err); ok {
		return true
	}
	return errors.Is(err, docsapi.ErrRateLimited)
}

// visitorsKey names a date range's cache entry: the project (when the API
// client tells it) and the API's date parameters. top, path and sort are
// applied after the cache, so they share the entry.
func (b *Bot) visitorsKey(r dateRange) string {
	from, to := r.params()
	return b.api.ProjectID() + ":" + from + ":" + to
}

func (b *Bot) visitorsBudget() store.Budget {
	return store.Budget{Name: analyticsBudget, Limit: b.cfg.VisitorsBudget, Window: analyticsWindow}
}

// fetchVisitors walks the whole export of the range, 250 rows a request, and
// merges it. Each request is paid from the shared budget before it is sent:
// as many as the stale copy took are reserved up front (so a walk that
// cannot finish does not start), one more for each page beyond, and what is
// left unused is given back. A 429 blocks the budget for its Retry-After.
func (b *Bot) fetchVisitors(ctx context.Context, cmd slack.SlashCommand, r dateRange, stale *store.CachedVisitors, log *slog.Logger) (*store.VisitorsSnapshot, error) {
	budget := b.visitorsBudget()
	need := 1
	if stale != nil {
		need = max(stale.Requests, 1)
	}
	if need > budget.Limit {
		return nil, &budgetError{Limit: budget.Limit, Need: need}
	}
	tokens, err := b.takeBudget(ctx, budget, need)
	if err != nil {
		return nil, err
	}
	sent := 0 // requests sent, each paid by tokens[sent-1]
	defer func() {
		if sent < len(tokens) {
			if err := b.store.ReturnBudget(context.WithoutCancel(ctx), budget, tokens[sent:]); err != nil {
				log.Warn("returning unused analytics budget failed", "err", err)
			}
		}
	}()

	from, to := r.params()
	params := docsapi.VisitorsParams{From: from, To: to, Limit: docsapi.MaxVisitorsLimit}
	var merged docsapi.VisitorsMerge
	for page, err := range b.api.VisitorPages(ctx, params) {
		if err != nil {
			if _, invalid := errors.AsType[*docsapi.ValidationError](err); !invalid {
				sent++ // the failed request reached the API, or may have
			}
			if e, ok := errors.AsType[*docsapi.APIError](err); ok && e.StatusCode == http.StatusTooManyRequests {
				pause := e.RetryAfter
				if pause <= 0 {
					pause = rateLimitPause
				}
				if err := b.store.BlockBudget(context.WithoutCancel(ctx), budget, pause); err != nil {
					log.Warn("recording the API's rate limit failed", "err", err)
				}
			}
			return nil, err
		}
		sent++
		merged.Add(page)
		if !page.HasMore {
			break
		}
		if sent == len(tokens) {
			more, err := b.takeBudget(ctx, budget, 1)
			if err != nil {
				log.Warn("analytics budget ran out in the middle of an export", "pages", sent)
				return nil, err
			}
			tokens = append(tokens, more...)
		}
		if sent == 1 {
			b.replyPrivately(ctx, cmd, progressText(r, 2))
		}
	}
	all := merged.Result()
	snap := &store.VisitorsSnapshot{Totals: counts(all.Totals), Requests: sent, Pages: make([]store.VisitorPage, len(all.Visitors))}
	for i, v := range all.Visitors {
		snap.Pages[i] = store.VisitorPage{Path: v.Path, VisitorCounts: counts(v.Counts)}
	}
	log.Info("visitors export fetched", "requests", sent, "pages", len(snap.Pages))
	return snap, nil
}

// takeBudget takes n requests from the shared budget. Without the database
// nothing is sent: the budget could not be kept.
func (b *Bot) takeBudget(ctx context.Context, budget store.Budget, n int) ([]string, error) {
	g, err := b.store.TakeBudget(ctx, budget, n)
	if err != nil {
		return nil, &Error{Message: "docsbot cannot reach its database right now, so it did not ask the docs API. Try again in a minute.", Err: err}
	}
	if !g.OK() {
		return nil, &budgetError{Limit: budget.Limit, Need: n, RetryAfter: g.RetryAfter, Blocked: g.Blocked}
	}
	return g.Tokens, nil
}

// postSummary posts the summary in the channel through the command's
// response_url, which works where the bot is not a member.
func (b *Bot) postSummary(ctx context.Context, cmd slack.SlashCommand, r visitorsReport, log *slog.Logger) {
	if cmd.ResponseURL == "" {
		log.Warn("slash command without response_url; summary not posted")
		return
	}
	if err := b.respond(ctx, cmd, r.message()); err != nil {
		log.Warn("posting the visitors summary failed", "err", err)
		return
	}
	log.Info("visitors summary posted", "fetched", r.Fetched, "age", r.Age, "stale", r.Stale != "",
		"top", r.Req.Top, "path", r.Req.Path, "sort", string(r.Req.Sort))
}

func counts(c docsapi.Counts) store.VisitorCounts {
	return store.VisitorCounts{Human: int64(c.Human), AI: int64(c.AI), Total: int64(c.Total)}
}
