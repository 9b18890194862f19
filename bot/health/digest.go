package health

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/digests"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// The digest subcommands.
const (
	digestWeekly = "weekly"
	digestOff    = "off"
	digestStatus = "status"
)

// markTurnedOff marks the work of a `digest off` that removed the
// subscription.
const markTurnedOff = "turned_off"

// DigestEvent is the message metadata event type of a health digest post
// (digests.Kind.Event).
const DigestEvent = "docsbot_health_digest"

// digestKind is the docs health digest as people and Slack know it.
var digestKind = digests.Kind{Name: "docs health digest", Command: Command, Event: DigestEvent}

const (
	// digestWork bounds the reading of a digest's analytics; the claim's
	// lease (digestLease) outlasts it and is renewed right before the post.
	digestWork  = 2 * time.Minute
	digestLease = digestWork + time.Minute
	// digestRetry is how long a posting whose analytics could not be read
	// waits before a replica tries again (within the posting's window).
	digestRetry = 10 * time.Minute
)

// digestHelp is the help of `/docs-health digest`.
func digestHelp(implicit bool) string {
	s := "*Docs health digest:* `" + Command + " digest weekly` posts the week's docs health in this channel (the searches that found nothing, " +
		"the pages voted down, the unanswered questions, with Fix with agent, the help channels' threads resolved by experts, " +
		"and how the questions docsbot answered came out), `" +
		Command + " digest off` stops it, `" + Command + " digest status` says whether this channel gets it and when the next one comes. " +
		"Members of the organisation may subscribe a channel; in a channel shared with another organisation, or with guests in it, the digest shows counts and pages, not readers' words."
	if !implicit {
		s += " Add `project=NAME` to choose the docs project."
	}
	return s
}

// projectName is how people name p in project=NAME: "" for the implicit
// project.
func projectName(p project.Project) string {
	if bot.ProjectKey(p) == "" {
		return ""
	}
	return p.Name
}

