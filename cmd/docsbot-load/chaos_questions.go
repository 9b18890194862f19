package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/docsbot/docsbot/bot"
	botask "github.com/docsbot/docsbot/bot/ask"
	qoutcome "github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
)

// Questions of the chaos run (--questions): while the replicas and Redis
// are killed, people ask docsbot questions its docs assistant answers
// (docsapitest's), each one way:
//
//	/docs-ask in #q-ask, a mention in #q-mention, a post in #q-help (a
//	help channel in auto mode, answered unasked)
//
// and, once its answer shows, do one thing of questionPlans with it: the
// asker's ✅, 👍 then 👎, the asker's 👍 and another's 👎, a handoff (The
// docs don't answer this, then Ask the docs team; Ask an expert in the
// help channel), Ask an expert then the expert's reply and Mark resolved
// (in the help channel; elsewhere a question the docs do not cover), or
// nothing. At the end the run reads every question's thread (answered
// once, doubled, told privately or lost), its outcome record (one, the
// outcome the plan implies by bot/outcome's table) and the quality report
// (outcome.Read: what `docsbot quality` prints), whose counts must be
// those of the records: nothing counted twice across replicas.
//
// A person whose press is not acknowledged sees Slack's error and cannot
// tell what became of it: the question's outcome is then not checked
// (unsure), but its answer and its one record are.

// The channels and people of the questions.
const (
	qAskChannel      = "C0QASK"
	qMentionChannel  = "C0QMENTION"
	qHelpChannel     = "C0QHELP"
	qRequestsChannel = "C0QREQUESTS"
	qExpert          = "U0QEXPERT"
	qOther           = "U0QOTHER"
	// qActTimeout bounds the wait for the ack of a person's press or
	// reaction: Slack's own, and the time a killed replica's work takes to
	// be taken over and a dropped socket to be opened again.
	qActTimeout = 20 * time.Second
	// qWordBackTimeout bounds the wait for docsbot's word back after a
	// press (a thanks, an offer): a press is work, and the work of a
	// replica SIGKILLed while it held it waits for its lease (30 s) before
	// another replica takes it.
	qWordBackTimeout = 50 * time.Second
	// qAnswerTimeout bounds the wait for a question's answer.
	qAnswerTimeout = 90 * time.Second
)

// The ways a question is asked.
const (
	askSlash   = "ask"
	askMention = "mention"
	askHelp    = "help"
)

// The plans: what the asker (and others) do once the answer shows.
const (
	planNone      = "nothing"
	planCheck     = "✅ by the asker"
	planUpDown    = "👍 then 👎 by the asker"
	planUpOther   = "👍 by the asker, 👎 by another"
	planHandoff   = "handoff"
	planExpert    = "expert reply, Mark resolved" // help channel
	planUnsourced = "a question the docs do not cover"
)

var questionPlans = [...]string{planNone, planCheck, planUpDown, planUpOther, planHandoff, planExpert}

// The buttons people press, and what docsbot says when a press could not
// be recorded (bot/ask: feedback.go): keep in step with the bot.
const (
	actFeedback   = botask.ActionFeedback
	actFallsShort = botask.ActionFallsShort
	actAskTeam    = botask.ActionAskTeam
	actAskExpert  = bot.ActionAskExpert
	actResolved   = bot.ActionMarkResolved
	feedbackText  = "could not record your feedback just now"
	// pressAgainText ends what docsbot tells a person whose press it
	// could not record (Redis down; bot.QueuePress).
	pressAgainText = "Press it again in a minute"
)

// chaosQuestion is one question asked, and what was done with it.
type chaosQuestion struct {
	i                int
	how, plan, text  string
	channel, asker   string
	sentAt           time.Time
	envelope         string // /docs-ask's
	ts, eventID      string // the mention's or post's
	thread, answerTS string // the question's thread and its (first) answer
	// unsure: a press or reaction was not acknowledged, or its word back
	// never came: what the person did is not known, so neither is the
	// outcome.
	unsure bool
	// silent counts presses acknowledged with no word back to the person.
	silent int
	why    string
}

