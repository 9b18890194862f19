package agent

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// Two more ways into the job modal (modal.go): the message shortcut "Send to
// docs agent" on any message, and the "Improve this page" button of the
// visitors summaries (jobdraft.ActionImprovePage). Both answer in the handler,
// without the inbox: the modal must open within the 3 seconds the trigger
// id lives, so it is opened right after the ack and nothing slower comes
// first. The job itself starts from the modal's submission, through the
// inbox.

// ShortcutSendToAgent is the callback id of the message shortcut; the Slack
// app manifest declares it.
const ShortcutSendToAgent = "send_to_docs_agent"

// quotedMax is how much of a message the shortcut reads (Slack markup):
// more than the form's cap (contextShownMax), which cuts a longer message
// and says so.
const quotedMax = 3 * contextShownMax

// namesBound bounds turning the mentions of a message the shortcut was used
// on into names (users.info, cached) before its form opens: the trigger
// lives 3 seconds (modalResolveBound). A name not found in time stays the
// person's id.
const namesBound = 500 * time.Millisecond

// onSendToAgent opens the job modal on the message the shortcut was used
// on, quoted; the job goes in that message's thread. The message goes to
// the agent as plain text with its mentions as names, as the form shows it:
// quoted data when someone other than the editor (or a bot) wrote it. Its
// text files go after it, quoted as data (files.go), within the form's
// context; the form names the files not sent and not read.
func (a *agent) onSendToAgent(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	channel, _, ok := a.editorInteraction(ctx, r, viaShortcut)
	if !ok {
		return
	}
	r.Ack(nil)
	m := ic.Message
	nctx, cancel := context.WithTimeout(ctx, namesBound)
	var by, writer string // writer "": the editor's own message, not quoted
	switch {
	case m.BotID != "" || m.User == "":
		by = "a bot"
		if m.Username != "" {
			by = mrkdwn.Cut(m.Username, 80) + " (bot)"
		}
		writer = "a bot in Slack (" + by + ")"
	case m.User == ic.User.ID:
		by = "@" + a.core.UserName(nctx, m.User) + ", who asks for this job"
	default:
		by = "@" + mrkdwn.Cut(a.core.UserName(nctx, m.User), 80)
		writer = "another person in Slack (" + by + ")"
	}
	// The message's files are read while its mentions are named, within
	// the same bound: a file not read by then is named as not read.
	var files filesRead
	read := make(chan struct{})
	go func() {
		defer close(read)
		files = a.readFiles(nctx, m.Files, func(name string) string { return byFileOf(writer, name) })
	}()
	text := strings.TrimSpace(mrkdwn.Plain(a.namedMentions(nctx, mrkdwn.Cut(m.Text, quotedMax))))
	<-read
	cancel()
	t := modalTarget{
		Team:        ic.Team.ID,
		Channel:     channel,
		ThreadTS:    cmp.Or(m.ThreadTimestamp, m.Timestamp, ic.MessageTs),
		ResponseURL: ic.ResponseURL,
		parts:       append([]contextPart{ours("Context: the Slack message this was asked about, by " + by + ":"), quoted(writer, text)}, files.parts...),
		filesNote:   strings.Join(files.lines(0), "\n"),
	}
	a.openModal(ctx, ic.TriggerID, ic.User.ID, t, "*Message from "+mrkdwn.Escape(by)+"*", "")
}

// onJobFromMessage opens the job modal on a message an editor marked with
// :memo: (jobdraft.ActionJobFromMessage): the message quoted as its writer's,
// as the message shortcut quotes it, or, for a message in a thread with
// replies, the thread as a mention in it passes it on (memoThread); the
// job goes in its thread.
func (a *agent) onJobFromMessage(ctx context.Context, r *bot.InteractionRequest) {
	editor := r.Interaction.User.ID
	a.jobFormFromButton(ctx, r, func(value string, t *modalTarget) (string, string, error) {
		j, err := jobdraft.Parse(value)
		if err == nil {
			err = j.Check(jobdraft.ActionJobFromMessage)
		}
		if err != nil {
			return "", "", err
		}
		nctx, cancel := context.WithTimeout(ctx, namesBound)
		defer cancel()
		by, writer := "a bot", "a bot in Slack"
		switch {
		case j.By == editor:
			by, writer = "@"+a.core.UserName(nctx, j.By)+", who asks for this job", ""
		case j.By != "":
			by = "@" + mrkdwn.Cut(a.core.UserName(nctx, j.By), 80)
			writer = "another person in Slack (" + by + ")"
		}
		t.Channel, t.ThreadTS = j.Channel, j.Thread
		if len(j.Lines) > 0 {
			tr := a.memoThread(nctx, j, editor, by)
			t.parts, _ = tr.parts(contextShownMax)
			return "*Message from " + mrkdwn.Escape(by) + "*, with its thread (" + plural(len(tr.lines)+tr.left, "message") + ")", "", nil
		}
		t.parts = []contextPart{ours("Context: the Slack message this was asked about, by " + by + ":"), quoted(writer, strings.TrimSpace(j.Message))}
		return "*Message from " + mrkdwn.Escape(by) + "*", "", nil
	})
}

