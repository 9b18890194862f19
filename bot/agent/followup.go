package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// reactionAccepted marks a thread reply that went to the agent.
const reactionAccepted = "eyes"

// refusedKeep is how long a person told that their replies in a job's thread
// are not sent is not told again there: as long as the store keeps the job.
const refusedKeep = store.Retention

// Marks a follow-up records as it goes, for an attempt after a crash.
const (
	markSending = "sending" // the follow-up is about to be sent to the API
	markSent    = "sent"    // the API took it
	markSaved   = "saved"   // the store followed the job again (written by earlier versions; FollowUp is idempotent by the work's key, so no longer written)
	markShown   = "shown"   // a modal's follow-up was shown in the thread
	markRetry   = "retry"   // the retry offer taken: the start's payload, to queue
	markFiles   = "files"   // the person was told the post's files are not passed on
)

// doModalFollowUp sends a follow-up typed in the follow-up modal
// (agent.followup work) to the thread's job and follows the job again
// (replyInJobThread); a thread that no longer follows a job is told so.
func (a *agent) doModalFollowUp(ctx context.Context, w *bot.Work) error {
	var r replyRequest
	if err := json.Unmarshal(w.Payload, &r); err != nil {
		return fmt.Errorf("decoding a follow-up: %w", err)
	}
	log := a.postLog(w, r)
	thread := store.Thread{Team: r.Team, Channel: r.Channel, TS: r.ThreadTS}
	job, err := a.store.JobByThread(ctx, thread)
	if errors.Is(err, store.ErrNotFound) {
		a.tellInThread(ctx, r, "docsbot no longer follows a job in this thread, so this was not sent. Start a new job with `"+Command+"`.", log)
		return nil
	}
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return a.replyInJobThread(ctx, w, r, thread, job, log)
}

// replyInJobThread handles the post r in the thread of job: a follow-up,
// unless it reached the job with its start, is a "retry" asked twice, or
// comes from someone who may not edit the job's project.
func (a *agent) replyInJobThread(ctx context.Context, w *bot.Work, r replyRequest, thread store.Thread, job *store.Job, log *slog.Logger) error {
	log = log.With("job", job.ID)
	if a.inJobContext(ctx, r, job, log) {
		return nil
	}
	if isRetryWord(r.Text) && job.Generation == 1 {
		if _, err := a.store.TakeRetry(ctx, thread); errors.Is(err, store.ErrTaken) {
			a.tellInThread(ctx, r, "This job was started again already; there is no need to ask twice.", log)
			return nil
		}
	}
	if a.refuseFollowUp(ctx, w, r, job, log) {
		return nil
	}
	return a.sendFollowUp(ctx, w, r, job, log)
}

// refuseFollowUp refuses r, privately and audited, when its author may not
// edit the job's project; it reports whether it did. Every way a post
// reaches a job as its follow-up (a reply in its thread, a mention that
// waited for its start) passes here before anything is sent; an attempt
// that finds the follow-up being sent (markSending) was allowed already.
//
// A plain reply is often people talking among themselves in the thread, so
// its author hears of a refusal once per thread (refusedKeep), and it is
// audited then; a mention, a DM, the follow-up form and a "not now" (Slack
// could not say; the next reply may pass) are answered every time.
func (a *agent) refuseFollowUp(ctx context.Context, w *bot.Work, r replyRequest, job *store.Job, log *slog.Logger) bool {
	if w.Marked(markSending) != "" {
		return false
	}
	refusal, notNow := a.core.Editors().For(roles.ActFollowUps).Check(ctx, r.User, r.Channel, job.Project)
	if refusal == "" {
		return false
	}
	log.Info("follow-up refused: not an editor of the job's project", "not_now", notNow)
	if !notNow && !r.Mention && !r.DM && !r.FromModal {
		first, err := a.store.Once(ctx, "steer-refused:"+r.Team+":"+r.Channel+":"+r.ThreadTS+":"+r.User, refusedKeep)
		if err != nil {
			log.Warn("cannot tell whether the person heard of this refusal in the thread; telling them again", "err", err)
		} else if !first {
			return true // told already in this thread
		}
		refusal = "Your replies in this thread are not sent to the docs agent. " + refusal
	}
	a.tellInThread(ctx, r, refusal, log)
	rec := bot.RefusalRecord(r.Team, r.Channel, r.User, viaFollowUp, r.Text)
	rec.Project = job.Project
	rec.JobID = job.ID
	a.auditWork(ctx, w, rec)
	return true
}

