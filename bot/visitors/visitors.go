package visitors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/digests"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Command is the slash command of the visitors summary.
const Command = "/docs-visitors"

// Name is the feature's name (app.Config.Features).
const Name = "visitors"

// Declaration is what /docs-visitors serves and needs of Slack
// (declare.Declaration): the command and its buttons; the chart and the CSV
// file are uploaded, and a digest's subscriber is told in a direct message
// when Slack refuses the digest (conversations.open). Register routes
// exactly these.
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name: Name,
		Commands: []declare.Command{{Name: Command,
			Description: "Unique visitors of your docs, human and AI, with the top pages",
			UsageHint:   "[7d|30d|12w|today|yesterday|this-month|last-month|YYYY-MM-DD..YYYY-MM-DD] [top=N] [path=/prefix] [sort=total|human|ai] [chart|compare|csv] | digest weekly|daily|off|status",
			Examples: []string{Command + " 30d", Command + " 30d chart", Command + " 7d compare", Command + " 30d csv",
				Command + " digest daily", Command + " help"}}},
		Actions:      []string{ActionShowTrend},
		ActionGroups: []string{ActionChooseProject, ActionSpend},
		Scopes: []declare.Scope{
			{Name: "files:write", Why: "/docs-visitors charts and CSV files"},
			{Name: "im:write", Why: "DMs: to a digest's subscriber when Slack refuses the digest"},
		},
	}
}

// Config holds the settings of /docs-visitors. Zero values take the
// documented defaults.
type Config struct {
	// CacheTTL is how long a result is reused, by every replica, before
	// the API is asked again (default DefaultCacheTTL).
	CacheTTL time.Duration
	// Now is the clock for date ranges and the digest's schedule (default
	// time.Now). Dates are UTC.
	Now func() time.Time
	// Digest is when digests are due (DOCSBOT_DIGEST_TIME) where a
	// workspace set no digest time in Slack (bot/digests); the zero value
	// is digest.DefaultTime.
	Digest digest.Schedule
	// DigestTick is how often each replica looks for owed digests (default
	// DefaultDigestTick).
	DigestTick time.Duration
}

// The defaults of Config's settings that operators set; cmd/docsbot's
// settings table shows them.
const (
	DefaultCacheTTL = 10 * time.Minute
	// DefaultDigestTick is how often a replica looks for owed digests.
	DefaultDigestTick = time.Minute
)

