package visitors

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/visitors/insight"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// ActionShowTrend is the action_id of the summary's "Show trend" button. Its
// value is the JSON of a trendRange.
const ActionShowTrend = "docs_visitors_trend"

// workTrend is the kind of inbox work of a chart asked for with the button.
const workTrend = "visitors.trend"

// markChart is the checkpoint of a chart uploaded: its file id.
const markChart = "chart"

// trendRange is the range of a chart, as the button carries it, and the
// project's key (bot.ProjectKey; "" for the implicit project and for buttons
// posted before projects existed).
type trendRange struct {
	First   string `json:"first"` // YYYY-MM-DD
	Last    string `json:"last"`
	Project string `json:"project,omitempty"`
}

// trendAsk is a chart asked for with the button: by whom, where, and of
// which range.
type trendAsk struct {
	// Asker is who asked and where; its response_url carries the private
	// notes.
	Asker slack.SlashCommand `json:"asker"`
	Range trendRange         `json:"range"`
	// ThreadTS is the thread to post in (the summary's).
	ThreadTS string `json:"thread_ts,omitempty"`
	// Approved is what the person agreed to spend with the Spend button
	// (spend.go); 0 before they were asked.
	Approved int `json:"approved,omitempty"`
}

// trendButton is the summary's "Show trend" button for r in the project
// keyed projectKey.
func trendButton(r dateRange, projectKey string) slack.Block {
	value, _ := json.Marshal(trendRange{First: r.First.Format(time.DateOnly), Last: r.Last.Format(time.DateOnly), Project: projectKey})
	btn := slack.NewButtonBlockElement(ActionShowTrend, string(value), slack.NewTextBlockObject(slack.PlainTextType, ":chart_with_upwards_trend: Show trend", true, false))
	return slack.NewActionBlock("", btn)
}

// onShowTrend handles the "Show trend" button: the chart is made from the
// inbox and posted in the summary's thread.
func (v *visitors) onShowTrend(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	var tr trendRange
	if len(ic.ActionCallback.BlockActions) == 0 || json.Unmarshal([]byte(ic.ActionCallback.BlockActions[0].Value), &tr) != nil {
		v.log.Warn("a Show trend button without a readable range", "user", ic.User.ID)
		r.Ack(nil)
		return
	}
	thread := ic.Container.ThreadTs
	if thread == "" {
		thread = ic.Container.MessageTs
	}
	ask := trendAsk{
		Asker:    slack.SlashCommand{TeamID: ic.Team.ID, ChannelID: ic.Channel.ID, UserID: ic.User.ID, ResponseURL: ic.ResponseURL},
		Range:    tr,
		ThreadTS: thread,
	}
	payload, _ := json.Marshal(ask)
	// A button has no answer to give in its ack: if the work cannot be
	// recorded, the person sees nothing happen and presses again.
	if !v.core.AcceptEnvelope(ctx, store.Work{Key: "act:" + r.DeliveryID, Kind: workTrend, Payload: payload}, "redelivered Show trend button ignored") {
		v.log.Warn("a Show trend button could not be recorded", "user", ic.User.ID)
	}
	r.Ack(nil)
}

// doTrend makes the chart asked for with the button.
func (v *visitors) doTrend(ctx context.Context, w *bot.Work) error {
	var ask trendAsk
	if err := json.Unmarshal(w.Payload, &ask); err != nil {
		return fmt.Errorf("decoding a chart request: %w", err)
	}
	if refusal := v.core.Refusal(ask.Asker.UserID, ask.Asker.ChannelID); refusal != "" {
		v.core.ReplyPrivately(ctx, ask.Asker, refusal)
		return nil
	}
	t, ok, err := v.trendTarget(ctx, ask)
	if !ok {
		return err
	}
	first, err1 := time.Parse(time.DateOnly, ask.Range.First)
	last, err2 := time.Parse(time.DateOnly, ask.Range.Last)
	if err := errors.Join(err1, err2); err != nil || last.Before(first) {
		return fmt.Errorf("a chart request with the range %q..%q: %w", ask.Range.First, ask.Range.Last, err)
	}
	// The summary was made some time ago: its last day may be over since.
	today := daterange.Midnight(v.cfg.Now())
	r := dateRange{First: first, Last: daterange.MinTime(last, today), Today: !last.Before(today)}
	ctx, cancel := context.WithTimeout(ctx, visitorsWork)
	defer cancel()
	if ask.Approved > 0 {
		v.answerSpend(ctx, ask.Asker, fmt.Sprintf("Drawing the chart: it spends up to %s of the hour's analytics requests.", requests(ask.Approved)))
	}
	return v.postChart(ctx, w, t, ask.Asker, r, ask.ThreadTS, ask.Approved)
}

