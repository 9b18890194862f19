package health

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Marks of a view's work.
const (
	markPosted = "posted" // the view was shown (in the channel, the DM or privately)
)

// doView answers a /docs-health: it reads the view from the cache or the
// analytics (drawing on the person's share of the organisation's budget for
// what it may spend and giving back the rest), and shows it once, as
// bot.Sight decides for the person and the channel (show).
func (h *health) doView(ctx context.Context, w *bot.Work) error {
	var req request
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding a docs health command: %w", err)
	}
	log := h.log.With("user", req.User, "channel", req.Channel, "view", req.View, "work", w.Key)
	switch {
	case req.Digest != "":
		return h.doDigest(ctx, w, req, log)
	case req.Quality:
		return h.doQuality(ctx, w, req, log)
	}
	if w.Marked(markPosted) != "" {
		return nil
	}
	served, ok := h.projectOf(ctx, req, log)
	if !ok {
		return nil
	}
	p, api := served.Project, HealthAPI(served.API)
	today := daterange.Midnight(w.Received)
	rng, perr := daterange.Parse(req.RangeText, today, false)
	if perr != nil {
		h.tell(ctx, req, "`"+mrkdwn.Escape(perr.Part)+"`: "+perr.Problem, log)
		return nil
	}
	from, to := rng.Params()
	rep, err := h.read(ctx, w, req, p, api, cacheKey(api, req.View, from, to), docsapi.AnalyticsRange{From: from, To: to}, log)
	if err != nil || rep == nil {
		return err
	}
	if req.View == viewSummary || req.View == viewQuestions {
		h.countResolved(ctx, rep, bot.ProjectKey(p), rng, log)
	}
	title := "*Docs health*"
	if k := bot.ProjectKey(p); k != "" {
		title += " of `" + mrkdwn.Escape(k) + "`"
	}
	title += ", " + rng.String() + " · asked by " + mrkdwn.Mention(req.User)
	v := viewShown{text: "Docs health, " + rng.String(), table: hasTable(rep, req.View),
		blocks: func(sight bot.Sight, fixes, tables bool) []slack.Block {
			return renderWith(rep, req.View, title, bot.ProjectKey(p), sight, fixes, tables)
		}}
	if err := h.show(ctx, w, req, v, log); err != nil {
		return err
	}
	if req.View == viewSummary {
		for _, fn := range h.shown {
			fn(ctx, req.Team, req.User, w.Key)
		}
	}
	return nil
}

// viewShown is a view read, to be shown: its text (the notification's),
// and its blocks as sight lets them be shown, with the fix buttons or
// without, its list as a data_table (table: it has one) or not.
type viewShown struct {
	text   string
	blocks func(sight bot.Sight, fixes, tables bool) []slack.Block
	table  bool
}

// show shows the view v to the person who asked req, once, where
// bot.Sight says, with the readers' and the assistant's words only when it
// says Words (and Fix with agent only with them, since a button's value
// carries the evidence):
//
//   - in a channel of members of the organisation only, it is posted in
//     the channel, for everyone there;
//   - in a channel shared with another organisation, or with a guest or
//     a person of another organisation in it (Sight.Private, Sight.Room),
//     it is never posted in the channel. With the words (a member), it is posted
//     in the person's direct message with docsbot, a real message, so that
//     Fix with agent works there and its job starts in that DM's thread,
//     and the person is told privately in the channel that it is there;
//     where the DM cannot be posted, it is told privately in the channel,
//     without the Fix buttons (a job's thread would then be the shared
//     channel's). Without the words (a guest, another organisation's
//     person, who has no buttons to use), it is told privately in the
//     channel (through the command's response_url), which works for people
//     of another organisation too.
func (h *health) show(ctx context.Context, w *bot.Work, req request, v viewShown, log *slog.Logger) error {
	sight := h.core.Sight(ctx, req.User, req.Channel)
	inDM := false
	// The showing is the view's step (markPosted): shown once, and not
	// marked when it could not be (Later, or the person told why).
	_, err := w.Step(ctx, markPosted, func(ctx context.Context) (string, error) {
		switch {
		case !sight.Private:
			return "", h.postView(ctx, w, req, v, sight, log)
		case sight.Words:
			var err error
			inDM, err = h.postInDM(ctx, w, req, v, sight, log)
			return "", err
		}
		h.tellView(ctx, req, v.blocks(sight, false, false), v.text, log)
		return "", nil
	})
	switch {
	case errors.Is(err, bot.ErrUnmarked):
		log.Warn("marking the docs health posted failed", "err", err)
	case errors.Is(err, errNotShown):
		return nil
	case err != nil:
		return err
	}
	if inDM {
		h.tell(ctx, req, "This channel "+sight.Room+", so docsbot sent you the docs health in your messages with it "+
			"(where *Fix with agent* works), not here.", log)
	}
	return nil
}

