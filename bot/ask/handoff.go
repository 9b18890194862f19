package ask

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/store"
)

// When the docs fall short, an answer's "The docs don't answer this"
// button (or its 👎) turns the question into work: an editor is offered
// "Make this a docs job" (jobdraft.ActionJobFromAnswer, the agent's modal filled
// with the question and the answer, the job in the answer's thread);
// anyone else "Ask the docs team", which posts the question in the
// requests channel with "Start a docs job" for the editors there. Without a
// requests channel, others are only thanked.

// answerSources bounds the sources a job made of an answer names.
const answerSources = 5

func (a *answers) onFallsShort(ctx context.Context, r *bot.InteractionRequest) {
	a.core.QueuePress(ctx, r, workFallsShort, "nothing was passed on")
}

// doFallsShort offers the person who says an answer did not help a way to
// have the docs fixed.
func (a *answers) doFallsShort(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error {
	a.offerFix(ctx, ic, a.log.With("user", ic.User.ID, "work", w.Key))
	return nil
}

// offerFix offers the person of ic, privately in the answer's thread, to
// make the question a docs job (an editor) or to ask the docs team.
func (a *answers) offerFix(ctx context.Context, ic slack.InteractionCallback, log *slog.Logger) {
	channel := cmp.Or(ic.Channel.ID, ic.Container.ChannelID)
	threadTS := cmp.Or(ic.Container.ThreadTs, ic.Message.ThreadTimestamp)
	q := bot.Question{Team: ic.Team.ID, Channel: channel, User: ic.User.ID, ThreadTS: threadTS, ResponseURL: ic.ResponseURL}
	if a.core.Refusal(ic.User.ID, channel) != "" || threadTS == "" {
		return
	}
	conv, err := a.store.Conversations.Conversation(ctx, store.ConversationKey{Thread: store.Thread{Team: ic.Team.ID, Channel: channel, TS: threadTS}})
	if err != nil {
		log.Info("no conversation to make a job of", "err", err)
		a.tell(ctx, q, "docsbot no longer has this conversation, so it cannot pass it on. Ask your question again, then try once more.", log)
		return
	}
	j := jobdraft.Draft{Channel: channel, Thread: threadTS, Project: conv.Project, Sources: conv.Sources}
	j.Question, j.Answer = turnAsked(conv, turnOfValue(pressedValue(ic)))
	if j.Question == "" {
		a.tell(ctx, q, "docsbot no longer has the question of this answer (it keeps the latest ones of a conversation), so it cannot pass it on. Ask it again, then try once more.", log)
		return
	}
	if refusal, _ := a.core.Editors().Check(ctx, ic.User.ID, channel, conv.Project); refusal == "" {
		a.tellWith(ctx, q, "Make this question a docs job: the agent gets the question and the answer, and its pull request comes back in this thread.",
			[]slack.Block{slack.NewActionBlock("fix", slack.NewButtonBlockElement(jobdraft.ActionJobFromAnswer, j.Value(),
				slack.NewTextBlockObject(slack.PlainTextType, "Make this a docs job", false, false)).WithStyle(slack.StylePrimary))}, log)
		return
	}
	if a.requestsChannel(ctx) == "" {
		return
	}
	v, _ := json.Marshal(teamRequest{Question: mrkdwn.Cut(j.Question, 1200), Channel: channel, Thread: threadTS, Project: conv.Project})
	a.tellWith(ctx, q, "The docs team can add what is missing: send them your question.",
		[]slack.Block{slack.NewActionBlock("team", slack.NewButtonBlockElement(ActionAskTeam, string(v),
			slack.NewTextBlockObject(slack.PlainTextType, "Ask the docs team", false, false)))}, log)
}

// requestsChannel is where Ask the docs team posts in the workspace ctx
// names: the channel set in Slack, else DOCSBOT_REQUESTS_CHANNEL.
func (a *answers) requestsChannel(ctx context.Context) string {
	return a.core.SetInSlack(ctx).TextOr(bot.SettingRequestsChannel, a.cfg.RequestsChannel)
}

// teamRequest is what "Ask the docs team" carries: the question and the
// answer's thread.
type teamRequest struct {
	Question string `json:"q"`
	Channel  string `json:"c"`
	Thread   string `json:"t"`
	Project  string `json:"p,omitempty"`
}

// teamKeep is how long a question sent to the docs team is remembered,
// so that pressing again does not send it again.
const teamKeep = 90 * 24 * time.Hour

func (a *answers) onAskTeam(ctx context.Context, r *bot.InteractionRequest) {
	a.core.QueuePress(ctx, r, workAskTeam, "your question was not sent to the docs team")
}

// doAskTeam posts the question in the requests channel, with a link to the
// answer and "Start a docs job" for the editors there, and tells the person.
// It posts once per person and question, across replicas
// (store.Limits.Once): a second press is told it was sent already; a post
// that failed is forgotten, so that pressing again tries again. Its steps:
// the question taken (markTeamOnce: an attempt after it posts it), then
// posted (markTeamSent).
func (a *answers) doAskTeam(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error {
	log := a.log.With("user", ic.User.ID, "work", w.Key)
	var req teamRequest
	if len(ic.ActionCallback.BlockActions) == 0 || json.Unmarshal([]byte(ic.ActionCallback.BlockActions[0].Value), &req) != nil || req.Question == "" {
		return nil
	}
	q := bot.Question{Team: ic.Team.ID, Channel: req.Channel, User: ic.User.ID, ThreadTS: req.Thread, ResponseURL: ic.ResponseURL}
	requests := a.requestsChannel(ctx)
	if requests == "" || a.core.Refusal(ic.User.ID, req.Channel) != "" {
		return nil
	}
	once := teamOnce(ic, req)
	_, err := w.Step(ctx, markTeamOnce, func(ctx context.Context) (string, error) {
		first, err := a.store.Limits.OnceBy(ctx, once, w.Key, teamKeep)
		switch {
		case err != nil:
			log.Warn("cannot tell whether this question was sent to the docs team; not sending it", "err", err)
			a.tell(ctx, q, "docsbot could not send your question to the docs team just now (its storage did not answer). Please press again in a minute.", log)
			return "", bot.ErrNoMark
		case !first:
			log.Info("a question sent to the docs team before; not sent again")
			a.tell(ctx, q, "You sent this question to the docs team already, in <#"+requests+">.", log)
			return "", bot.ErrNoMark
		}
		return "", nil
	})
	switch {
	case errors.Is(err, bot.ErrNoMark):
		return nil
	case err != nil:
		log.Warn("the question's share of the docs team was taken, its mark was not written", "err", err) // ErrUnmarked
	}
	sent, err := w.Step(ctx, markTeamSent, func(ctx context.Context) (string, error) {
		link := ""
		if p, err := a.core.SlackIn(ctx).GetPermalinkContext(ctx, &slack.PermalinkParameters{Channel: req.Channel, Ts: req.Thread}); err == nil && mrkdwn.WebURL(p) {
			link = " " + mrkdwn.Link(p, "See the answer")
		}
		text := mrkdwn.Mention(ic.User.ID) + " asked a question the docs did not answer:\n" + mrkdwn.Defuse(mrkdwn.Quote(req.Question)) + "\n" + link
		job := jobdraft.Draft{Question: req.Question, Project: req.Project}
		_, err := a.core.Post(ctx, requests, bot.Plain{slack.MsgOptionText(text, false), slack.MsgOptionBlocks(
			slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil),
			slack.NewActionBlock("fix", slack.NewButtonBlockElement(jobdraft.ActionJobFromAnswer, job.Value(),
				slack.NewTextBlockObject(slack.PlainTextType, "Start a docs job", false, false)).WithStyle(slack.StylePrimary)))})
		if err != nil && bot.TransientSlack(err) {
			return "", bot.Later(bot.RetryDelay(w.Attempt), fmt.Errorf("posting the question to the requests channel: %w", err))
		}
		if err != nil {
			log.Warn("posting the question to the requests channel failed", "err", err)
			if ferr := a.store.Limits.ForgetOnce(context.WithoutCancel(ctx), once); ferr != nil {
				log.Warn("forgetting the question not sent failed; pressing again will say it was sent", "err", ferr)
			}
			a.tell(ctx, q, "docsbot could not post your question to the docs team ("+bot.Describe(err)+"). Press again in a minute, or tell them yourself.", log)
			return "", bot.ErrNoMark
		}
		return "", nil
	})
	if err := bot.Settle(err, log, "the question is posted to the docs team, its mark was not written"); err != nil || sent == "" {
		return err
	}
	a.recordOutcome(ctx, store.OutcomeRef{Team: ic.Team.ID, Channel: req.Channel, TS: req.Thread}, nil, outcome.Event{Kind: outcome.Handoff}, nil, log)
	a.tell(ctx, q, "Sent to the docs team in "+"<#"+requests+">. They can make it a docs job from there.", log)
	return nil
}

// turnAsked is the question and the answer of turn n of conv (1 for its
// first answer), "" when the conversation no longer keeps that turn; n 0
// takes its latest.
func turnAsked(conv store.Conversation, n int) (question, answer string) {
	if n <= 0 {
		n = conv.Answers
	}
	// The turns kept are the latest: the last assistant turn is answer
	// conv.Answers (every answer is kept as a question and its answer).
	m := conv.Answers + 1
	if conv.Answers == 0 { // kept before answers were counted: the latest alone
		m, n = 1, 0
	}
	for i := len(conv.Turns) - 1; i >= 0; i-- {
		t := conv.Turns[i]
		if t.Role != "assistant" {
			continue
		}
		m--
		if m != n {
			continue
		}
		if i > 0 && conv.Turns[i-1].Role == "user" {
			return conv.Turns[i-1].Text, t.Text
		}
		return "", ""
	}
	return "", ""
}

// pressedValue is the value of the button pressed in ic, "" for none.
func pressedValue(ic slack.InteractionCallback) string {
	if len(ic.ActionCallback.BlockActions) == 0 {
		return ""
	}
	return ic.ActionCallback.BlockActions[0].Value
}

// giveUpAskTeam tells the person whose question waited too long for Slack
// that it may not have reached the docs team.
func (a *answers) giveUpAskTeam(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) {
	var req teamRequest
	if len(ic.ActionCallback.BlockActions) == 0 || json.Unmarshal([]byte(ic.ActionCallback.BlockActions[0].Value), &req) != nil {
		return
	}
	if w.Marked(markTeamOnce) != "" && w.Marked(markTeamSent) == "" {
		// Taken and not posted: pressing again sends it.
		if err := a.store.Limits.ForgetOnce(context.WithoutCancel(ctx), teamOnce(ic, req)); err != nil {
			a.log.Warn("forgetting the question not sent failed; pressing again will say it was sent", "err", err)
		}
	}
	q := bot.Question{Team: ic.Team.ID, Channel: req.Channel, User: ic.User.ID, ThreadTS: req.Thread, ResponseURL: ic.ResponseURL}
	a.tell(ctx, q, "Slack was unavailable for too long, so your question may not have reached the docs team. Press *Ask the docs team* again: it is sent once.", a.log)
}

// teamOnce names the one sending of req's question to the docs team by
// the person of ic (store.Limits.Once).
func teamOnce(ic slack.InteractionCallback, req teamRequest) string {
	sum := sha256.Sum256([]byte(req.Question))
	return "ask-team:" + ic.Team.ID + ":" + req.Channel + ":" + req.Thread + ":" + ic.User.ID + ":" + hex.EncodeToString(sum[:8])
}