func (c Config) withDefaults() Config {
	if c.CacheTTL <= 0 {
		c.CacheTTL = DefaultCacheTTL
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Digest.Location == nil {
		c.Digest, _ = digest.Parse(digest.DefaultTime)
	}
	if c.DigestTick <= 0 {
		c.DigestTick = DefaultDigestTick
	}
	return c
}

// visitors is the feature registered on a bot.
type visitors struct {
	core    *bot.Bot
	cfg     Config
	store   Deps
	log     *slog.Logger
	metrics *metrics
	// answered are the hooks called after a person's summary or chart
	// (Feature.OnFetched).
	answered []func(ctx context.Context, team, user, work string)
}

// Register adds /docs-visitors to b: the command and its work. Each
// project's numbers come from its own docs API (b.Project). Call it before
// b.Run. The Feature it returns is what other features (the App
// Home) may read of the visitors.
func Register(b *bot.Bot, cfg Config, st Deps) (*Feature, error) {
	routes := b.Router()
	v := &visitors{core: b, cfg: cfg.withDefaults(), store: st, log: b.Logger(), metrics: newMetrics(b.Metrics())}
	routes.Declare(Declaration())
	routes.HandleCommand(Command, v.onCommand)
	routes.HandleWork(workVisitors, bot.WorkHandler{Do: v.doVisitors, GiveUp: v.giveUpVisitors})
	routes.HandleBlockActions(ActionChooseProject, v.onChooseProject)
	routes.HandleBlockAction(ActionShowTrend, v.onShowTrend)
	routes.HandleWork(workTrend, bot.WorkHandler{Do: v.doTrend, GiveUp: v.giveUpTrend})
	routes.HandleBlockActions(ActionSpend, v.onSpend)
	digests.New(b).Register(v.digestFeed())
	return &Feature{v: v}, nil
}

// VisitorsAPI is what /docs-visitors needs from the docs API.
type VisitorsAPI interface {
	// Visitors is one page of the export: with limit 1, a range's totals
	// for one request.
	Visitors(ctx context.Context, p docsapi.VisitorsParams) (*docsapi.VisitorsPage, error)
	VisitorPages(ctx context.Context, p docsapi.VisitorsParams) iter.Seq2[*docsapi.VisitorsPage, error]
	// ProjectID names the project the numbers are for; it keys the caches,
	// so projects (and deployments sharing a Redis) never share each
	// other's numbers.
	ProjectID() string
}

// Deps is what /docs-visitors uses: one part of the store each
// (store/doc.go, "Parts"), embedded and named as the store names it; every
// part is required. Its methods are those of its parts.
type Deps struct {
	Analytics // store.Analytics
	Limits    // store.Limits
	Digests   // store.Digests
}

// Analytics is the exports cached for every replica, the markers of those
// fetched once their days were closed, and the day cache of the trend
// chart; store.Analytics satisfies it.
type Analytics interface {
	LoadVisitors(ctx context.Context, key string) (*store.CachedVisitors, error)
	SaveVisitors(ctx context.Context, key string, snap *store.VisitorsSnapshot, keep time.Duration) error
	MarkClosedExport(ctx context.Context, key string, keep time.Duration) error
	ClosedExport(ctx context.Context, key string) (bool, error)

	// The day cache of the trend chart.
	LoadDays(ctx context.Context, project string, first, last time.Time) (*store.CachedDays, error)
	SaveDays(ctx context.Context, project string, days []store.DayTotals, today time.Time, openKeep time.Duration) error
	LoadRangeTotals(ctx context.Context, project string, first, last time.Time) (store.VisitorCounts, error)
	SaveRangeTotals(ctx context.Context, project string, first, last time.Time, c store.VisitorCounts, today time.Time, openKeep time.Duration) error
}

// Limits is the analytics request budgets every replica shares, each
// person's share of them included (bot.AnalyticsLimits.Draw);
// store.Limits satisfies it.
type Limits interface {
	Draw(ctx context.Context, d store.Draw, n int) (store.Grant, error)
	Room(ctx context.Context, d store.Draw) (store.Grant, error)
	Refund(ctx context.Context, d store.Draw, tokens []string) error
	BlockBudget(ctx context.Context, b store.Budget, d time.Duration) error
}

// Digests is the digest: subscriptions (a channel's, per project), and each
// posting once across replicas; store.Digests satisfies it.
type Digests interface {
	SubscribeDigest(ctx context.Context, d store.DigestSub) error
	DigestSub(ctx context.Context, team, channel, project string) (*store.DigestSub, error)
	DigestSubs(ctx context.Context) ([]store.DigestSub, error)
	ChannelDigestSubs(ctx context.Context, team, channel string) ([]store.DigestSub, error)
	UnsubscribeDigest(ctx context.Context, team, channel, project string) (bool, error)
	ClaimDigest(ctx context.Context, run store.DigestRun, lease, keep time.Duration) (store.DigestClaim, error)
	ExtendDigest(ctx context.Context, c store.DigestClaim, lease time.Duration) error
	MarkDigestPosted(ctx context.Context, c store.DigestClaim) error
	ReleaseDigest(ctx context.Context, c store.DigestClaim, after time.Duration) error
	// A digest Slack refuses for good (digest_refused.go).
	NoteDigestFailure(ctx context.Context, d store.DigestSub, kind string) (bool, error)
	StopDigest(ctx context.Context, d store.DigestSub) (bool, error)
}

const (
	// visitorsWork bounds a whole summary: cache, export walk and posts.
	visitorsWork = 5 * time.Minute
	// visitorsKeep is how long an export stays in the cache as a stale copy,
	// to answer with when the budget is spent.
	visitorsKeep = 24 * time.Hour
	// rateLimitPause is how long a 429 without Retry-After blocks the budget.
	rateLimitPause = time.Minute
)

// budgetError says that the analytics budget cannot pay for a request now:
// the budget, the person's share or the digests' reserve refused it, or the
// docs API asked to wait.
type budgetError struct {
	// Limits are the analytics limits the draw was made under, By who
	// drew (whose share refused).
	Limits bot.AnalyticsLimits
	By     bot.Spender
	// Need is the number of requests the answer is expected to take.
	Need int
	// Grant is the refusal: which limit, what is left, when it frees up.
	Grant store.Grant
}

func (e *budgetError) Error() string {
	return fmt.Sprintf("analytics budget: %d requests needed, refused by limit %d, %d left, retry after %v (blocked %t)",
		e.Need, e.Grant.Refused, e.Grant.Remaining, e.Grant.RetryAfter, e.Grant.Blocked)
}

// told is e as the bot tells it: a *bot.Error whose message bot.Describe
// shows, wrapping e so that errors.As still finds it.
func (e *budgetError) told() error {
	return &bot.Error{Message: e.Limits.Refusal(e.By, e.Grant, e.Need, time.Now()), Err: e}
}

// onCommand handles /docs-visitors. Help, refusals and bad input are
// answered in the ack; a summary is acked at once and made afterwards.
func (v *visitors) onCommand(ctx context.Context, r *bot.CommandRequest) {
	cmd := r.Command
	text := cmd.Text
	var tokenErr error
	var named bool
	if !v.core.ProjectsIn(ctx).Implicit() {
		// project=NAME is read below (ackTarget), once the text is known
		// to be right.
		_, text, named, tokenErr = project.CutToken(text)
	}
	req, bad := parseVisitors(text, v.cfg.Now())
	refusal := v.core.Refusal(cmd.UserID, cmd.ChannelID)
	switch {
	case tokenErr != nil && refusal == "":
		r.Ack(bot.Ephemeral(project.Problem(tokenErr, v.core.ProjectsIn(ctx), "command")))
		return
	case bad == nil && req.Help:
		r.Ack(bot.Ephemeral(visitorsHelp() + projectsHelp(v.core.ProjectsIn(ctx).Set)))
		return
	case refusal != "":
		r.Ack(bot.Ephemeral(refusal))
		rec := bot.RefusalRecord(cmd.TeamID, cmd.ChannelID, cmd.UserID, Command, "")
		rec.Work = "cmd:" + r.DeliveryID
		v.core.Audit().Record(ctx, rec)
		return
	case bad != nil:
		r.Ack(bot.Ephemeral(bad.message() + "\n\n" + visitorsUsage()))
		return
	}
	// Slack's verification token is a secret the work does not need: it is
	// not kept in Redis.
	cmd.Token = ""
	cw := commandWork{SlashCommand: cmd}
	if v.statusOfAll(req, named) {
		// Every project's digest in the channel: no project to decide.
		cw.AllProjects = true
	} else if msg := v.ackTarget(ctx, &cw); msg != nil {
		r.Ack(msg)
		return
	}
	payload, _ := json.Marshal(cw)
	if !v.core.AcceptEnvelope(ctx, store.Work{Key: "cmd:" + r.DeliveryID, Kind: workVisitors, Payload: payload}, bot.RedeliveredCommand) {
		r.Ack(bot.Ephemeral("docsbot cannot reach its storage right now, so it did not count visitors. Try again in a minute."))
		return
	}
	r.Ack(nil)
}

// workVisitors is the kind of inbox work of a /docs-visitors summary.
const workVisitors = "visitors.summary"

// doVisitors makes a /docs-visitors summary from the inbox. The range is
// read as of when the command was received.
func (v *visitors) doVisitors(ctx context.Context, w *bot.Work) error {
	cw, err := decodeCommandWork(w.Payload)
	if err != nil {
		return fmt.Errorf("decoding a visitors command: %w", err)
	}
	if v.statusOfAllWork(cw) {
		return v.digestStatusAll(ctx, cw.SlashCommand)
	}
	t, ok, err := v.workTarget(ctx, &cw)
	if !ok {
		return err
	}
	cmd := cw.SlashCommand
	req, bad := parseVisitors(cmd.Text, v.cfg.Now())
	if bad != nil {
		// Answered in the ack, unless a button ran the command.
		if cw.Chosen {
			v.core.ReplyPrivately(ctx, cmd, bad.message()+"\n\n"+visitorsUsage())
		}
		return nil
	}
	if req.Help {
		if cw.Chosen {
			v.core.ReplyPrivately(ctx, cmd, visitorsHelp())
		}
		return nil
	}
	req.Project, req.ProjectName = t.key, t.label()
	ctx, cancel := context.WithTimeout(ctx, visitorsWork)
	defer cancel()
	switch req.Mode {
	case modeChart:
		if err := v.postChart(ctx, w, t, cmd, req.Range, "", 0); err != nil {
			return err
		}
		v.fetched(ctx, w, cmd)
	case modeCompare:
		v.postComparison(ctx, w, t, cmd, req)
	case modeCSV:
		return v.postCSV(ctx, w, t, cmd, req)
	case modeDigest:
		return v.digestCommand(ctx, w, t, cmd, req)
	default:
		v.summarizeVisitors(ctx, w, t, cmd, req)
		v.fetched(ctx, w, cmd)
	}
	return nil
}

// fetched calls the hooks of Feature.OnFetched after cmd's summary or
// chart.
func (v *visitors) fetched(ctx context.Context, w *bot.Work, cmd slack.SlashCommand) {
	for _, fn := range v.answered {
		fn(ctx, cmd.TeamID, cmd.UserID, w.Key)
	}
}

// giveUpVisitors tells the person that no summary could be made in time.
func (v *visitors) giveUpVisitors(ctx context.Context, w *bot.Work) {
	var cmd slack.SlashCommand
	if json.Unmarshal(w.Payload, &cmd) == nil {
		v.core.ReplyPrivately(ctx, cmd, "docsbot could not count visitors: Slack or its storage kept failing. Try again.")
	}
}

// summarizeVisitors answers a /docs-visitors command: from the cache when it
// is fresh, else from a new export within the shared budget, else from a
// stale copy, else with a private explanation.
func (v *visitors) summarizeVisitors(ctx context.Context, w *bot.Work, t target, cmd slack.SlashCommand, req visitorsRequest) {
	log := v.log.With("user", cmd.UserID, "channel", cmd.ChannelID, "team", cmd.TeamID, "range", req.Range.String(), "project", t.proj.Name)
	note := v.progress(w, cmd, req.Range)
	ex, err := v.export(ctx, t, v.spenderOf(ctx, cmd), req.Range, note.show(ctx), log)
	note.clear(ctx)
	if err != nil {
		log.Warn("visitors summary failed", "err", err)
		v.core.ReplyPrivately(ctx, cmd, bot.Describe(err))
		return
	}
	report := visitorsReport{Req: req, Requester: cmd.UserID, CacheTTL: v.cfg.CacheTTL, Snap: ex.Snap, Age: ex.Age, Fetched: ex.Fetched, Stale: ex.Stale, Closed: ex.Closed}
	v.postSummary(ctx, cmd, report, log)
}

// exported is a range's merged export and where it came from.
type exported struct {
	Snap *store.VisitorsSnapshot
	// Age is how old the data is; 0 when it was just fetched.
	Age time.Duration
	// Fetched reports data fetched now (not from the cache).
	Fetched bool
	// Stale, when not "", says why older data than usual is used.
	Stale string
	// Closed reports a cached copy older than the cache's TTL reused because
	// every day of its range is closed (store.DayClosed): it cannot change.
	Closed bool
}

// export returns the merged export of r: from the cache when it is fresh,
// else from a new export within the shared budget (cached for every replica),
// else from a stale copy. A cached copy of a range whose days are all closed
// (store.DayClosed) stays fresh past the TTL, for as long as it is kept: those
// days no longer change, so asking again would spend the budget on the same
// numbers. by pays for what is fetched. progress (which may be nil) is
// called once when the export takes more than one request.
func (v *visitors) export(ctx context.Context, t target, by bot.Spender, r dateRange, progress func(), log *slog.Logger) (exported, error) {
	key := t.cacheKey(r)
	cached, err := v.store.LoadVisitors(ctx, key)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			log.Warn("reading the visitors cache failed; fetching instead", "err", err)
		}
		cached = nil
	}
	if cached != nil && cached.Age < v.cfg.CacheTTL {
		v.metrics.VisitorsCache("hit")
		return exported{Snap: cached.VisitorsSnapshot, Age: cached.Age}, nil
	}
	// closed is decided before anything is fetched: a copy fetched while a
	// day of the range was open is not final, even if it is saved after
	// the day closed.
	closed := store.DayClosed(r.Last, daterange.Midnight(v.cfg.Now()))
	if cached != nil && closed && v.closedExport(ctx, key, log) {
		v.metrics.VisitorsCache("hit")
		return exported{Snap: cached.VisitorsSnapshot, Age: cached.Age, Closed: true}, nil
	}
	snap, err := v.fetchVisitors(ctx, t, by, r, cached, progress, log)
	if err != nil {
		if cached != nil && mustWait(err) {
			v.metrics.VisitorsCache("stale")
			log.Info("analytics budget spent; answering with a stale copy", "age", cached.Age, "err", err)
			return exported{Snap: cached.VisitorsSnapshot, Age: cached.Age, Stale: bot.Describe(err)}, nil
		}
		v.metrics.VisitorsCache("miss")
		return exported{}, err
	}
	v.metrics.VisitorsCache("miss")
	keep := max(visitorsKeep, 2*v.cfg.CacheTTL)
	if err := v.store.SaveVisitors(ctx, key, snap, keep); err != nil {
		log.Warn("caching the visitors export failed", "err", err)
	} else if closed {
		if err := v.store.MarkClosedExport(ctx, key, keep); err != nil {
			log.Warn("marking the visitors export of past days failed", "err", err)
		}
	}
	return exported{Snap: snap, Fetched: true}, nil
}