// errNotShown is why a view's showing ends unmarked: Slack refused its
// post, and the person was told.
var errNotShown = errors.New("health: the view could not be posted")

// postView posts the view in the channel, for everyone there; it returns
// Later while Slack fails for a passing reason, errNotShown (the person
// told) when it refuses.
func (h *health) postView(ctx context.Context, w *bot.Work, req request, v viewShown, sight bot.Sight, log *slog.Logger) error {
	m := bot.Rich{Kind: bot.RichTable, Without: []slack.MsgOption{slack.MsgOptionText(v.text, false),
		slack.MsgOptionBlocks(v.blocks(sight, true, false)...)}}
	if v.table {
		m.With = []slack.MsgOption{slack.MsgOptionText(v.text, false), slack.MsgOptionBlocks(v.blocks(sight, true, true)...)}
	}
	if _, err := h.core.Post(ctx, req.Channel, m); err != nil {
		if bot.TransientSlack(err) {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		log.Warn("posting the docs health failed", "err", err)
		h.tell(ctx, req, "docsbot could not post the docs health here ("+bot.Describe(err)+").", log)
		return errNotShown
	}
	return nil
}

// postInDM posts a member's view asked in a shared channel in their direct
// message with docsbot, with its words and Fix buttons; where the DM
// cannot be opened or posted in, the view is told privately in the channel
// instead, without buttons. inDM reports the first, after which the
// person is told where it is (show).
func (h *health) postInDM(ctx context.Context, w *bot.Work, req request, v viewShown, sight bot.Sight, log *slog.Logger) (inDM bool, err error) {
	blocks := v.blocks(sight, true, false)
	blocks = append(blocks, slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType,
		"You asked in <#"+mrkdwn.Escape(req.Channel)+">, which "+sight.Room+", so the docs health is here, for you alone.", false, false)))
	dm, _, _, err := h.core.SlackIn(ctx).OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{req.User}})
	if err == nil {
		_, err = h.core.Post(ctx, dm.ID, bot.Plain{slack.MsgOptionText(v.text, false), slack.MsgOptionBlocks(blocks...)})
	}
	switch {
	case err != nil && bot.TransientSlack(err):
		return false, bot.Later(bot.RetryDelay(w.Attempt), err)
	case err != nil:
		log.Warn("posting the docs health in the person's DM failed; telling it privately in the channel", "err", err)
		h.tellView(ctx, req, v.blocks(sight, false, false), v.text, log)
		return false, nil
	}
	return true, nil
}

// tellView tells the person a view privately, in the channel where they
// asked (bot.TellPrivately: the response_url first), with its blocks.
func (h *health) tellView(ctx context.Context, req request, blocks []slack.Block, text string, log *slog.Logger) {
	if err := h.core.TellPrivately(ctx, bot.Private{User: req.User, Channel: req.Channel, ResponseURL: req.ResponseURL, Text: text, Blocks: blocks}); err != nil {
		log.Warn("telling the docs health privately failed", "err", err)
	}
}

// read returns the view from the cache, else from the analytics (load) on
// the person's share (bot.Sight.Spender: a guest's is smaller); it tells the
// person when the budget cannot give it or the analytics could not be read
// (a nil report).
func (h *health) read(ctx context.Context, w *bot.Work, req request, p project.Project, api HealthAPI, key string,
	r docsapi.AnalyticsRange, log *slog.Logger) (*report, error) {
	who := h.core.Sight(ctx, req.User, "").Spender(req.Team, req.User)
	got, err := h.load(ctx, p, api, req.View, key, r, who, log)
	switch {
	case err != nil:
		return nil, bot.Later(bot.RetryDelay(w.Attempt), err)
	case got.rep == nil && got.failed != nil:
		h.tell(ctx, req, healthFailure(got.failed), log)
	case got.rep == nil:
		h.tell(ctx, req, h.core.Analytics().Refusal(who, got.refused, got.need, h.cfg.Now()), log)
	}
	return got.rep, nil
}

// cacheKey is the cache's key of a view of api's project over the API's
// dates from (included) to (excluded).
func cacheKey(api HealthAPI, view, from, to string) string {
	return fmt.Sprintf("health:%s:%s:%s..%s", api.ProjectID(), view, from, to)
}