// memoThread is the thread a :memo: draft carries (jobdraft.Draft.Lines) as
// a thread read for a job's context: its writers by name (users.info,
// cached, within ctx), bots' marked "(bot)", docsbot's own too; the
// editor's messages plain, everyone else's quoted data (threadRead.parts).
// by names the writer of the message marked.
func (a *agent) memoThread(ctx context.Context, j jobdraft.Draft, editor, by string) threadRead {
	tr := threadRead{what: "the Slack thread of a message by " + by + " that an editor marked with :memo: to make it a docs job", left: j.Left}
	names := map[string]string{}
	for _, l := range j.Lines {
		author := ""
		switch {
		case l.Own:
			author = "docsbot (bot)"
		case l.User == "":
			author = cmp.Or(mrkdwn.Cut(l.Bot, 80), "a bot") + " (bot)"
		default:
			if _, ok := names[l.User]; !ok {
				names[l.User] = mrkdwn.Cut(a.core.UserName(ctx, l.User), 80)
			}
			author = names[l.User]
		}
		if text := strings.TrimSpace(l.Text); text != "" {
			tr.lines = append(tr.lines, threadLine{author: author, text: text, editor: l.User != "" && l.User == editor})
		}
	}
	return tr
}

// jobFormFromButton opens the job modal from a button another feature
// renders (ActionImprovePage, ActionJobFromAnswer, ActionFixDocs), for an
// editor: the job goes in the thread of the button's message unless form
// says otherwise; form reads the button's value into the target (context,
// project) and says what the modal shows about it and its instruction to
// start from. A value it cannot read is told in a notice, unless form
// reports it may go on without it.
func (a *agent) jobFormFromButton(ctx context.Context, r *bot.InteractionRequest,
	form func(value string, t *modalTarget) (about, initial string, err error)) {
	ic := r.Interaction
	channel, log, ok := a.editorInteraction(ctx, r, viaButton)
	if !ok {
		return
	}
	r.Ack(nil)
	value := ""
	if len(ic.ActionCallback.BlockActions) > 0 {
		value = ic.ActionCallback.BlockActions[0].Value
	}
	t := modalTarget{Team: ic.Team.ID, Channel: channel, ThreadTS: cmp.Or(ic.Container.ThreadTs, ic.Container.MessageTs, ic.Message.Timestamp),
		ResponseURL: ic.ResponseURL}
	about, initial, err := form(value, &t)
	if err != nil {
		log.Warn("a button to start a job whose value cannot be read", "err", err)
		a.showNotice(ctx, ic.TriggerID, "docsbot could not read what this button is about. Start the job with `"+Command+"` instead.", log)
		return
	}
	a.openModal(ctx, ic.TriggerID, ic.User.ID, t, about, initial)
}

// onImprovePage opens the job modal about a page of a visitors summary or
// an unfurl, prefilled; the job goes in the summary's thread. A path that
// is not a jobdraft.PlainPath goes to the agent quoted, and the
// instruction only points at it.
func (a *agent) onImprovePage(ctx context.Context, r *bot.InteractionRequest) {
	a.jobFormFromButton(ctx, r, func(value string, t *modalTarget) (string, string, error) {
		p, err := jobdraft.Parse(value)
		if err != nil || p.Path == "" {
			a.log.Warn("improve-page button without a page", "err", err) // the form still opens, unfilled
		}
		figures := fmt.Sprintf("%d unique visitors (%d human, %d AI)", p.Total, p.Human, p.AI)
		if p.Range != "" {
			figures += " over " + p.Range
		}
		if p.Figures != "" {
			figures = p.Figures
		}
		t.Default = p.Project
		about := "*Page* " + mrkdwn.InertMrkdwn(p.Path) + ": " + mrkdwn.Escape(figures)
		if p.Path != "" && !jobdraft.PlainPath(p.Path) {
			t.parts = []contextPart{ours("Context: the docs page whose path is quoted below had " + figures + ", according to the docs site's analytics."),
				quoted(byPath, p.Path)}
			return about, "Improve the page whose path is quoted in the context for the people and AI agents who read it: ", nil
		}
		t.parts = []contextPart{ours("Context: the docs page " + p.Path + " had " + figures + ", according to the docs site's analytics.")}
		return about, "Improve the page " + p.Path + " for the people and AI agents who read it: ", nil
	})
}