// questionAt is question i: how it is asked, its plan, its words. Any six
// questions in a row have every plan, and eighteen every way of asking
// with every plan.
func questionAt(i int) chaosQuestion {
	how := [...]string{askSlash, askMention, askHelp}[i%3]
	plan := questionPlans[(i+i/len(questionPlans))%len(questionPlans)]
	topics := []string{"rotate an API key", "set up webhooks", "install the CLI", "add a custom domain", "handle rate limits"}
	// Ending with "?", a mention is a question (bot.QuestionIn), not a job.
	text := fmt.Sprintf("Question %03d: how do I %s?", i, topics[i%len(topics)])
	if plan == planExpert && how != askHelp {
		plan, text = planUnsourced, fmt.Sprintf("Question %03d: why is the office coffee machine broken again?", i)
	}
	ch := map[string]string{askSlash: qAskChannel, askMention: qMentionChannel, askHelp: qHelpChannel}[how]
	return chaosQuestion{i: i, how: how, plan: plan, text: text, channel: ch, asker: fmt.Sprintf("U0Q%03d", i)}
}

// questionsWorld adds the questions' channels and people to the fake
// Slack and returns the replicas' settings that answer them.
func questionsWorld(r *rig, n int) []string {
	for _, c := range []slacktest.Channel{{ID: qAskChannel, Name: "q-ask"}, {ID: qMentionChannel, Name: "q-mention"},
		{ID: qHelpChannel, Name: "q-help"}, {ID: qRequestsChannel, Name: "q-requests"}} {
		c.BotMember = true
		r.slack.AddChannel(c)
	}
	r.slack.AddUser(qExpert, "expert")
	r.slack.AddUser(qOther, "other")
	for i := range n {
		r.slack.AddUser(questionAt(i).asker, fmt.Sprintf("asker%03d", i))
	}
	return []string{"DOCS_ASSISTANT_KEY=" + r.api.AssistantKey, "DOCS_DOMAIN=" + r.api.Domain, "DOCS_DISCOVERY_URL=" + r.api.DiscoveryURL,
		"DOCSBOT_ANSWER_CHANNELS=" + qHelpChannel + ":auto", "DOCSBOT_EXPERTS=" + qExpert, "DOCSBOT_REQUESTS_CHANNEL=" + qRequestsChannel,
		// The askers are not editors: The docs don't answer this offers
		// them Ask the docs team (an editor is offered a docs job).
		"DOCSBOT_EDITORS=" + loadUser + "," + qExpert,
		fmt.Sprintf("DOCSBOT_AUTO_PER_CHANNEL=%d", 2*n+10), fmt.Sprintf("DOCSBOT_ASK_BUDGET=%d", 4*n+10),
		fmt.Sprintf("DOCSBOT_EXPERT_CALLS_PER_CHANNEL=%d", n+10)}
}

// askQuestions asks n questions spread evenly over span, each in a
// goroutine of its own that then does its plan; wait waits for them all.
func askQuestions(ctx context.Context, r *rig, n int, span time.Duration) (qs []*chaosQuestion, wait func()) {
	var wg sync.WaitGroup
	qs = make([]*chaosQuestion, n)
	every := span / time.Duration(max(n, 1))
	wg.Go(func() {
		for i := range n {
			q := questionAt(i)
			qs[i] = &q
			wg.Go(func() { drive(ctx, r, &q) })
			if !sleep(ctx, every) {
				return
			}
		}
	})
	return qs, func() {
		wg.Wait()
		for i := range qs {
			if qs[i] == nil {
				q := questionAt(i)
				q.why = "not asked before the run ended"
				qs[i] = &q
			}
		}
	}
}

// drive asks q, waits for its answer and does its plan.
func drive(ctx context.Context, r *rig, q *chaosQuestion) {
	sl := r.slack
	q.sentAt = time.Now()
	actx, cancel := context.WithTimeout(ctx, qActTimeout)
	var err error
	switch q.how {
	case askSlash:
		q.envelope, _, err = sl.SendSlashCommand(actx, slacktest.SlashCommand{Command: "/docs-ask", Text: q.text, UserID: q.asker, ChannelID: q.channel})
	case askMention:
		var m slacktest.Mentioned
		m, err = sl.Mention(actx, slacktest.UserMessage{ChannelID: q.channel, UserID: q.asker, Text: q.text})
		q.ts, q.eventID, q.thread = m.TS, m.EventID, m.TS
	default:
		q.ts, q.eventID, err = sl.PostUserMessage(actx, slacktest.UserMessage{ChannelID: q.channel, UserID: q.asker, Text: q.text})
		q.thread = q.ts
	}
	cancel()
	if err != nil && q.envelope == "" && q.ts == "" {
		q.why = "not sent: " + err.Error()
		return
	}
	wctx, cancel := context.WithTimeout(ctx, qAnswerTimeout)
	defer cancel()
	if err := sl.WaitFor(wctx, func() bool { return q.findAnswer(sl) }); err != nil {
		q.why = "no answer seen while the run went on"
		return
	}
	if err := q.follow(ctx, r); err != nil {
		q.unsure, q.why = true, err.Error()
	}
}

