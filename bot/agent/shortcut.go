package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// Two more ways into the job modal (modal.go): the message shortcut "Send to
// docs agent" on any message, and the "Improve this page" button of the
// visitors summaries (bot.ActionImprovePage). Both answer in the handler,
// without the inbox: the modal must open within the 3 seconds the trigger
// id lives, so it is opened right after the ack and nothing slower comes
// first. The job itself starts from the modal's submission, through the
// inbox.

// ShortcutSendToAgent is the callback id of the message shortcut; the Slack
// app manifest declares it.
const ShortcutSendToAgent = "send_to_docs_agent"

// quotedMax is how much of a message the modal quotes and the agent gets.
const quotedMax = 2000

// onSendToAgent opens the job modal on the message the shortcut was used
// on, quoted; the job goes in that message's thread.
func (a *agent) onSendToAgent(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	channel, _, ok := a.editorInteraction(ctx, r, viaShortcut)
	if !ok {
		return
	}
	r.Ack(nil)
	m := ic.Message
	by := mrkdwn.Mention(m.User) // Slack shows the person's name; the start turns it into one
	if m.BotID != "" || m.User == "" {
		by = "a bot"
		if m.Username != "" {
			by = mrkdwn.Escape(m.Username) + " (bot)"
		}
	}
	text := mrkdwn.Cut(m.Text, quotedMax) // Slack markup, shown as Slack shows it
	t := modalTarget{
		Team:        ic.Team.ID,
		Channel:     channel,
		ThreadTS:    cmp.Or(m.ThreadTimestamp, m.Timestamp, ic.MessageTs),
		ResponseURL: ic.ResponseURL,
		Context:     "Context: the Slack message this was asked about, by " + by + ":\n---\n" + text + "\n---",
		Markup:      true,
	}
	about := "*Message from " + by + ":*\n" + quoteMarkup(text)
	a.openModal(ctx, ic.TriggerID, ic.User.ID, t, about, "")
}

// quoteMarkup quotes Slack markup (kept as it is, so mentions and links show)
// line by line.
func quoteMarkup(s string) string {
	return "&gt; " + strings.ReplaceAll(s, "\n", "\n&gt; ")
}

// pageFigures is the value of an "Improve this page" button: a page of the
// docs and its unique visitors over a range.
type pageFigures struct {
	Path  string `json:"path"`
	Human int64  `json:"human"`
	AI    int64  `json:"ai"`
	Total int64  `json:"total"`
	Range string `json:"range"`
	// Project names the docs project of the summary, when the visitors
	// feature says; the modal's project select starts at it.
	Project string `json:"project,omitempty"`
}

// onImprovePage opens the job modal about a page of a visitors summary,
// prefilled; the job goes in the summary's thread.
func (a *agent) onImprovePage(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	channel, log, ok := a.editorInteraction(ctx, r, viaButton)
	if !ok {
		return
	}
	r.Ack(nil)
	var p pageFigures
	if len(ic.ActionCallback.BlockActions) > 0 {
		if err := json.Unmarshal([]byte(ic.ActionCallback.BlockActions[0].Value), &p); err != nil || p.Path == "" {
			log.Warn("improve-page button without a page", "err", err)
		}
	}
	figures := fmt.Sprintf("%d unique visitors (%d human, %d AI)", p.Total, p.Human, p.AI)
	if p.Range != "" {
		figures += " over " + p.Range
	}
	t := modalTarget{
		Team:        ic.Team.ID,
		Channel:     channel,
		ThreadTS:    cmp.Or(ic.Container.ThreadTs, ic.Container.MessageTs, ic.Message.Timestamp),
		ResponseURL: ic.ResponseURL,
		Context:     "Context: the docs page " + p.Path + " had " + figures + ", according to the docs site's analytics.",
		Default:     p.Project,
	}
	about := "*Page* `" + mrkdwn.Escape(p.Path) + "`: " + mrkdwn.Escape(figures)
	a.openModal(ctx, ic.TriggerID, ic.User.ID, t, about, "Improve the page "+p.Path+" for the people and AI agents who read it: ")
}