// closedExport reports whether the cached export key was fetched once every
// day of its range was closed (store.Analytics.MarkClosedExport), so that it is still
// right past the cache's TTL. When the database cannot tell, it is not.
func (v *visitors) closedExport(ctx context.Context, key string, log *slog.Logger) bool {
	ok, err := v.store.ClosedExport(ctx, key)
	if err != nil {
		log.Warn("reading the mark of a visitors export of past days failed; fetching instead", "err", err)
		return false
	}
	return ok
}

// mustWait reports whether err means "not now": the budget is spent or the
// API asked to wait. A stale copy is a fair answer then.
func mustWait(err error) bool {
	if _, ok := errors.AsType[*budgetError](err); ok {
		return true
	}
	return errors.Is(err, docsapi.ErrRateLimited)
}

// fetchVisitors walks the whole export of the range, 250 rows a request, and
// merges it. Each request is paid from the shared budget before it is sent:
// as many as the stale copy took are reserved up front (so a walk that
// cannot finish does not start), one more for each page beyond, and what is
// left unused is given back. by pays: a person within their share and never
// from the digests' reserve. A 429 blocks the budget for its Retry-After.
func (v *visitors) fetchVisitors(ctx context.Context, t target, by bot.Spender, r dateRange, stale *store.CachedVisitors, progress func(), log *slog.Logger) (*store.VisitorsSnapshot, error) {
	draw := v.draw(t, by)
	need := 1
	if stale != nil {
		need = max(stale.Requests, 1)
	}
	tokens, err := v.takeBudget(ctx, draw, by, need)
	if err != nil {
		return nil, err
	}
	sent := 0 // requests sent, each paid by tokens[sent-1]
	defer func() {
		if sent < len(tokens) {
			if err := v.store.Refund(context.WithoutCancel(ctx), draw, tokens[sent:]); err != nil {
				log.Warn("returning unused analytics budget failed", "err", err)
			}
		}
	}()

	from, to := r.Params()
	params := docsapi.VisitorsParams{From: from, To: to, Limit: docsapi.MaxVisitorsLimit}
	var merged docsapi.VisitorsMerge
	for page, err := range t.api.VisitorPages(ctx, params) {
		if err != nil {
			if _, invalid := errors.AsType[*docsapi.ValidationError](err); !invalid {
				sent++ // the failed request reached the API, or may have
			}
			v.noteRateLimit(ctx, draw.Budget, err, log)
			return nil, err
		}
		sent++
		merged.Add(page)
		if !page.HasMore {
			break
		}
		if sent == len(tokens) {
			more, err := v.takeBudget(ctx, draw, by, 1)
			if err != nil {
				log.Warn("analytics budget ran out in the middle of an export", "pages", sent)
				return nil, err
			}
			tokens = append(tokens, more...)
		}
		if sent == 1 && progress != nil {
			progress()
		}
	}
	all := merged.Result()
	snap := &store.VisitorsSnapshot{Totals: counts(all.Totals), Requests: sent, Pages: make([]store.VisitorPage, len(all.Visitors))}
	for i, p := range all.Visitors {
		snap.Pages[i] = store.VisitorPage{Path: p.Path, VisitorCounts: counts(p.Counts)}
	}
	log.Info("visitors export fetched", "requests", sent, "pages", len(snap.Pages))
	return snap, nil
}