// trendTarget is the project of a Show trend button: the one it names, or,
// for a button without one (posted before projects existed), the implicit or
// only project, else the one the channel or the person's last choice
// decides. ok is false when the person was told privately why not.
func (v *visitors) trendTarget(ctx context.Context, ask trendAsk) (target, bool, error) {
	set := v.core.ProjectsIn(ctx)
	served, ok := v.core.Project(ask.Range.Project)
	p := served.Project
	if !ok && ask.Range.Project == "" {
		res, err := v.core.ProjectsIn(ctx).Resolve(ctx, project.Request{Team: ask.Asker.TeamID, Channel: ask.Asker.ChannelID, User: ask.Asker.UserID})
		if err != nil {
			if store.Temporary(err) {
				return target{}, false, bot.Later(30*time.Second, err)
			}
			return target{}, false, err
		}
		p, ok = res.Project, !res.Ask
	}
	if !ok {
		text := "docsbot cannot tell which docs project this chart is for. Ask for it with `" + Command + " chart project=NAME`; the projects are " + mrkdwn.Escape(strings.Join(set.Names(), ", ")) + "."
		if ask.Range.Project != "" {
			text = "The docs project " + inlineCode(ask.Range.Project) + " of this summary is no longer one docsbot serves, so it cannot draw the chart."
		}
		v.core.ReplyPrivately(ctx, ask.Asker, text)
		return target{}, false, nil
	}
	t, err := v.target(p)
	if err != nil {
		v.core.ReplyPrivately(ctx, ask.Asker, bot.Describe(err))
		return target{}, false, nil
	}
	return t, true, nil
}

// giveUpTrend tells the person that no chart could be made in time.
func (v *visitors) giveUpTrend(ctx context.Context, w *bot.Work) {
	var ask trendAsk
	if json.Unmarshal(w.Payload, &ask) == nil {
		v.core.ReplyPrivately(ctx, ask.Asker, "docsbot could not draw the chart: Slack or its storage kept failing. Try again.")
	}
}

// postChart draws the chart of r within the budget, telling asker what it
// costs, and uploads it in asker's channel (in thread when not ""). A chart
// that would spend more than askAbove requests asks asker first (spend.go),
// unless they approved spending approved.
//
// The chart's post is the work's step (markChart: "message:" and the ts of
// Slack's chart, else the file's id): an attempt after it posts nothing.
func (v *visitors) postChart(ctx context.Context, w *bot.Work, t target, asker slack.SlashCommand, r dateRange, thread string, approved int) error {
	log := v.log.With("user", asker.UserID, "channel", asker.ChannelID, "range", r.String(), "chart", true, "project", t.proj.Name)
	_, err := w.Step(ctx, markChart, func(ctx context.Context) (string, error) {
		return v.drawChart(ctx, t, asker, r, thread, approved, log)
	})
	return bot.Settle(err, log, "recording the chart's post failed")
}

// errNoChart is why a chart's step ends unmarked, the work done: the
// person was told why there is no chart, or asked first (spend.go).
var errNoChart = fmt.Errorf("visitors: no chart posted: %w", bot.ErrNoMark)