// sendCall is the follow-up's call to the docs API, made once across
// attempts (bot.Work.Paid): sending before, sent after.
var sendCall = bot.Call{Begun: markSending, Done: markSent}

// sendFollowUp sends the post r to the thread's job and follows the job
// again, once: the marks of earlier attempts say how far they got.
func (a *agent) sendFollowUp(ctx context.Context, w *bot.Work, r replyRequest, job *store.Job, log *slog.Logger) error {
	followUp := store.AuditRecord{Team: r.Team, Channel: r.Channel, User: r.User, Action: store.AuditFollowUp,
		Outcome: "ok", JobID: job.ID, Instruction: r.Text, Project: job.Project}
	if w.Marked(markSaved) == "" {
		// uncertain: the reply may or may not have reached the agent. It is
		// never sent again; the job is followed all the same, so that what
		// the agent does next is reported in the thread.
		uncertain, sent, err := a.send(ctx, w, r, job, log)
		if err != nil {
			return err
		}
		if !sent {
			followUp.Outcome = "failed"
			a.auditWork(ctx, w, followUp)
			return nil
		}
		a.showModalFollowUp(ctx, w, r, log)
		var updated *store.Job
		err = bot.Retry(ctx, log, "saving the follow-up", func() error {
			var err error
			updated, err = a.store.FollowUp(ctx, *job, w.Key, a.cfg.PollInterval)
			return err
		})
		if err != nil {
			a.tellInThread(ctx, r, "The agent got this reply, but docsbot could not save it and may not report the result. Follow the job in your docs dashboard.", log)
			return nil
		}
		log.Info("follow-up sent", "generation", updated.Generation, "uncertain", uncertain != "")
		a.metrics.FollowUp()
		a.nudgePoller()
		a.working(ctx, updated, docsapi.Status(job.Status), log)
		a.jobChanged(ctx, *updated)
		job = updated
		if uncertain != "" {
			a.tellInThread(ctx, r, "docsbot cannot tell whether this reply reached the agent: "+uncertain+", and it does not send a reply twice. "+
				"It follows the job again and posts what the job does next in this thread; if that does not answer your reply, send it again.", log)
			followUp.Outcome = "unknown"
			a.auditWork(ctx, w, followUp)
			a.updateRoot(ctx, r.Channel, rootTS(job), jobView(job), log)
			return nil
		}
	}
	a.auditWork(ctx, w, followUp)
	if r.TS != "" {
		a.core.Decorations().React(ctx, r.Channel, r.TS, reactionAccepted, nil, log)
	}
	a.updateRoot(ctx, r.Channel, rootTS(job), jobView(job), log)
	return nil
}

// send makes the follow-up's call once (sendCall). It reports whether the
// reply was sent or may have been (uncertain says why the outcome is
// unknown: an earlier attempt stopped while sending it, or the API did not
// confirm it); not sent, the person was told why. An error is Later: the
// call was not made.
func (a *agent) send(ctx context.Context, w *bot.Work, r replyRequest, job *store.Job, log *slog.Logger) (uncertain string, sent bool, err error) {
	if _, err := w.Outcome(sendCall); errors.Is(err, bot.ErrUnfinished) {
		log.Warn("an earlier attempt stopped while sending the follow-up; it may have reached the agent, so the job is followed again")
		return "docsbot stopped while sending it", true, nil
	}
	served, ok := a.core.Project(job.Project)
	if !ok && w.Marked(markSent) == "" {
		log.Error("the job's project is not in the projects file; the follow-up was not sent", "project", job.Project)
		a.tellInThread(ctx, r, "This reply was not sent to the agent: the job runs in "+goneProject(job.Project)+
			". Follow the job in your docs dashboard.", log)
		return "", false, nil
	}
	// The reply's text files go after it, as quoted data (files.go); the
	// person is told after the call what became of them.
	files := a.readAttached(ctx, r.Attached)
	message := r.Text
	if files.Context != "" {
		message += "\n\n" + files.Context
	}
	_, err = w.Paid(ctx, sendCall, func(ctx context.Context) (string, error) {
		_, err := JobsAPI(served.API).SendMessage(ctx, job.ID, message)
		return "", err
	})
	if err == nil || errors.Is(err, bot.ErrUnmarked) || errors.Is(err, docsapi.ErrOutcomeUnknown) {
		a.noteAttached(ctx, w, r, files.Note, log)
	}
	switch {
	case err == nil:
		return "", true, nil
	case errors.Is(err, bot.ErrUnmarked):
		log.Warn("recording the sent follow-up failed", "err", err)
		return "", true, nil
	case errors.Is(err, docsapi.ErrOutcomeUnknown):
		log.Warn("the docs API did not confirm the follow-up; it may have reached the agent, so the job is followed again", "err", err)
		return bot.APIAnswer(err), true, nil
	case w.Marked(markSending) == "":
		return "", false, bot.Later(bot.RetryDelay(w.Attempt), err) // sending not marked: nothing was sent
	}
	log.Warn("docs API did not take the follow-up", "err", err)
	a.tellInThread(ctx, r, "This reply was not sent to the agent. "+bot.Describe(err), log)
	return "", false, nil
}