// onJobFromAnswer opens the job modal on a question the docs did not answer
// (bot.ActionJobFromAnswer): filled with the question, the assistant's
// answer and its sources as context; its job goes in the answer's thread,
// or, for a question posted to the requests channel, in that post's.
func (a *agent) onJobFromAnswer(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	channel, log, ok := a.editorInteraction(ctx, r, viaButton)
	if !ok {
		return
	}
	r.Ack(nil)
	var j bot.AnswerJob
	if len(ic.ActionCallback.BlockActions) > 0 {
		var err error
		if j, err = bot.ParseAnswerJob(ic.ActionCallback.BlockActions[0].Value); err != nil {
			log.Warn("a question made into a job without its question", "err", err)
			a.showNotice(ctx, ic.TriggerID, "docsbot could not read the question of this button. Start the job with `"+Command+"` instead.", log)
			return
		}
	}
	t := modalTarget{Team: ic.Team.ID, Channel: channel, ThreadTS: cmp.Or(ic.Container.ThreadTs, ic.Container.MessageTs, ic.Message.Timestamp),
		ResponseURL: ic.ResponseURL, Context: answerContext(j), Default: j.Project}
	if j.Channel != "" && j.Thread != "" {
		t.Channel, t.ThreadTS = j.Channel, j.Thread
	}
	about := "*Question the docs did not answer:* " + mrkdwn.Escape(mrkdwn.Cut(j.Question, 300))
	a.openModal(ctx, ic.TriggerID, ic.User.ID, t, about, "Add to the docs what answers this question: "+j.Question)
}

// answerContext is what the agent is told of a question the docs did not
// answer: the question, the assistant's answer and the pages it drew on.
func answerContext(j bot.AnswerJob) string {
	var b strings.Builder
	b.WriteString("Context: someone asked the docs assistant \"" + j.Question + "\" and its answer did not help.")
	if j.Answer != "" {
		b.WriteString("\nThe assistant answered: " + j.Answer)
	}
	if len(j.Sources) > 0 {
		b.WriteString("\nIt drew on these pages: " + strings.Join(j.Sources, ", "))
	}
	return b.String()
}

// onFixDocs opens the job modal on a problem the docs health showed
// (bot.ActionFixDocs): its instruction to start from, the evidence as the
// job's context, the page to change; the job goes in the summary's thread.
func (a *agent) onFixDocs(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	channel, log, ok := a.editorInteraction(ctx, r, viaButton)
	if !ok {
		return
	}
	r.Ack(nil)
	var f bot.DocsFix
	if len(ic.ActionCallback.BlockActions) > 0 {
		var err error
		if f, err = bot.ParseDocsFix(ic.ActionCallback.BlockActions[0].Value); err != nil {
			log.Warn("a docs fix without its instruction", "err", err)
			a.showNotice(ctx, ic.TriggerID, "docsbot could not read what this button fixes. Start the job with `"+Command+"` instead.", log)
			return
		}
	}
	about := "Context: the docs health of the docs site showed this problem: " + f.Problem
	if f.Path != "" {
		about += "\nThe page to change: " + f.Path
	}
	if f.Evidence != "" {
		about += "\nThe evidence, from the site's analytics:\n" + f.Evidence
	}
	t := modalTarget{Team: ic.Team.ID, Channel: channel, ThreadTS: cmp.Or(ic.Container.ThreadTs, ic.Container.MessageTs, ic.Message.Timestamp),
		ResponseURL: ic.ResponseURL, Context: about, Default: f.Project}
	a.openModal(ctx, ic.TriggerID, ic.User.ID, t, "*Problem:* "+mrkdwn.Escape(mrkdwn.Cut(f.Problem, 300)), f.Instruction)
}
