package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// Jobs started by a mention or a DM. The person's message is the thread's
// parent: the bot's root message (the job's live status) is posted as the
// first reply in its thread, and the job is linked to that thread, so the
// person's later replies there are follow-ups, with or without a mention. A
// mention in a thread that is not a job's starts a job in that thread, with
// the thread's messages as context (threadcontext.go).

// markStarting records that a post started a job: its start work is queued
// under "start:" + the post's key. A later attempt queues it again (a no-op
// once recorded) instead of taking the post for a follow-up of that job.
const markStarting = "starting"

// The words a mention (or a top-level DM) may be instead of an instruction.
const (
	wordList = "list"
	wordHelp = "help"
)

// commandWord returns wordList or wordHelp when text is one of them (or
// empty, which asks for help), wordStatus for "status <job id>", and ""
// otherwise.
func commandWord(text string) string {
	switch w := strings.ToLower(strings.Trim(text, " .!?`")); w {
	case "", wordHelp:
		return wordHelp
	case wordList:
		return wordList
	}
	if word, arg, _ := strings.Cut(text, " "); strings.EqualFold(word, wordStatus) && isJobID(arg) {
		return wordStatus
	}
	return ""
}

// askedJob is the job id of "status <job id>", "" for anything else.
func askedJob(text string) string {
	if commandWord(text) != wordStatus {
		return ""
	}
	_, id, _ := strings.Cut(text, " ")
	return id
}

// doAddressed acts on a post addressed to the bot that is neither a
// follow-up nor a question (the answers own those: bot/posts.go): a
// top-level mention or DM, a mention in a thread that is not a job's, or a
// reply in a DM thread without a job. It answers help and list, and
// otherwise queues the start of a job in the post's thread (queueStart).
func (a *agent) doAddressed(ctx context.Context, w *bot.Work, r replyRequest, log *slog.Logger) error {
	if refusal := a.core.Refusal(r.User, r.Channel); refusal != "" {
		a.tellInThread(ctx, a.replyPlace(r), refusal, log)
		a.auditWork(ctx, w, bot.RefusalRecord(r.Team, r.Channel, r.User, viaPost, r.Text))
		return nil
	}
	if done, err := a.answerWords(ctx, w, r, log); done || err != nil {
		return err
	}
	if w.Marked(markStarting) == "" {
		// Viewers may ask for help and lists; starting a job takes an editor.
		if refusal := a.core.Editors().Refusal(ctx, r.User, r.Channel, ""); refusal != "" {
			a.tellInThread(ctx, a.replyPlace(r), refusal, log)
			a.auditWork(ctx, w, bot.RefusalRecord(r.Team, r.Channel, r.User, viaPost, r.Text))
			return nil
		}
	}
	return a.queueStart(ctx, w, r, log)
}

// answerWords answers a top-level post or a mention that is one of the
// words the agent answers itself (help, list, status) or names no project
// right; it reports whether it did.
func (a *agent) answerWords(ctx context.Context, w *bot.Work, r replyRequest, log *slog.Logger) (bool, error) {
	if r.InThread() && !r.Mention {
		return false, nil
	}
	listed, listProject, problem := listWords(r.Text, a.core.ProjectsIn(ctx).Set)
	if problem != "" {
		a.tellInThread(ctx, a.replyPlace(r), problem, log)
		return true, nil
	}
	switch commandWord(listed) {
	case wordHelp:
		if listed != "" || listed == r.Text {
			a.tellInThread(ctx, a.replyPlace(r), agentHelp(a.core.ProjectsIn(ctx).Set, a.answersOn()), log)
			return true, nil
		}
	case wordList, wordStatus:
		return true, a.answerList(ctx, w, listRequest{Team: r.Team, Channel: r.Channel, User: r.User, ThreadTS: a.replyPlace(r).ThreadTS, JobID: askedJob(listed), Project: listProject})
	}
	return false, nil
}