// findAnswer looks for q's thread (/docs-ask's: the message docsbot posts
// showing it) and its first whole answer, and reports whether both are
// there.
func (q *chaosQuestion) findAnswer(sl *slacktest.Server) bool {
	if q.thread == "" {
		for _, m := range sl.Messages(q.channel) {
			if m.BotID != "" && strings.Contains(m.Text, q.text) && (m.ThreadTS == "" || m.ThreadTS == m.TS) {
				q.thread = m.TS
				break
			}
		}
		if q.thread == "" {
			return false
		}
	}
	if a := answersIn(sl, q.channel, q.thread); len(a) > 0 {
		q.answerTS = a[0].TS
		return true
	}
	return false
}

// answersIn are docsbot's whole answers in the thread under thread: its
// messages there with the answers' 👍/👎.
func answersIn(sl *slacktest.Server, channel, thread string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range sl.Thread(channel, thread) {
		if m.BotID != "" && m.TS != thread && !m.Streaming && strings.Contains(string(m.Blocks), actFeedback) {
			out = append(out, m)
		}
	}
	return out
}

// follow does q's plan.
func (q *chaosQuestion) follow(ctx context.Context, r *rig) error {
	switch q.plan {
	case planCheck:
		target := q.answerTS
		if q.how == askHelp {
			target = q.ts // ✅ on the question itself
		}
		return q.react(ctx, r, target)
	case planUpDown:
		if err := q.feedback(ctx, r, q.asker, "good"); err != nil {
			return err
		}
		return q.feedback(ctx, r, q.asker, "bad")
	case planUpOther:
		if err := q.feedback(ctx, r, q.asker, "good"); err != nil {
			return err
		}
		return q.feedback(ctx, r, qOther, "bad")
	case planHandoff:
		if q.how == askHelp {
			_, err := q.askExpert(ctx, r)
			return err
		}
		return q.askTeam(ctx, r)
	case planExpert:
		call, err := q.askExpert(ctx, r)
		if err != nil {
			return err
		}
		pctx, cancel := context.WithTimeout(ctx, qActTimeout)
		defer cancel()
		if _, _, err := r.slack.PostUserMessage(pctx, slacktest.UserMessage{ChannelID: q.channel, UserID: qExpert, ThreadTS: q.thread,
			Text: "Settings, Keys, Rotate: the old key works for a day."}); err != nil {
			// Slack has the reply whatever became of its event: Mark
			// resolved reads the thread.
			r.log.Info("chaos: an expert's reply not acknowledged", "question", q.i, "err", err)
		}
		return q.press(ctx, r, q.asker, call, actResolved, "")
	}
	return nil
}

// react adds the asker's ✅ to ts.
func (q *chaosQuestion) react(ctx context.Context, r *rig, ts string) error {
	actx, cancel := context.WithTimeout(ctx, qActTimeout)
	defer cancel()
	if err := r.slack.React(actx, q.asker, q.channel, ts, "white_check_mark"); err != nil {
		return fmt.Errorf("the ✅ not acknowledged: %w", err)
	}
	return nil
}

// press has user press actionID (value) on the message ts of q's channel.
func (q *chaosQuestion) press(ctx context.Context, r *rig, user, ts, actionID, value string) error {
	actx, cancel := context.WithTimeout(ctx, qActTimeout)
	defer cancel()
	if _, err := r.slack.Act(actx, slacktest.Action{UserID: user, ChannelID: q.channel, MessageTS: ts, ActionID: actionID, Value: value}); err != nil {
		return fmt.Errorf("%s by %s not acknowledged: %w", actionID, user, err)
	}
	return nil
}

// feedback has user press 👍 (good) or 👎 (bad) on q's answer and wait
// for docsbot's word back; told that it could not be recorded (Redis
// down), they press again a little later, as they are asked to.
func (q *chaosQuestion) feedback(ctx context.Context, r *rig, user, value string) error {
	for try := 0; ; try++ {
		before := len(r.slack.Ephemerals(user))
		if err := q.press(ctx, r, user, q.answerTS, actFeedback, value); err != nil {
			return err
		}
		var said string
		wctx, cancel := context.WithTimeout(ctx, qWordBackTimeout)
		err := r.slack.WaitFor(wctx, func() bool {
			for _, m := range r.slack.Ephemerals(user)[before:] {
				if m.Channel == q.channel && (strings.Contains(m.Text, "Thanks") || strings.Contains(m.Text, feedbackText) || strings.Contains(m.Text, pressAgainText)) {
					said = m.Text
					return true
				}
			}
			return false
		})
		cancel()
		switch {
		case err != nil:
			q.silent++
			return fmt.Errorf("%s's %s acknowledged, but no word back", user, value)
		case !strings.Contains(said, feedbackText) && !strings.Contains(said, pressAgainText):
			return nil
		case try >= 5 || !sleep(ctx, 2*time.Second):
			return fmt.Errorf("%s's %s could not be recorded, %d tries", user, value, try+1)
		}
	}
}