// onJobFromAnswer opens the job modal on a question the docs did not answer
// (jobdraft.ActionJobFromAnswer): the question, the assistant's answer and its
// sources go as context, quoted as their writers' words; the instruction
// only points at them. Its job goes in the answer's thread, or, for a
// question posted to the requests channel, in that post's.
func (a *agent) onJobFromAnswer(ctx context.Context, r *bot.InteractionRequest) {
	a.jobFormFromButton(ctx, r, func(value string, t *modalTarget) (string, string, error) {
		j, err := jobdraft.Parse(value)
		if err == nil {
			err = j.Check(jobdraft.ActionJobFromAnswer)
		}
		if err != nil {
			return "", "", err
		}
		t.parts, t.Default = answerContext(j), j.Project
		if j.Channel != "" && j.Thread != "" {
			t.Channel, t.ThreadTS = j.Channel, j.Thread
		}
		if j.Expert {
			return "*A question an expert answered in Slack*", expertInstruction, nil
		}
		return "*A question the docs did not answer*", answerInstruction, nil
	})
}

// answerInstruction is the instruction a job made of a question starts
// from: the question itself is in the context, quoted.
const answerInstruction = "Add to the docs what answers the question quoted in the context."

// expertInstruction is the instruction of Turn this into docs: the
// question and the expert's answer are in the context, quoted.
const expertInstruction = "Add to the docs what the expert's answer quoted in the context says, so that the docs answer the question."

// answerContext is what the agent is told of a question the docs did not
// answer: the question, the assistant's answer and the pages it drew on,
// each quoted as its writer's.
func answerContext(j jobdraft.Draft) []contextPart {
	if j.Expert {
		return []contextPart{ours("Context: someone asked the question quoted below in a help channel, the docs did not answer it, " +
			"and an expert answered it in the thread."), quoted(byAsker, j.Question),
			ours("The expert answered:"), quoted(byExpert, strings.TrimSpace(j.Answer))}
	}
	parts := []contextPart{ours("Context: someone asked the docs assistant the question quoted below, and its answer did not help."),
		quoted(byAsker, j.Question)}
	if j.Answer != "" || len(j.Sources) > 0 {
		answer := j.Answer
		if len(j.Sources) > 0 {
			answer += "\n\nPages it drew on: " + strings.Join(j.Sources, ", ")
		}
		parts = append(parts, ours("The assistant answered:"), quoted(byAssistant, strings.TrimSpace(answer)))
	}
	return parts
}

// onFixDocs opens the job modal on a problem the docs health showed
// (jobdraft.ActionFixDocs): its instruction to start from, the problem and the
// page to change in docsbot's words (a page whose path is not a
// jobdraft.PlainPath quoted, and named nowhere else), the evidence (what
// readers and the assistant wrote) quoted as theirs; the job goes in the
// summary's thread.
func (a *agent) onFixDocs(ctx context.Context, r *bot.InteractionRequest) {
	a.jobFormFromButton(ctx, r, func(value string, t *modalTarget) (string, string, error) {
		f, err := jobdraft.Parse(value)
		if err == nil {
			err = f.Check(jobdraft.ActionFixDocs)
		}
		if err != nil {
			return "", "", err
		}
		quotedPath := f.Path != "" && !jobdraft.PlainPath(f.Path)
		if quotedPath && (strings.Contains(f.Instruction, f.Path) || strings.Contains(f.Problem, f.Path)) {
			// A draft made before paths were checked names it.
			f.Problem, f.Instruction = "readers voted a page down; its path is quoted in the context", jobdraft.PageInstruction
		}
		about := "Context: the docs health showed this problem: " + f.Problem
		if f.Path != "" && !quotedPath {
			about += "\nThe page to change: " + f.Path
		}
		t.parts = []contextPart{ours(about)}
		if quotedPath {
			t.parts = append(t.parts, ours("The page to change, by its path:"), quoted(byPath, f.Path))
		}
		if f.Evidence != "" {
			t.parts = append(t.parts, ours("The evidence, from the docs health (the site's analytics, or the questions asked of docsbot):"), quoted(byDocsHealth, f.Evidence))
		}
		t.Default = f.Project
		return "*Problem:* " + mrkdwn.Escape(mrkdwn.Cut(f.Problem, 300)), f.Instruction, nil
	})
}