// takeBudget takes n requests for draw, by by, from the shared budget.
// Without the database nothing is sent: the budget could not be kept.
func (v *visitors) takeBudget(ctx context.Context, draw store.Draw, by bot.Spender, n int) ([]string, error) {
	g, err := v.store.Draw(ctx, draw, n)
	if err != nil {
		return nil, dbDown(err)
	}
	if !g.OK() {
		return nil, (&budgetError{Limits: v.core.Analytics(), By: by, Need: n, Grant: g}).told()
	}
	return g.Tokens, nil
}

// postSummary posts the summary in the channel through the command's
// response_url, which works where the bot is not a member.
func (v *visitors) postSummary(ctx context.Context, cmd slack.SlashCommand, r visitorsReport, log *slog.Logger) {
	if cmd.ResponseURL == "" {
		log.Warn("slash command without response_url; summary not posted")
		return
	}
	if err := v.core.Respond(ctx, cmd, bot.RichReply{Kind: bot.RichTable, With: r.withTable(), Without: r.message()}); err != nil {
		log.Warn("posting the visitors summary failed", "err", err)
		return
	}
	log.Info("visitors summary posted", "fetched", r.Fetched, "age", r.Age, "stale", r.Stale != "",
		"top", r.Req.Top, "path", r.Req.Path, "sort", string(r.Req.Sort))
}

func counts(c docsapi.Counts) store.VisitorCounts {
	return store.VisitorCounts{Human: int64(c.Human), AI: int64(c.AI), Total: int64(c.Total)}
}