// drawChart draws the chart and posts it, as Slack's chart or else as an
// image, and returns its mark: "message:" and the chart's ts, or the
// file's id. It returns errNoChart when the person was told why not, or
// Later.
func (v *visitors) drawChart(ctx context.Context, t target, asker slack.SlashCommand, r dateRange, thread string, approved int, log *slog.Logger) (string, error) {
	tell := func(text string) { v.core.ReplyPrivately(ctx, asker, text) }
	tr, err := v.drawTrend(ctx, t, r, chartPay{by: v.spenderOf(ctx, asker), approved: approved}, tell, log)
	if q, ok := errors.AsType[*spendQuestion](err); ok {
		log.Info("asking before a costly chart", "need", q.Need, "spend", q.Spend)
		v.askToSpend(ctx, t, asker, r, thread, q)
		return "", errNoChart
	}
	if err != nil {
		log.Warn("drawing the chart failed", "err", err)
		tell(bot.Describe(err))
		return "", errNoChart
	}
	comment := "Daily unique visitors" + project.Of(t.label()) + ", " + r.Describe() + ", asked by " + mrkdwn.Mention(asker.UserID) + "."
	native := comment
	if r.Today {
		native += " Today (" + r.Last.Format("Jan 2") + ") is still counting: its point, \"so far\", is not a drop in traffic."
	} else if note := r.LeftOutNote(); note != "" {
		native += " " + note
	}
	if note := partialNote(r); note != "" {
		comment += " " + note
	}
	if gaps := tr.gapsText(); gaps != "" {
		comment += " " + gaps
	}
	if m, ok := trendChart(r, tr, t.label(), native); ok {
		switch ts, err := v.postNative(ctx, asker.ChannelID, thread, m); {
		case err == nil:
			log.Info("chart posted as Slack's chart", "ts", ts, "spent", tr.Spent)
			return "message:" + ts, nil
		case errors.Is(err, bot.ErrRichRefused):
			log.Info("Slack refuses its charts here; uploading the chart as an image")
		default:
			return "", v.chartFailed(ctx, err, tell, log)
		}
	}
	png, err := tr.png()
	if err != nil {
		log.Warn("drawing the chart failed", "err", err)
		tell(bot.Describe(err))
		return "", errNoChart
	}
	file, err := v.uploadChart(ctx, t, asker.ChannelID, thread, r, png, comment)
	if err != nil {
		if ctx.Err() != nil {
			// Cut short by the shutdown: handed back (store/doc.go,
			// "Handing back"), not ended with a message it cannot send.
			return "", fmt.Errorf("uploading the chart: %w", err)
		}
		if bot.TransientSlack(err) {
			return "", bot.Later(time.Minute, err)
		}
		log.Warn("uploading the chart failed", "err", err)
		tell(bot.Describe(err))
		return "", errNoChart
	}
	log.Info("chart posted", "file", file, "spent", tr.Spent, "missing", len(tr.Missing))
	return file, nil
}

// postNative posts a chart of Slack's in channel (in thread when not "").
func (v *visitors) postNative(ctx context.Context, channel, thread string, m bot.Rich) (string, error) {
	var extra []slack.MsgOption
	if thread != "" {
		extra = append(extra, slack.MsgOptionTS(thread))
	}
	return v.core.Post(ctx, channel, m, extra...)
}

// chartFailed ends a chart that Slack did not take: tried again later
// when the trouble may pass, else the person is told (errNoChart).
func (v *visitors) chartFailed(ctx context.Context, err error, tell func(string), log *slog.Logger) error {
	if ctx.Err() != nil {
		return fmt.Errorf("posting the chart: %w", err)
	}
	if bot.TransientSlack(err) {
		return bot.Later(time.Minute, err)
	}
	log.Warn("posting the chart failed", "err", err)
	tell(bot.Describe(err))
	return errNoChart
}

// partialNote says how a chart shows its range's end: today drawn apart
// while it is still counting, or left out; "" when the range ended before.
func partialNote(r dateRange) string {
	if r.Today {
		return "Today (" + r.Last.Format("Jan 2") + ") is still counting: its point is drawn dotted and hollow, not a drop in traffic."
	}
	return r.LeftOutNote()
}