// jobStart is the ts of the latest message of a job's thread that reached
// the agent with the job's start, or came before it: the latest of the
// messages read into its context (Seen) and the person's message that asked
// for it (Origin: a mention, a DM), else the bot's root message
// when it is a reply in the thread (a modal's start, a message shortcut's).
// A job whose root message is the thread's parent (a slash command)
// started with its thread: "". A post up to it is no follow-up of the job:
// a job started in a thread got the thread's earlier messages as context
// (readThread).
func jobStart(j *store.Job) string {
	if j.Seen != "" && j.Origin != "" && tsBefore(j.Seen, j.Origin) {
		return j.Origin // the context ended before the mention that asked
	}
	return cmp.Or(j.Seen, j.Origin, j.Root)
}

// inJobContext reports whether the post r is not to be sent to the
// thread's job as a follow-up because it came no later than the job's start
// (jobStart). It may have been waiting (startMayBeUnderWay, awaitStart) for
// the job that another post started. A post not addressed to the bot was
// not addressed to the job: nothing is said. A post addressed to it (a
// mention, a DM) that the job read as its thread's context is not sent
// again, and its author is told so, privately; one the job did not read (a
// mention posted just before a message shortcut's job put its root message
// in the thread) is sent as a follow-up like any later one.
func (a *agent) inJobContext(ctx context.Context, r replyRequest, job *store.Job, log *slog.Logger) bool {
	start := jobStart(job)
	if !postedBy(r.TS, start) {
		return false
	}
	if !r.Mention && !r.DM {
		log.Info("post made before the thread's job started; not sent as a follow-up", "ts", r.TS, "start", start)
		return true
	}
	if job.Seen == "" {
		// The job read no thread (none, or reading it failed): the post
		// reached it in no context.
		return false
	}
	log.Info("post read into the context of the thread's job; not sent as a follow-up", "ts", r.TS, "start", start)
	if r.TS != job.Origin {
		a.tellInThread(ctx, r, "Your message went to the docs agent job started in this thread a moment earlier, as part of the thread it read; it was not sent again.", log)
	}
	return true
}

// postedBy reports whether the message of Slack ts was posted no later than
// the one of ts start: false for a post with no message (a modal's) or a
// start of "".
func postedBy(ts, start string) bool { return ts != "" && (ts == start || tsBefore(ts, start)) }

// startWindow is how long after a thread's first message a reply to it may
// be waiting for a job that is still being started (posted, then created and
// linked), and is looked at again.
const startWindow = time.Minute

// startMayBeUnderWay reports whether a reply in the thread started at
// threadTS may belong to a job not linked yet: the thread is younger than
// startWindow, and the reply has not been looked at too often.
func startMayBeUnderWay(threadTS string, attempt int) bool {
	sec, _, _ := strings.Cut(threadTS, ".")
	n, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		return false
	}
	return attempt < 6 && time.Since(time.Unix(n, 0)) < startWindow
}