// doDigest carries out `digest weekly|off|status` for req's channel and
// project, once for the work w: a change is announced in the channel and
// audited, the status told privately. Only a member of the organisation may
// subscribe a channel (the digest shows readers' words where the channel
// is not shared): a guest's or another organisation's person's `weekly` is
// refused privately and audited; one whose account Slack cannot check just
// now is told to try again (a "not now", not a refusal).
func (h *health) doDigest(ctx context.Context, w *bot.Work, req request, log *slog.Logger) error {
	var sight bot.Sight
	switch req.Digest {
	case digestWeekly, digestOff:
		// A channel's digest is changed by members of the organisation
		// alone (a subscription shows readers' words where they may).
		if sight = h.core.Sight(ctx, req.User, req.Channel); !sight.Member {
			h.refuseDigest(ctx, w, req, sight, log)
			return nil
		}
	}
	served, ok := h.projectOf(ctx, req, log)
	if !ok {
		return nil
	}
	p := served.Project
	name := projectName(p)
	key := bot.ProjectKey(p)
	of, arg := project.Of(name), project.Arg(name)
	sched, now := digests.New(h.core).ScheduleIn(ctx, h.cfg.Digest), h.cfg.Now()
	failed := func(err error) error {
		if store.Temporary(err) {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		log.Warn("changing the health digest failed", "err", err)
		h.tell(ctx, req, "docsbot could not change the docs health digest: its storage failed. Try again in a minute.", log)
		return nil
	}
	switch req.Digest {
	case digestWeekly:
		sub := store.DigestSub{Team: req.Team, Channel: req.Channel, Project: key, Frequency: digestWeekly, CreatedBy: req.User, CreatedAt: now,
			Enterprise: bot.WorkspaceOf(ctx).Enterprise}
		if err := h.store.Digests.SubscribeDigest(ctx, sub); err != nil {
			return failed(err)
		}
		shared := ""
		if sight.Private {
			shared = " This channel " + sight.Room + ", so the digest shows counts and pages, not readers' comments, searches and questions."
		}
		h.announce(ctx, w, req, fmt.Sprintf(":calendar: %s subscribed this channel to the weekly docs health digest%s: %s. The first one comes %s. "+
			"docsbot posts it itself, so it must be in the channel (`/invite @docsbot`). `%s digest off%s` stops it.%s",
			mrkdwn.Mention(req.User), of, sched.Text(digest.Weekly), sched.NextText(digest.Weekly, now), Command, arg, shared), log)
	case digestOff:
		had, err := h.store.Digests.UnsubscribeDigest(ctx, req.Team, req.Channel, key)
		if err != nil {
			return failed(err)
		}
		// An attempt after one that removed the subscription finds none:
		// the mark says this work turned it off.
		if had {
			if _, err := w.Step(ctx, markTurnedOff, noStep); err != nil {
				log.Warn("marking the health digest turned off failed", "err", err)
			}
		}
		if !had && w.Marked(markTurnedOff) == "" {
			h.tell(ctx, req, "This channel has no docs health digest"+of+", so there was nothing to turn off.", log)
			return nil
		}
		h.announce(ctx, w, req, ":calendar: "+mrkdwn.Mention(req.User)+" turned off the docs health digest"+of+" in this channel.", log)
	case digestStatus:
		sub, err := h.store.Digests.DigestSub(ctx, req.Team, req.Channel, key)
		switch {
		case errors.Is(err, store.ErrNotFound):
			h.tell(ctx, req, fmt.Sprintf("This channel has no docs health digest%s. `%s digest weekly%s` starts one; it is posted %s.",
				of, Command, arg, sched.Text(digest.Weekly)), log)
		case err != nil:
			return failed(err)
		default:
			f := digest.Frequency(sub.Frequency)
			h.tell(ctx, req, fmt.Sprintf("This channel gets the %s docs health digest%s, %s; the next one comes %s. %s subscribed it on %s. `%s digest off%s` stops it.",
				mrkdwn.Escape(sub.Frequency), of, sched.Text(f), sched.NextText(f, now), mrkdwn.Mention(sub.CreatedBy),
				sub.CreatedAt.Format("Jan 2, 2006"), Command, arg), log)
		}
		return nil
	}
	h.core.Audit().Work(ctx, w, "audited", store.AuditRecord{Team: req.Team, Channel: req.Channel, User: req.User, Project: key,
		Action: store.AuditSettings, Outcome: "ok", Detail: "health digest " + req.Digest})
	return nil
}

// noStep is a step that only marks: the mark itself is what later attempts
// read.
func noStep(context.Context) (string, error) { return "", nil }

// refuseDigest tells a person whose sight leaves readers' words out that
// they may not subscribe the channel (audited once), or, when Slack could
// not say who they are, to try again.
func (h *health) refuseDigest(ctx context.Context, w *bot.Work, req request, sight bot.Sight, log *slog.Logger) {
	text := "Only members of the organisation may subscribe a channel to the docs health digest: it shows what readers wrote " +
		"(their comments, searches and questions). Ask a member of the organisation in this channel to subscribe it."
	switch {
	case !sight.Outsider && !sight.Member:
		text = "docsbot could not check your account with Slack just now, so it did not change this channel's docs health digest. Try again in a minute."
	case req.Digest == digestOff:
		text = "Only members of the organisation may turn off a channel's docs health digest. Ask a member of the organisation in this channel."
	}
	_, err := w.Step(ctx, markPosted, func(ctx context.Context) (string, error) {
		h.tell(ctx, req, text, log)
		return "", nil
	})
	if err != nil {
		log.Warn("marking the health digest's refusal told failed", "err", err)
	}
	if sight.Outsider {
		h.core.Audit().Work(ctx, w, "audited", bot.RefusalRecord(req.Team, req.Channel, req.User, Command+" digest "+req.Digest, ""))
	}
}

// announce says a change of the channel's digest in the channel, through
// the command's response_url, once for the work w; where Slack does not
// take it there, the person is told privately.
func (h *health) announce(ctx context.Context, w *bot.Work, req request, text string, log *slog.Logger) {
	_, err := w.Step(ctx, markPosted, func(ctx context.Context) (string, error) {
		err := h.core.Respond(ctx, slack.SlashCommand{ResponseURL: req.ResponseURL}, bot.Reply(&slack.WebhookMessage{ResponseType: slack.ResponseTypeInChannel, Text: text}))
		if err != nil {
			log.Warn("announcing the health digest's change in the channel failed; telling the person", "err", err)
			h.tell(ctx, req, text, log)
		}
		return "", nil
	})
	if err != nil {
		log.Warn("marking the health digest's change announced failed", "err", err)
	}
}

// digestFeed is the docs health digest as the core's digest loop posts it
// (bot.Digests.Register): weekly subscriptions, each of the project it
// names.
func (h *health) digestFeed() digests.Feed {
	return digests.Feed{Kind: digestKind, Noun: "health digest", Subs: h.store.Digests, Frequencies: []digest.Frequency{digest.Weekly},
		Schedule: h.cfg.Digest, Now: h.cfg.Now, Tick: h.cfg.DigestTick, Lease: digestLease, Log: h.log, Target: h.digestOf}
}

// digestOf is what sub's digest is of at this posting: the project it
// names, served when docsbot serves it.
func (h *health) digestOf(sub store.DigestSub) digests.Target {
	p, served := h.core.Project(sub.Project)
	return digests.Target{Key: sub.Project, Name: projectName(p.Project), Served: served,
		Make: func(ctx context.Context, post digests.Posting) { h.postDigest(ctx, post, p.Project, p.API) }}
}

// postDigest reads the week of slot as scheduled work (the digests' reserve
// of the analytics budget, the cache people's views share) and posts it
// with its Fix with agent buttons, once (bot.Digests.Post); in a channel
// shared with another organisation or with guests in it (bot.Sight of no
// person, asked at each posting), with counts and paths only and no
// buttons. A budget with no
// room or analytics that could not be read hand the posting back, due again
// when the budget has room or after digestRetry; when that try would come
// only after the posting's window, the week is skipped and the subscriber
// told instead (bot.Digests.HandBack).
func (h *health) postDigest(ctx context.Context, post digests.Posting, p project.Project, api HealthAPI) {
	slot := post.Slot
	wctx, cancel := context.WithTimeout(ctx, digestWork)
	defer cancel()
	rng := daterange.Range{First: slot.First, Last: slot.Last}
	from, to := rng.Params()
	got, err := h.load(wctx, p, api, viewSummary, cacheKey(api, viewSummary, from, to), docsapi.AnalyticsRange{From: from, To: to}, bot.Spender{}, post.Log)
	switch {
	case err != nil:
		digests.New(h.core).HandBack(ctx, post, digests.Failure{Why: "drawing on the analytics budget failed", Err: err,
			Missed: "docsbot could not draw on the analytics budget (its storage failed)"})
		return
	case got.failed != nil:
		missed := digests.MissedAnalytics
		if errors.Is(got.failed, docsapi.ErrRateLimited) {
			missed = digests.MissedRateLimited
		}
		digests.New(h.core).HandBack(ctx, post, digests.Failure{Why: "reading the health digest's analytics failed", Err: got.failed,
			Missed: missed, After: digestRetry})
		return
	case got.rep == nil:
		wait := got.refused.RetryAfter
		if wait <= 0 {
			wait = digestRetry
		}
		digests.New(h.core).HandBack(ctx, post, digests.Failure{Why: "the analytics budget has no room for the health digest",
			Missed: digests.MissedBudget, After: wait})
		return
	}
	// The help channels' threads resolved by experts that week, a count for
	// everyone, read from the store at each posting (left out when it
	// cannot be read).
	h.countResolved(wctx, got.rep, bot.ProjectKey(p), rng, post.Log)
	name := projectName(p)
	title := "*Weekly docs health digest*" + project.Of(name) + ", " + rng.String()
	// Decided at each posting: a channel shared with another organisation
	// since it was subscribed gets the counts and pages only.
	blocks := render(got.rep, viewSummary, title, bot.ProjectKey(p), h.core.Sight(wctx, "", post.Sub.Channel), true)
	blocks = append(blocks, h.qualityDigest(wctx, post.Sub.Team, bot.ProjectKey(p), rng, post.Log)...)
	blocks = append(blocks, slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType,
		fmt.Sprintf("`%s%s` shows the last 30 days · `%s digest off%s` stops this digest", Command, project.Arg(name), Command, project.Arg(name)), false, false)))
	digests.New(h.core).Post(wctx, post, slack.MsgOptionText("Weekly docs health digest"+project.OfPlain(name)+", "+rng.String(), false), slack.MsgOptionBlocks(blocks...))
}