// uploadChart uploads png in channel (in thread when not "") with Slack's
// current file upload (files.getUploadURLExternal, the upload, then
// files.completeUploadExternal) and returns the file's id.
func (v *visitors) uploadChart(ctx context.Context, t target, channel, thread string, r dateRange, png []byte, comment string) (string, error) {
	from, _ := r.Params()
	f, err := v.core.SlackIn(ctx).UploadFileContext(ctx, slack.UploadFileParameters{
		Reader:          bytes.NewReader(png),
		FileSize:        len(png),
		Filename:        "docs-visitors-" + fileProject(t.label()) + from + "-" + r.Last.Format(time.DateOnly) + ".png",
		Title:           "Unique visitors per day" + project.OfPlain(t.label()) + ", " + r.String(),
		AltTxt:          "Line chart of the docs' daily unique visitors" + project.OfPlain(t.label()) + ", human and AI, " + r.String(),
		Channel:         channel,
		ThreadTimestamp: thread,
		InitialComment:  comment,
	})
	if err != nil {
		return "", fmt.Errorf("uploading the chart: %w", err)
	}
	return f.ID, nil
}

// trendDrawn is a chart and what it cost.
type trendDrawn struct {
	// Trend is what the chart shows; png draws it.
	Trend insight.Trend
	// Missing are the days drawn as gaps: not cached, and the budget (or the
	// API) did not give them.
	Missing []time.Time
	// Spent is the number of requests sent.
	Spent int
	// FreesIn is when the budget has room again, when days are missing for
	// want of it.
	FreesIn time.Duration
}

// gapsText names the missing days, "" when none is.
func (t *trendDrawn) gapsText() string {
	if len(t.Missing) == 0 {
		return ""
	}
	return "No data yet for " + insight.FormatDays(t.Missing) + " (shown as grey gaps): the analytics budget could not pay for them now. Ask again later to fill them in."
}

// chartPay is who pays for a chart (the zero value: a digest, scheduled)
// and what they agreed to spend.
type chartPay struct {
	by bot.Spender
	// approved is what the person agreed to spend with the Spend button; 0
	// when they were not asked.
	approved int
}

// drawTrend draws the daily unique visitors of r: the days cached for every
// replica (LoadDays) cost nothing; each other day costs one request (limit
// 1), paid from the shared budget before it is sent, and is cached for the
// next chart. A person who would spend more than askAbove, and has not
// approved it, gets a *spendQuestion instead, before anything is spent.
// tell (nil for none) hears the cost before anything is spent, and what is
// left out when the budget cannot cover it all.
func (v *visitors) drawTrend(ctx context.Context, t target, r dateRange, pay chartPay, tell func(string), log *slog.Logger) (*trendDrawn, error) {
	if tell == nil {
		tell = func(string) {}
	}
	dayProject := t.dayProject()
	draw := v.draw(t, pay.by)
	today := daterange.Midnight(v.cfg.Now())
	cached, err := v.store.LoadDays(ctx, dayProject, r.First, r.Last)
	if err != nil {
		log.Warn("reading the day cache failed; fetching every day", "err", err)
		cached = &store.CachedDays{}
		for d := r.First; !d.After(r.Last); d = d.AddDate(0, 0, 1) {
			cached.Missing = append(cached.Missing, d)
		}
	}
	totals, haveTotals := v.rangeTotals(ctx, t, r, today, log)

	// The latest days first: when the budget runs short, the recent past
	// matters most.
	missing := slices.Clone(cached.Missing)
	slices.Reverse(missing)
	need := len(missing)
	if !haveTotals {
		need++
	}
	if err := v.mustAsk(ctx, draw, need, pay); err != nil {
		return nil, err
	}
	want := need
	if pay.approved > 0 {
		want = min(need, pay.approved)
	}
	out := &trendDrawn{}
	tokens, err := v.payForDays(ctx, draw, pay.by, need, want, out, tell)
	if err != nil {
		return nil, err
	}
	days := fetchedDays{today: today, totals: totals, haveTotals: haveTotals}
	defer func() {
		if days.sent < len(tokens) {
			if err := v.store.Refund(context.WithoutCancel(ctx), draw, tokens[days.sent:]); err != nil {
				log.Warn("returning unused analytics budget failed", "err", err)
			}
		}
	}()
	v.fetchDays(ctx, t, r, draw.Budget, len(tokens), missing, &days, log)
	fetched, totals, haveTotals := days.fetched, days.totals, days.haveTotals
	out.Spent = days.sent
	if len(fetched) > 0 {
		if err := v.store.SaveDays(ctx, dayProject, fetched, today, v.cfg.CacheTTL); err != nil {
			log.Warn("caching the days failed", "err", err)
		}
	}
	if days.apiErr != nil {
		log.Warn("fetching days for the chart failed; drawing what is known", "err", days.apiErr, "fetched", len(fetched))
		tell("The docs API failed while docsbot fetched the days: " + bot.Describe(days.apiErr) + " The chart shows what is known.")
	}

	var totalsOf *store.VisitorCounts
	if haveTotals {
		totalsOf = &totals
	}
	if err := out.draw(r, append(cached.Found, fetched...), totalsOf); err != nil {
		return nil, err
	}
	return out, nil
}

