package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/docsapi"
)

// The late root. A /docs-agent command in a channel where docsbot's posts
// go out at once (bot.FreeToPost: it posted there lately, none was refused
// or slow since, none waits now) has its root message posted once the job
// exists, showing it working: one post where a root posted first takes a
// post and an edit. Posting first is kept where it matters: a channel
// docsbot has not posted in lately may refuse it, and a job must not be
// spent where docsbot cannot post; in a busy channel the root would wait
// for Slack after the paid call, where a stopping replica can no longer
// hand the work over (bot/handover.go). So are a start's later attempts, a
// start in an existing thread (a mention, a DM, the shortcut) and the modal.
// How each phase treats a late root is in doc.go's table.

// The person's private notices while a late root waits (tellIfSlow, once
// across attempts: the queued mark).
const (
	// slowCreateNotice: the create call is slow and nothing shows yet.
	slowCreateNotice = "Your docs agent job is starting: the docs API is taking a moment. Its message comes in this channel as soon as the docs API answers; nothing more to do."
	// queuedLateRootNotice: the job started; Slack holds its message.
	queuedLateRootNotice = "Your docs agent job has started. Slack is limiting how fast docsbot may post in this channel, so its message comes as soon as Slack lets docsbot post; nothing more to do."
	// queuedRootNotice: the root waits for Slack before anything started.
	queuedRootNotice = "Your docs agent job is queued: Slack is limiting how fast docsbot may post in this channel. It starts as soon as Slack lets docsbot post; nothing more to do."
)

// rootAfterCreate reports whether this start posts its root message late:
// a slash command's first attempt, in a new thread, in a channel free to
// post in.
func (s *start) rootAfterCreate(ctx context.Context) bool {
	r := s.req
	return r.ThreadTS == "" && r.ResponseURL != "" && s.w.Attempt == 1 && s.w.Marked(markIntent) == "" &&
		s.a.core.FreeToPost(ctx, r.Channel)
}

// postLateRoot posts the root message of a created job, showing view.
// Refused, or held by Slack past rootPostBudget, the job is not followed:
// the start ends untracked and the person is told privately, with the job.
// Cut short by the replica's shutdown, the work is handed back (its error):
// the next attempt finds the intent and no root, as after a crash (doc.go).
func (s *start) postLateRoot(ctx context.Context, view rootView) (bool, error) {
	view.Now = s.a.cfg.Now()
	ts, err := s.a.postRoot(ctx, s.w, s.req, view, s.log)
	if err != nil && ctx.Err() != nil {
		return true, fmt.Errorf("posting the root message of job %s: %w", view.JobID, err)
	}
	if err != nil {
		s.log.Warn("the job started, but its root message cannot be posted; it is not followed", "err", err)
		return true, s.end(ctx, outcomeUntracked, "it started, but docsbot could not post it in this channel, so it will not report its result here. "+
			bot.Describe(err)+" Follow the job in your docs dashboard.")
	}
	s.root = ts
	s.log = s.log.With("root", ts)
	s.a.keepForSwitch(ctx, s.req, ts, s.key, s.log)
	return false, nil
}

// postEndRoot posts the root message of a late start that ends without a
// job to follow (start.end), so that the end shows where the person asked,
// as it would on a root posted first. Refused, the end is told privately
// alone.
func (s *start) postEndRoot(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, rootPostBudget)
	defer cancel()
	ts, err := s.a.core.Post(bot.FirstPost(ctx), s.req.Channel, s.a.rootMessage(s.view), rootMetadata(s.w, ""))
	if err != nil {
		s.log.Warn("cannot post the root message of a start that ended; the person is told privately", "err", err)
		return
	}
	s.root = ts
	s.log = s.log.With("root", ts)
}

// tellIfSlow tells the person text privately (a slash command's
// response_url), once across attempts (the queued mark), if its work is
// still waiting queuedNotice after the command (counted from the command,
// not this attempt: work handed from a stopping replica to another keeps
// its place in the person's wait); why is logged. The returned func stops
// it once the wait is over.
func (a *agent) tellIfSlow(ctx context.Context, w *bot.Work, req startRequest, text, why string, log *slog.Logger) (stop func() bool) {
	if req.ResponseURL == "" {
		return func() bool { return false }
	}
	return time.AfterFunc(max(queuedNotice-w.Age(), 0), func() {
		if _, err := w.Step(ctx, markQueued, func(ctx context.Context) (string, error) {
			log.Info(why)
			a.core.ReplyPrivately(ctx, req.command(), text)
			return "1", nil
		}); err != nil {
			log.Warn("recording the queued notice failed", "err", err)
		}
	}).Stop
}

// resumeLate goes on with a start whose earlier attempt created the job
// and posted its late root (which names the job: rootMetadata) but stopped
// before linking it: the job is read from the docs API (a read, not the
// paid call) and linked as the create's answer would have been. A job the
// API does not know, or a project no API serves now, leaves the outcome
// unknown, as after any attempt stopped during the create.
func (s *start) resumeLate(ctx context.Context) (bool, error) {
	if s.api == nil {
		return true, s.unfinished(ctx)
	}
	job, err := s.api.GetJob(ctx, s.rootJob)
	switch {
	case err == nil:
		s.log.Info("an earlier attempt created the job and posted its root; linking it", "job", job.ID)
		s.job = job
		s.started.JobID = job.ID
		s.log = s.log.With("job", job.ID)
		return false, nil
	case errors.Is(err, docsapi.ErrNotFound):
		return true, s.unfinished(ctx)
	}
	return true, bot.Later(bot.RetryDelay(s.w.Attempt), fmt.Errorf("reading the job a late root names: %w", err))
}