// askTeam: The docs don't answer this, then Ask the docs team on the
// offer shown to the asker.
func (q *chaosQuestion) askTeam(ctx context.Context, r *rig) error {
	offer, err := q.pressFor(ctx, r, q.answerTS, actFallsShort, qWordBackTimeout, func(before int) string {
		return q.ephemeralWith(r, before, actAskTeam)
	})
	if err != nil {
		return fmt.Errorf("no %s offered: %w", actAskTeam, err)
	}
	return q.press(ctx, r, q.asker, offer, actAskTeam, "")
}

// askExpert presses Ask an expert under the answer and returns the call
// docsbot posts in the thread (with Mark resolved).
func (q *chaosQuestion) askExpert(ctx context.Context, r *rig) (string, error) {
	call, err := q.pressFor(ctx, r, q.answerTS, actAskExpert, qAnswerTimeout, func(int) string {
		for _, m := range r.slack.Thread(q.channel, q.thread) {
			if m.BotID != "" && strings.Contains(string(m.Blocks), actResolved) {
				return m.TS
			}
		}
		return ""
	})
	if err != nil {
		return "", fmt.Errorf("the experts' call never showed: %w", err)
	}
	return call, nil
}

// pressFor has the asker press actionID on ts and waits up to d for what
// found finds (its ts; found is given the count of the asker's ephemerals
// before the press). Told that the press could not be recorded (Redis
// down), they press again a little later, as they are asked to, up to 5
// times.
func (q *chaosQuestion) pressFor(ctx context.Context, r *rig, ts, actionID string, d time.Duration, found func(before int) string) (string, error) {
	for try := 0; ; try++ {
		before := len(r.slack.Ephemerals(q.asker))
		if err := q.press(ctx, r, q.asker, ts, actionID, ""); err != nil {
			return "", err
		}
		var got string
		told := false
		wctx, cancel := context.WithTimeout(ctx, d)
		err := r.slack.WaitFor(wctx, func() bool {
			if got = found(before); got != "" {
				return true
			}
			told = q.ephemeralSaying(r, before, pressAgainText)
			return told
		})
		cancel()
		switch {
		case err != nil:
			return "", err
		case got != "":
			return got, nil
		case try >= 5 || !sleep(ctx, 2*time.Second):
			return "", fmt.Errorf("%s could not be recorded, %d tries", actionID, try+1)
		}
	}
}

// ephemeralWith is the ts of a message shown to the asker in q's channel,
// after the first before, with the button actionID; "" for none.
func (q *chaosQuestion) ephemeralWith(r *rig, before int, actionID string) string {
	for _, m := range r.slack.Ephemerals(q.asker)[before:] {
		if m.Channel == q.channel && strings.Contains(string(m.Blocks), actionID) {
			return m.TS
		}
	}
	return ""
}

// ephemeralSaying reports whether a message shown to the asker in q's
// channel, after the first before, says text.
func (q *chaosQuestion) ephemeralSaying(r *rig, before int, text string) bool {
	for _, m := range r.slack.Ephemerals(q.asker)[before:] {
		if m.Channel == q.channel && strings.Contains(m.Text, text) {
			return true
		}
	}
	return false
}

// want is the outcome q's plan leads to by the table, and the asker's
// vote; sourced tells whether the answer cited the docs.
func (q *chaosQuestion) want(sourced bool) (o, vote string, othersDown int) {
	base := qoutcome.Open
	if !sourced {
		base = qoutcome.Uncertain
	}
	switch q.plan {
	case planCheck:
		return qoutcome.Resolved, "", 0
	case planUpDown:
		return qoutcome.RatedUnhelpful, store.VoteDown, 0
	case planUpOther:
		return qoutcome.RatedHelpful, store.VoteUp, 1
	case planHandoff:
		return qoutcome.HandedOff, "", 0
	case planExpert:
		return qoutcome.ResolvedByExpert, "", 0
	}
	return base, "", 0
}