// fetchedDays is what fetchDays read of a chart's days from the docs API.
type fetchedDays struct {
	// today is the day the chart is drawn, as the cache keeps it.
	today   time.Time
	fetched []store.DayTotals
	// totals are the range's, read (and cached) when haveTotals was false.
	totals     store.VisitorCounts
	haveTotals bool
	// sent counts the requests sent: the tokens paid for and not sent
	// are given back (drawTrend).
	sent int
	// apiErr is why the fetch stopped before paid spent: nothing more is
	// asked after a failure.
	apiErr error
}

// fetchDays asks the docs API for the missing days, in order, then for the
// range's totals when days lacks them, one request for each of the paid
// tokens at most, and stops at the first failure (noting a rate limit on
// budget). Totals read are cached for every replica.
func (v *visitors) fetchDays(ctx context.Context, t target, r dateRange, budget store.Budget, paid int, missing []time.Time, days *fetchedDays, log *slog.Logger) {
	for _, d := range missing {
		if days.sent == paid {
			break
		}
		days.sent++
		page, err := t.api.Visitors(ctx, docsapi.VisitorsParams{From: d.Format(time.DateOnly), To: d.AddDate(0, 0, 1).Format(time.DateOnly), Limit: 1})
		if err != nil {
			days.apiErr = err
			v.noteRateLimit(ctx, budget, err, log)
			return
		}
		days.fetched = append(days.fetched, store.DayTotals{Date: d, VisitorCounts: counts(page.Totals)})
	}
	if days.haveTotals || days.sent == paid {
		return
	}
	days.sent++
	from, to := r.Params()
	page, err := t.api.Visitors(ctx, docsapi.VisitorsParams{From: from, To: to, Limit: 1})
	if err != nil {
		days.apiErr = err
		v.noteRateLimit(ctx, budget, err, log)
		return
	}
	days.totals, days.haveTotals = counts(page.Totals), true
	if err := v.store.SaveRangeTotals(ctx, t.dayProject(), r.First, r.Last, days.totals, days.today, v.cfg.CacheTTL); err != nil {
		log.Warn("caching the range's totals failed", "err", err)
	}
}

// payForDays takes want requests (of the need the chart costs) from the
// shared budget, or as many as the draw may take (none while the API's rate
// limit blocks it), and tells the person what the chart costs before
// anything is spent. out learns when the budget frees up if it fell short.
func (v *visitors) payForDays(ctx context.Context, draw store.Draw, by bot.Spender, need, want int, out *trendDrawn, tell func(string)) ([]string, error) {
	if want == 0 {
		return nil, nil
	}
	g, err := v.store.Draw(ctx, draw, want)
	if err != nil {
		return nil, dbDown(err)
	}
	refusal := g
	switch {
	case g.OK() || g.Blocked:
	case g.Remaining > 0:
		if part, err := v.store.Draw(ctx, draw, min(g.Remaining, want)); err == nil && part.OK() {
			g = part
		}
	case g.RetryAfter <= 0:
		// More than the draw may ever take, and none left now: say why
		// none is left and when one is back, not that the whole is too much.
		if room, err := v.store.Room(ctx, draw); err == nil {
			refusal = room
		}
	}
	if !refusal.OK() {
		out.FreesIn = refusal.RetryAfter
	}
	tell(v.costText(by, need, len(g.Tokens), g.Remaining, refusal))
	return g.Tokens, nil
}