// queueStart queues the start of a job in the post's thread (agent.start
// keyed by the post), with the thread as context when the post is a reply,
// once the thread's start claim is the post's (startclaim.go: a post that
// finds another start under way waits to be its follow-up). markStarting,
// written before the start is queued, makes a later attempt queue it again
// (a no-op once recorded) rather than claim anything anew.
func (a *agent) queueStart(ctx context.Context, w *bot.Work, r replyRequest, log *slog.Logger) error {
	req := startRequest{Team: r.Team, Channel: r.Channel, User: r.User, Prompt: r.Text, ThreadTS: cmp.Or(r.ThreadTS, r.TS), Origin: r.TS, Project: r.Project}
	var passed threadPassed
	if r.InThread() {
		var err error
		if passed, err = a.passThread(ctx, w, r, &req, log); err != nil {
			return err
		}
	}
	// The post's text files go after the thread, as quoted data (files.go).
	files := a.readAttached(ctx, r.Attached)
	if files.Context != "" {
		req.Context = strings.TrimSpace(req.Context + "\n\n" + files.Context)
	}
	// The thread's start claim, then markStarting (a later attempt skips
	// both and queues the start again, a no-op once recorded).
	thread := store.Thread{Team: r.Team, Channel: r.Channel, TS: req.ThreadTS}
	_, err := w.Step(ctx, markStarting, func(ctx context.Context) (string, error) {
		return "", a.store.ClaimStart(ctx, thread, startOwner(w.Key), startClaimTTL)
	})
	switch {
	case errors.Is(err, store.ErrStartHeld) || errors.Is(err, store.ErrConflict):
		log.Info("another job start in this thread is under way; this post waits to be its follow-up")
		if _, err := w.Step(ctx, markWaiting, func(context.Context) (string, error) { return "", nil }); err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		return a.awaitStart(ctx, w, r, thread, log)
	case err != nil:
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	payload, _ := json.Marshal(req)
	queued, err := a.core.QueueFromWork(ctx, store.Work{Key: startOwner(w.Key), Kind: workStart, Payload: payload})
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if queued {
		log.Info("job start queued", "context", req.Context != "", "messages", passed.Messages, "others", len(passed.Others), "left_out", passed.Left)
		if note := passed.note(); note != "" {
			a.tellInThread(ctx, r, note, log)
		}
		a.noteAttached(ctx, w, r, files.Note, log)
	}
	return nil
}

// passThread reads the thread of a reply into req's context. A thread
// Slack cannot show for good starts the job without it, saying so; one
// whose own job may still be starting (a pending root message) is looked
// at again shortly, since the post would be that job's follow-up.
func (a *agent) passThread(ctx context.Context, w *bot.Work, r replyRequest, req *startRequest, log *slog.Logger) (threadPassed, error) {
	tc, err := a.readThread(ctx, r)
	if err != nil {
		if bot.TransientSlack(err) {
			return threadPassed{}, bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		log.Warn("cannot read the thread; starting the job without its context", "err", err)
		a.tellInThread(ctx, r, "docsbot could not read this thread ("+bot.Describe(err)+"), so the agent gets your instruction without the thread's messages.", log)
	}
	if w.Marked(markStarting) == "" && tc.pending && startMayBeUnderWay(r.ThreadTS, w.Attempt) {
		return threadPassed{}, bot.Later(bot.RetryDelay(w.Attempt), store.ErrNotFound)
	}
	var passed threadPassed
	req.Context, passed = tc.render(threadContextCap)
	if err == nil {
		req.Seen = r.TS
		if tsBefore(r.TS, tc.last) {
			req.Seen = tc.last
		}
	}
	return passed, nil
}

// replyPlace is where a private answer to a post goes: its thread, or the
// channel itself for a top-level mention in a channel (a DM's answer goes in
// the thread of the person's message).
func (a *agent) replyPlace(r replyRequest) replyRequest {
	if !r.InThread() && !r.DM {
		r.ThreadTS = ""
	} else {
		r.ThreadTS = cmp.Or(r.ThreadTS, r.TS)
	}
	return r
}

// rootTS is the ts of a job's root message: Job.Root when the root is a
// reply in the thread, else the thread's parent.
func rootTS(j *store.Job) string { return cmp.Or(j.Root, j.Thread.TS) }

// inJobThread checks, before a start posts its root message in an existing
// thread (a modal's), that the thread is not a job's already: one thread
// follows one job. It reports whether the start ends here (the person was
// told to reply in the thread instead).
func (a *agent) inJobThread(ctx context.Context, w *bot.Work, req startRequest, log *slog.Logger) (bool, error) {
	job, err := a.store.JobByThread(ctx, req.thread(""))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return false, nil
	case err != nil:
		return false, bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	log.Info("start asked for in a job's thread; not started", "job", job.ID)
	a.tell(ctx, req, "", "This thread already follows docs agent job `"+mrkdwn.Escape(job.ID)+"`: reply in the thread to send it a follow-up instead. Nothing new was started.", log)
	return true, nil
}