// maybeRetryStart starts a job again when the reply is "retry" in the thread
// of a start whose outcome was unknown. It reports whether it did (or the
// offer was taken by an earlier "retry"). Taking the offer consumes it, so
// the offer is marked on the work at once: an attempt after a failure
// before the start was queued queues it from the mark (Queue drops the
// second of two queueings by the key) rather than find the offer taken.
func (a *agent) maybeRetryStart(ctx context.Context, w *bot.Work, r replyRequest, thread store.Thread, log *slog.Logger) (bool, error) {
	if !isRetryWord(r.Text) {
		return false, nil
	}
	taken, err := w.Step(ctx, markRetry, func(ctx context.Context) (string, error) {
		payload, err := a.store.TakeRetry(ctx, thread)
		return string(payload), err
	})
	marked := err == nil
	switch {
	case errors.Is(err, store.ErrNotFound):
		return false, nil
	case errors.Is(err, store.ErrTaken):
		a.tellInThread(ctx, r, "This job is already being started again; there is no need to ask twice.", log)
		return true, nil
	case errors.Is(err, bot.ErrUnmarked):
		log.Warn("recording the retry offer taken failed; queuing the start at once", "err", err)
	case err != nil:
		return false, bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	payload := []byte(taken)
	// The start queued skips its own editor check (it has its root), so
	// the role is decided here, exactly, for the start's project.
	var start startRequest
	if err := json.Unmarshal(payload, &start); err != nil {
		log.Warn("a retry offer that is no start; nothing started", "err", err)
		a.tellInThread(ctx, r, "docsbot could not read this job's start again, so nothing was started. Start it anew with `"+Command+"`.", log)
		return true, nil
	}
	key := a.projectKey(start.Project)
	if refusal := a.core.Editors().For(roles.ActFollowUps).Refusal(ctx, r.User, r.Channel, key); refusal != "" {
		// The offer stays for whoever may start the job.
		if err := a.store.OfferRetry(ctx, thread, payload, retryOfferTTL); err != nil {
			log.Warn("offering the retry again after a refusal failed", "err", err)
		}
		a.tellInThread(ctx, r, refusal, log)
		rec := bot.RefusalRecord(r.Team, r.Channel, r.User, viaRetry, r.Text)
		rec.Project = key
		a.auditWork(ctx, w, rec)
		return true, nil
	}
	start.RetriedBy = r.User
	if again, err := json.Marshal(start); err == nil {
		payload = again
	}
	queued, err := a.core.QueueFromWork(ctx, store.Work{Key: "retry:" + w.Key, Kind: workStart, Payload: payload})
	if err != nil && !marked {
		// The offer is taken and no later attempt could queue it.
		log.Warn("queuing the start again failed", "err", err)
		a.tellInThread(ctx, r, "docsbot could not start this job again: its storage failed. Start it anew with `"+Command+"`.", log)
		return true, nil
	}
	if err != nil {
		return false, bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if queued {
		log.Info("start tried again on request")
	}
	return true, nil
}

// isRetryWord reports whether a reply asks to try a start again.
func isRetryWord(text string) bool { return strings.EqualFold(strings.Trim(text, " .!`"), wordRetry) }

// giveUpReply tells the author of a follow-up that it was not sent.
func (a *agent) giveUpReply(ctx context.Context, w *bot.Work) {
	var r replyRequest
	if json.Unmarshal(w.Payload, &r) != nil {
		return
	}
	a.tellInThread(ctx, r, "docsbot could not pass this reply on: Slack or its storage kept failing. Send it again.", a.log)
}

// tellInThread answers the author of a thread reply in that thread, visible only
// to them.
func (a *agent) tellInThread(ctx context.Context, r replyRequest, text string, log *slog.Logger) {
	_, err := a.core.SlackIn(ctx).PostEphemeralContext(ctx, r.Channel, r.User,
		slack.MsgOptionText(text, false), slack.MsgOptionTS(r.ThreadTS))
	if err != nil {
		log.Warn("private reply in the thread failed", "err", err)
	}
}

// showModalFollowUp shows in the thread, once, a follow-up sent from the
// follow-up modal, so that the thread tells what the agent was asked.
func (a *agent) showModalFollowUp(ctx context.Context, w *bot.Work, r replyRequest, log *slog.Logger) {
	if !r.FromModal {
		return
	}
	// At most once: marked before it is posted (a lost post is not told
	// again).
	_, err := w.Paid(ctx, bot.Call{Begun: markShown}, func(ctx context.Context) (string, error) {
		text := mrkdwn.Mention(r.User) + " followed up:\n" + mrkdwn.Quote(mrkdwn.Cut(r.Text, promptInRoot))
		a.postInThread(ctx, store.Thread{Team: r.Team, Channel: r.Channel, TS: r.ThreadTS}, log, slack.MsgOptionText(text, false))
		return "", nil
	})
	if err != nil && !errors.Is(err, bot.ErrUnfinished) {
		log.Warn("recording the follow-up's note failed; not posting it", "err", err)
	}
}