// draw renders the chart of r from the days known (cached or fetched) and
// the range's own totals (nil when unknown), and lists the days missing.
func (t *trendDrawn) draw(r dateRange, known []store.DayTotals, totals *store.VisitorCounts) error {
	days := make([]insight.DayCounts, 0, len(known))
	for _, d := range known {
		days = append(days, insight.DayCounts{Date: d.Date, Counts: apiCounts(d.VisitorCounts)})
	}
	trend := insight.Trend{First: r.First, Last: r.Last, Days: days, Partial: r.Today}
	if totals != nil {
		c := apiCounts(*totals)
		trend.Totals = &c
	}
	var err error
	t.Trend = trend
	t.Missing, err = insight.MissingDays(r.First, r.Last, days)
	return err
}

// png draws the chart as an image.
func (t *trendDrawn) png() ([]byte, error) { return insight.RenderTrend(t.Trend) }

// rangeTotals returns the unique visitors of the whole range if they are
// known without a request: cached by an earlier chart, or by a summary of
// the range that is fresh (or was fetched once its range was over).
func (v *visitors) rangeTotals(ctx context.Context, t target, r dateRange, today time.Time, log *slog.Logger) (store.VisitorCounts, bool) {
	if c, err := v.store.LoadRangeTotals(ctx, t.dayProject(), r.First, r.Last); err == nil {
		return c, true
	}
	key := t.cacheKey(r)
	c, err := v.store.LoadVisitors(ctx, key)
	if err != nil {
		return store.VisitorCounts{}, false
	}
	if c.Age < v.cfg.CacheTTL || (store.DayClosed(r.Last, today) && v.closedExport(ctx, key, log)) {
		return c.Totals, true
	}
	return store.VisitorCounts{}, false
}

// noteRateLimit blocks the shared budget for as long as a 429 of the docs
// API asks.
func (v *visitors) noteRateLimit(ctx context.Context, budget store.Budget, err error, log *slog.Logger) {
	e, ok := errors.AsType[*docsapi.APIError](err)
	if !ok || e.StatusCode != http.StatusTooManyRequests {
		return
	}
	pause := e.RetryAfter
	if pause <= 0 {
		pause = rateLimitPause
	}
	if err := v.store.BlockBudget(context.WithoutCancel(ctx), budget, pause); err != nil {
		log.Warn("recording the API's rate limit failed", "err", err)
	}
}

// costText tells by, before anything is spent, what a chart costs (need),
// what it spends (granted) and what is left of their part of the budget;
// refusal is the first answer of the budget, which says why it fell short.
func (v *visitors) costText(by bot.Spender, need, granted, left int, refusal store.Grant) string {
	limits := v.core.Analytics()
	switch {
	case granted == need:
		return fmt.Sprintf(":hourglass_flowing_sand: This chart costs %s to the docs API (the days not cached yet); you have %d of your %d analytics requests of this hour left after it.",
			requests(need), left, limits.Share(by))
	case granted == 0:
		return ":hourglass: This chart would cost " + requests(need) + ". " + limits.Refusal(by, refusal, need, time.Now()) + " The chart shows only the days cached."
	}
	why := "what docsbot's budget has left"
	switch refusal.Refused {
	case store.RefusedShare:
		why = fmt.Sprintf("what is left of your share of %d an hour", limits.Share(by))
	case store.RefusedKeep:
		why = fmt.Sprintf("what people may spend before the last %d, kept for the scheduled digests", limits.DigestReserve)
	case store.RefusedNone:
		why = "what you agreed to spend"
	}
	return fmt.Sprintf(":hourglass: This chart would cost %s; it spends %d, %s, on the latest days and shows the rest as gaps.",
		requests(need), granted, why)
}

// requests reads like "1 request", "30 requests".
func requests(n int) string {
	if n == 1 {
		return "1 request"
	}
	return fmt.Sprintf("%d requests", n)
}

// apiCounts is c as the docs API's type.
func apiCounts(c store.VisitorCounts) docsapi.Counts {
	return docsapi.Counts{Human: docsapi.Count(c.Human), AI: docsapi.Count(c.AI), Total: docsapi.Count(c.Total)}
}