// loaded is what load read: the report, else why there is none.
type loaded struct {
	rep *report
	// age is how old rep is: 0 when just read from the analytics.
	age time.Duration
	// refused is the budget's refusal of need requests.
	refused store.Grant
	need    int
	// failed is why the analytics could not be read.
	failed error
}

// load returns the view from the cache, else from the analytics: it draws
// what the view may spend (plan) for who, and gives back what it did not
// use. Its error is the store's (the budget could not be drawn).
func (h *health) load(ctx context.Context, p project.Project, api HealthAPI, view, key string, r docsapi.AnalyticsRange,
	who bot.Spender, log *slog.Logger) (loaded, error) {
	if c, err := h.store.Analytics.LoadReport(ctx, key); err == nil && c.Age < h.cfg.CacheTTL {
		var rep report
		if json.Unmarshal(c.Data, &rep) == nil {
			return loaded{rep: &rep, age: c.Age}, nil
		}
	}
	need := plan(view, h.cfg.MaxPages)
	draw := h.core.Analytics().Draw(p, who)
	g, err := h.store.Limits.Draw(ctx, draw, need)
	if err != nil {
		return loaded{}, err
	}
	if !g.OK() {
		return loaded{refused: g, need: need}, nil
	}
	rep, used, ferr := fetch(ctx, api, view, r, h.cfg.MaxPages)
	if used < len(g.Tokens) {
		if err := h.store.Limits.Refund(context.WithoutCancel(ctx), draw, g.Tokens[used:]); err != nil {
			log.Warn("giving back unused analytics requests failed", "err", err)
		}
	}
	if ferr != nil {
		log.Warn("reading the docs health failed", "err", ferr)
		return loaded{failed: ferr}, nil
	}
	if data, err := json.Marshal(rep); err == nil {
		if err := h.store.Analytics.SaveReport(ctx, key, data, h.cfg.CacheTTL); err != nil {
			log.Warn("caching the docs health failed", "err", err)
		}
	}
	return loaded{rep: rep}, nil
}

// healthFailure is what the person reads when the analytics could not be read.
func healthFailure(err error) string {
	var api *docsapi.APIError
	switch {
	case errors.Is(err, docsapi.ErrRateLimited):
		wait := time.Duration(0)
		if errors.As(err, &api) {
			wait = api.RetryAfter
		}
		return "The docs API's analytics are rate limited right now. Try again " + humanize.In(wait, time.Now()) + "."
	case errors.As(err, &api):
		return fmt.Sprintf("The docs API could not give the analytics (it answered %d). Try again in a minute.", api.StatusCode)
	}
	return "docsbot could not read the docs site's analytics (" + bot.Describe(err) + "). Try again in a minute."
}

// projectOf is the project req is for and its API: the one named, the
// channel's, the person's last choice; with several and none of those the
// person is told to name one.
func (h *health) projectOf(ctx context.Context, req request, log *slog.Logger) (bot.Served, bool) {
	text := ""
	if req.Project != "" {
		text = "project=" + req.Project
	}
	p, tell := h.core.ProjectsIn(ctx).Choose(ctx, project.Request{Team: req.Team, Channel: req.Channel, User: req.User, Text: text}, "command")
	if tell != "" {
		h.tell(ctx, req, tell, log)
		return bot.Served{}, false
	}
	return p, true
}

// giveUp tells the person their command waited too long.
func (h *health) giveUp(ctx context.Context, w *bot.Work) {
	var req request
	if json.Unmarshal(w.Payload, &req) != nil {
		return
	}
	h.tell(ctx, req, "docsbot could not show the docs health: Slack or its storage was unavailable for too long. Try again.", h.log)
}

// tell tells the person privately.
func (h *health) tell(ctx context.Context, req request, text string, log *slog.Logger) {
	if err := h.core.TellPrivately(ctx, bot.Private{User: req.User, Channel: req.Channel, ResponseURL: req.ResponseURL, Text: text}); err != nil {
		log.Warn("telling the person privately failed", "err", err)
	}
}

// countResolved sets rep's count of the help channels' threads of project
// resolved by experts over rng; a count that cannot be read is left out.
func (h *health) countResolved(ctx context.Context, rep *report, project string, rng daterange.Range, log *slog.Logger) {
	n, err := h.store.HelpChannels.ResolvedCalls(ctx, project, rng.First, rng.Last.AddDate(0, 0, 1))
	if err != nil {
		log.Warn("counting the threads resolved by experts failed; the view leaves them out", "err", err)
		return
	}
	rep.ResolvedByExperts = &n
}
