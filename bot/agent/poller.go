package agent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/claim"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

const (
	// pollLease is how long a claim holds a job. If this replica dies, another
	// one takes the job when the lease runs out.
	pollLease = time.Minute
	// pollAttempt bounds one get-job call, retries included, well inside the lease.
	pollAttempt = 30 * time.Second
	// notifyLease holds a finished job while its result is posted; if the post
	// does not happen, the job comes due again after it.
	notifyLease = time.Minute
	// finishBudget bounds reporting a finish (record, check, post, edit, mark),
	// well inside notifyLease.
	finishBudget = notifyLease / 2
	// maxIdle is the longest the poller sleeps between claims. It sleeps
	// until the earliest job due that the store knows of
	// (store.Jobs.ClaimWait: its own schedule writes, and every shard read
	// at least every 5 s) or until the store says the schedule changed
	// (store.Jobs.Changed); a claim with nothing due asks Redis nothing.
	maxIdle = 5 * time.Second
	// maxGather bounds how late the poller's claim loop takes a poll to
	// claim polls due close together with one script a shard (pollGather).
	maxGather = 250 * time.Millisecond
	// trackedEvery is how often a replica refreshes the tracked-jobs gauge
	// (one ZCARD a shard).
	trackedEvery = 30 * time.Second
)

// runPoller follows every unfinished job. Every replica runs one; they share
// the schedule in Redis, each claim being exclusive while its lease holds. On
// shutdown the polls in flight get the bot's shutdown grace (a result being
// posted is posted and recorded); those still running then are cancelled and
// handed back after the landing window, those that ended unsettled at once
// (claim.Runner).
func (a *agent) runPoller(ctx context.Context) {
	grace, landing := a.core.Shutdown()
	r := &claim.Runner[store.Claim]{
		Claim:   a.store.Claim,
		Lease:   pollLease,
		Handle:  a.poll,
		Release: a.store.Release,
		// Sleep until the next job due that the store knows of, or
		// until it says the schedule changed.
		NextDue: a.store.ClaimWait,
		Changed: a.store.Changed(),
		Workers: a.cfg.PollWorkers,
		Idle:    maxIdle,
		// A freed slot, and the job's new due time, wake the claim loop:
		// a backlog drains at the speed of the API, not one batch per
		// idle sleep. Once caught up, it gathers polls coming due close
		// together into one claim.
		Wake:    a.wake,
		Gather:  pollGather(a.cfg.PollInterval),
		Backoff: time.Second,
		Grace:   grace,
		Landing: landing,
		Log:     a.log,
		Lines: claim.Lines{
			ClaimFailed:   "claiming due jobs failed",
			Released:      "handed back polls in flight",
			ReleaseFailed: "handing back polls in flight failed; they resume when their lease runs out",
			Count:         "jobs",
		},
	}
	if a.metrics != nil {
		r.GaugeEvery = trackedEvery
		r.Gauge = func(ctx context.Context) {
			if n, err := a.store.Tracked(ctx); err == nil {
				a.metrics.TrackedJobs(n)
			}
		}
	}
	// Polls outlive ctx by the grace, which Run ends itself.
	r.Run(ctx, context.WithoutCancel(ctx))
}

// nudgePoller wakes this replica's poller after it scheduled a job.
func (a *agent) nudgePoller() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// poll handles one claimed job: fetch it, then reschedule, finish or stop
// following it. It reports whether the claim was settled; an unsettled claim
// (shutdown cut it short) is handed back.
func (a *agent) poll(ctx context.Context, c store.Claim) bool {
	ctx = bot.WithWorkspace(ctx, c.Job.Workspace()) // its Slack calls are its workspace's
	log := a.log.With("job", c.JobID, "channel", c.Job.Thread.Channel, "thread", c.Job.Thread.TS)
	if c.Job.Project != "" {
		log = log.With("project", c.Job.Project)
	}
	a.metrics.Polled(c.Late)
	if st := docsapi.Status(c.Job.Status); st.Final() && c.Job.Notified < c.Job.Generation && c.Job.NotifyAttempts > 0 {
		// A finish already recorded but not reported: a replica stopped mid-way.
		return a.finish(ctx, c, st, c.Job.PRLink, log)
	}
	served, ok := a.core.Project(c.Job.Project)
	if !ok {
		return a.projectGone(ctx, c, log)
	}
	actx, cancel := context.WithTimeout(ctx, pollAttempt)
	job, err := JobsAPI(served.API).GetJob(actx, c.JobID)
	cancel()
	if ctx.Err() != nil {
		return false
	}
	if err != nil {
		return a.pollFailed(ctx, c, err, log)
	}
	if job.Status.Final() {
		return a.finish(ctx, c, job.Status, job.PR(), log)
	}
	if !job.Status.Known() {
		log.Warn("job has a status docsbot does not know; still following it", "status", job.Status)
	}
	err = a.store.Reschedule(ctx, c, string(job.Status), a.pollDelay(c.Job.Polls))
	if err == nil {
		a.refresh(ctx, c, job, log)
	}
	return a.settle(ctx, log, err)
}

// pollFailed decides what a failed get-job call means for the job.
func (a *agent) pollFailed(ctx context.Context, c store.Claim, err error, log *slog.Logger) bool {
	delay := a.pollDelay(c.Job.Polls)
	switch apiErr, _ := errors.AsType[*docsapi.APIError](err); {
	case errors.Is(err, docsapi.ErrNotFound):
		return a.jobGone(ctx, c, delay, log)
	case errors.Is(err, docsapi.ErrRateLimited):
		if apiErr != nil {
			delay = max(delay, apiErr.RetryAfter)
		}
		log.Warn("docs API rate limit while polling; polling later", "retry_in", delay)
	case errors.Is(err, docsapi.ErrUnauthorized):
		delay = a.cfg.PollMaxInterval
		log.Error("docs API rejected the API key while polling; check DOCS_API_KEY", "err", err)
	default:
		log.Warn("polling the job failed; trying again later", "err", err, "retry_in", delay)
	}
	return a.settle(ctx, log, a.store.Reschedule(ctx, c, c.Job.Status, delay))
}

// statusNotFound is the status recorded for a job no longer followed because
// the docs API no longer knows it.
const statusNotFound = "not_found"

// jobGone stops following a job the docs API no longer knows. The root
// message is edited at once (editRootNow) to say the job is no longer
// followed, and only then is the job untracked: a background edit lost after
// the untrack would leave the root at "Working" for good. While Slack fails
// the edit for a passing reason the job stays followed and comes due again
// on the poll schedule (Reschedule counts the poll, so the wait grows to
// PollMaxInterval), where the next poll, finding the job still unknown,
// tries again; each try is bounded by Config.FinalEditBudget, inside the
// claim's lease. A final refusal (the root message deleted) is logged and
// does not hold the untrack up. The thread is told once the job is untracked.
func (a *agent) jobGone(ctx context.Context, c store.Claim, delay time.Duration, log *slog.Logger) bool {
	v := jobView(&c.Job)
	v.State, v.Problem = stateUntracked, "the docs API no longer knows this job."
	var err error
	if c.Job.Followed() { // else Stop: the root message is edited no more
		err = a.editRootNow(ctx, c.Job.Thread.Channel, rootTS(&c.Job), v, log)
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return false // shutdown: handed back, another replica tries at once
	case bot.TransientSlack(err) && c.Job.Polls <= maxGoneWaits:
		log.Warn("the docs API no longer knows the job, and the root message cannot say so yet; trying again at the next poll", "err", err, "retry_in", delay)
		return a.settle(ctx, log, a.store.Reschedule(ctx, c, c.Job.Status, delay))
	case bot.TransientSlack(err):
		// Waited long enough: stop following the job and leave the edit to
		// the background, so that nothing comes back forever.
		log.Warn("the root message still cannot say the job is no longer followed; stopping all the same", "err", err)
		a.updateRoot(ctx, c.Job.Thread.Channel, rootTS(&c.Job), v, log)
	default:
		log.Warn("Slack refused to show on the root message that the job is no longer followed", "err", err)
	}
	if err := a.store.Untrack(ctx, c, statusNotFound); err != nil {
		return a.settle(ctx, log, err)
	}
	log.Warn("the docs API no longer knows the job; no longer following it")
	a.postInThread(ctx, c.Job.Thread, log, slack.MsgOptionText(":grey_question: The docs API no longer knows job `"+mrkdwn.Escape(c.JobID)+"`, so I stopped following it. Check the agent jobs in your docs dashboard.", false))
	a.ended(ctx, &c.Job, "", log)
	return true
}

// finish records a run's end and, if nobody reported it yet, posts the result
// in the thread once and shows the end on the root message.
//
// The result must be posted exactly once; the root message should show the
// end. The order makes both survive a replica that stops anywhere: the
// result is posted (or found in the thread, posted by an earlier attempt),
// the root message is edited at once (editRootNow, bounded), and then the
// finish is recorded as reported (MarkNotified). A replica that stops
// before the record, with the result in the thread, leaves the
// notification to the next claim, which finds the result there by its
// metadata, does not post it again, and makes the root edit. When the edit
// keeps failing the finish is recorded all the same and the edit is handed
// to the background (updateRoot): a root edit never holds the record up
// nor brings the job back. A later attempt that cannot read the thread
// does not post while that may pass (it might post twice): it waits for
// the next one, up to maxUncheckedWaits, then posts with a note. Every
// attempt is counted (NotifyAttempts), and past maxNotifyAttempts a result
// Slack keeps failing for a passing reason is given up.
func (a *agent) finish(ctx context.Context, c store.Claim, status docsapi.Status, pr string, log *slog.Logger) bool {
	// The whole report must end well inside the notify lease: past it another
	// replica may take the job and post the result too. ctx still tells a
	// shutdown apart from this deadline.
	wctx, cancel := context.WithTimeout(ctx, finishBudget)
	defer cancel()
	notify, err := a.store.Finish(wctx, c, string(status), pr, notifyLease)
	if err != nil || !notify {
		return a.settle(ctx, log, err)
	}
	a.jobChanged(wctx, finished(c.Job, status, pr))
	// attempt counts this one: c.Job is the record at claim time.
	attempt := c.Job.NotifyAttempts + 1
	// inThread: the result is in the job's thread, where a later attempt
	// finds it instead of posting it again.
	inThread, note := false, ""
	if c.Job.NotifyAttempts > 0 {
		found, err := a.reported(wctx, c)
		switch {
		case err != nil && ctx.Err() != nil:
			return false
		case err != nil && bot.TransientSlack(err) && attempt <= maxUncheckedWaits:
			// An earlier attempt may have posted it: posting now could
			// show it twice. The notify lease brings the job back.
			log.Warn("could not read the thread to check for an earlier result; checking again later", "err", err, "attempt", attempt)
			return true
		case err != nil:
			log.Warn("cannot read the thread to check for an earlier result; posting it with a note", "err", err, "attempt", attempt)
			note = unsureNote
		case found:
			inThread = true
			log.Info("result was already posted by an earlier attempt")
		}
	}
	if !inThread {
		inThread, err = a.postResult(wctx, c, status, pr, note, log)
		switch {
		case err != nil && ctx.Err() != nil:
			return false
		case err != nil && bot.TransientSlack(err) && attempt < maxNotifyAttempts:
			log.Warn("posting the job's result failed; trying again later", "err", err, "attempt", attempt)
			return true // the notify lease brings the job back
		case err != nil && bot.TransientSlack(err):
			log.Error("posting the job's result kept failing; giving up", "err", err, "attempts", attempt)
			a.auditUndelivered(ctx, c, status, "Slack kept failing")
		case err != nil:
			log.Error("cannot post the job's result in its thread nor send it to the requester; giving up", "err", err)
			a.auditUndelivered(ctx, c, status, cmp.Or(bot.SlackCode(err), "Slack refused it"))
		default:
			log.Info("job finished; result posted", "status", status, "pr", pr != "", "generation", c.Job.Generation)
			a.metrics.Notified(status)
			thread := c.Job.Thread
			a.core.Audit().Record(ctx, store.AuditRecord{Team: thread.Team, Channel: thread.Channel, User: c.Job.Requester,
				Action: store.AuditResult, Outcome: string(status), JobID: c.JobID, Detail: pr, Project: c.Job.Project,
				Work: fmt.Sprintf("result:%s:%d", c.JobID, c.Job.Generation)})
		}
	}
	return a.recordFinished(ctx, wctx, c, status, pr, inThread, log)
}

// auditUndelivered records that c's result, status, could not be reported
// (why: Slack's code, never a token): the workspace removed docsbot or
// refused its token, or Slack failed all along. Nobody in Slack can be told,
// so the audit trail keeps it for whoever runs docsbot (`docsbot audit`),
// under the key a delivered result has.
func (a *agent) auditUndelivered(ctx context.Context, c store.Claim, status docsapi.Status, why string) {
	thread := c.Job.Thread
	a.core.Audit().Record(ctx, store.AuditRecord{Team: thread.Team, Channel: thread.Channel, User: c.Job.Requester,
		Action: store.AuditResult, Outcome: "undelivered", JobID: c.JobID, Detail: string(status) + ": " + why, Project: c.Job.Project,
		Work: fmt.Sprintf("result:%s:%d", c.JobID, c.Job.Generation)})
}

// recordFinished shows a finished job's end on its root message and then
// records it notified (store.Jobs.MarkNotified), whatever the edit did: the
// record follows what was posted (inThread: the result is in the thread),
// so it is written past a shutdown or the finish's budget (wctx), and once
// it is, the result is never posted again, an edit that failed is tried
// once more. It reports false when the job is handed back: shutting down
// before the edit, or the record not written.
func (a *agent) recordFinished(ctx, wctx context.Context, c store.Claim, status docsapi.Status, pr string, inThread bool, log *slog.Logger) bool {
	shown := a.showFinished(wctx, c, status, pr, log)
	if !shown && inThread && ctx.Err() != nil {
		// Shutting down: the next claim finds the result in the thread
		// and makes the edit.
		return false
	}
	// The record is a write that follows what was posted: a shutdown or
	// the budget does not cut it short.
	mctx, mcancel := context.WithTimeout(context.WithoutCancel(wctx), markBudget)
	defer mcancel()
	if err := a.store.MarkNotified(mctx, c); err != nil && !errors.Is(err, store.ErrNotFound) {
		if inThread {
			log.Error("recording the posted result failed; a later attempt finds it in the thread", "err", err)
		} else {
			log.Error("recording the reported result failed; handing the job back", "err", err)
		}
		return false
	}
	if !shown {
		// One more try, in the background: the record is made, so the
		// result is not posted again whatever happens to this edit.
		a.updateRoot(mctx, c.Job.Thread.Channel, rootTS(&c.Job), finishedView(c, status, pr), log)
	}
	a.ended(mctx, &c.Job, status, log)
	return true
}

const (
	// maxGoneWaits bounds the polls of a job the docs API no longer knows
	// that wait for its root message to say so: a job polled this often
	// (this run's polls, each waiting longer) is untracked all the same.
	maxGoneWaits = 40
	// maxUncheckedWaits is the last attempt at reporting a finish that
	// waits when it cannot read the thread for an earlier post; the next
	// one posts, with unsureNote.
	maxUncheckedWaits = 5
	// maxNotifyAttempts bounds the attempts at posting a result while
	// Slack fails for a passing reason: about half an hour of notify
	// leases. The last one gives up.
	maxNotifyAttempts = 30
	// markBudget bounds recording a finish as reported once its result
	// was posted, shutdown or not.
	markBudget = 5 * time.Second
	// unsureNote goes with a result posted without knowing whether an
	// earlier attempt posted it.
	unsureNote = "_docsbot could not check this thread for an earlier copy of this result; if there is one, this is a repeat._"
)

// postResult posts a run's result in the job's thread and reports whether it
// is there. What Slack refuses there still reaches the requester: as text
// alone when Slack refuses the message's blocks, else in a direct message
// (the bot was removed from the channel, it was archived or deleted). A
// passing failure is returned as it is, for the result to be posted later.
func (a *agent) postResult(ctx context.Context, c store.Claim, status docsapi.Status, pr, note string, log *slog.Logger) (inThread bool, err error) {
	thread := c.Job.Thread
	msg := finishMessage(thread, c.JobID, c.Job.Generation, status, pr, c.Job.Project, note)
	_, err = a.core.Post(ctx, thread.Channel, bot.Plain(msg), slack.MsgOptionTS(thread.TS))
	if err == nil || bot.TransientSlack(err) {
		return err == nil, err
	}
	if code := bot.SlackCode(err); code == "invalid_blocks" || code == "msg_too_long" {
		log.Warn("Slack refused the result message; posting it as text", "err", err)
		_, err = a.core.Post(ctx, thread.Channel, bot.Plain(finishTextMessage(c.JobID, c.Job.Generation, status, pr, note)), slack.MsgOptionTS(thread.TS))
		if err == nil || bot.TransientSlack(err) {
			return err == nil, err
		}
	}
	log.Warn("cannot post the job's result in its thread; sending it to the requester", "err", err)
	inProject := ""
	if c.Job.Project != "" {
		inProject = " (project `" + mrkdwn.Escape(c.Job.Project) + "`)"
	}
	text := "Your docs agent job `" + mrkdwn.Escape(c.JobID) + "`" + inProject + " ended, and docsbot cannot post in its thread in <#" + thread.Channel + "> (" +
		mrkdwn.Escape(bot.SlackCode(err)) + "), so here is its result:\n" + finishText(c.Job.Generation, status, pr)
	_, err = a.core.Post(ctx, c.Job.Requester, bot.Plain{slack.MsgOptionText(text, false), slack.MsgOptionDisableLinkUnfurl()})
	return false, err
}

// showFinished shows a run's end on the job's root message, at once
// (editRootNow, bounded by Config.FinalEditBudget), and reports whether it
// does. A final refusal (the root message deleted) counts as done: trying again
// cannot help.
func (a *agent) showFinished(ctx context.Context, c store.Claim, status docsapi.Status, pr string, log *slog.Logger) bool {
	if !a.followed(ctx, c, log) {
		// Stop in the pane: the root message is edited no more;
		// the result posted in the thread says how the run ended.
		return true
	}
	err := a.editRootNow(ctx, c.Job.Thread.Channel, rootTS(&c.Job), finishedView(c, status, pr), log)
	switch {
	case err == nil:
		return true
	case bot.TransientSlack(err):
		log.Warn("the root message does not show the job's end yet", "err", err)
		return false
	}
	log.Warn("Slack refused to show the job's end on its root message", "err", err)
	return true
}

// followed reports whether the claimed run is still followed in Slack
// (Stop in the pane marks it not: store.Jobs.StopFollowing). The
// claim's record says so when the mark came first; a claim taken before
// it reads the record again here, once a run, so that the end is not shown
// on a live message Stop left (a Stop pressed while the result is being
// reported may miss it). A failed read goes by the claim's record.
func (a *agent) followed(ctx context.Context, c store.Claim, log *slog.Logger) bool {
	if !c.Job.Followed() {
		return false
	}
	j, err := a.store.Job(ctx, c.JobID)
	if err != nil {
		log.Debug("cannot read whether the job is still followed; going by its claim", "err", err)
		return true
	}
	return j.Generation != c.Job.Generation || j.Followed()
}

// finishedView is the root message of a job whose run ended.
func finishedView(c store.Claim, status docsapi.Status, pr string) rootView {
	v := jobView(&c.Job)
	v.State, v.Status, v.PRLink = stateFinished, status, pr
	return v
}

// settle logs what a store write at the end of a poll says. A stale claim is
// normal: another replica or a follow-up took the job.
func (a *agent) settle(ctx context.Context, log *slog.Logger, err error) bool {
	switch {
	case err == nil, errors.Is(err, store.ErrStale):
		return true
	case ctx.Err() != nil:
		return false
	}
	log.Error("saving the poll's result failed; the job comes due again when its lease ends", "err", err)
	return true
}

// reported looks in the job's thread for a result message of this run, posted
// by an attempt that stopped before recording it. An error means the
// thread could not be read: the caller cannot tell.
func (a *agent) reported(ctx context.Context, c store.Claim) (bool, error) {
	params := &slack.GetConversationRepliesParameters{
		ChannelID: c.Job.Thread.Channel, Timestamp: c.Job.Thread.TS, Limit: 200, IncludeAllMetadata: true,
	}
	for {
		msgs, more, next, err := a.core.SlackIn(ctx).GetConversationRepliesContext(ctx, params)
		if err != nil {
			return false, fmt.Errorf("reading the job's thread: %w", err)
		}
		for _, m := range msgs {
			md := m.Metadata
			if md.EventType != FinishedEvent || (m.User != a.core.Self(ctx).UserID && m.BotID != a.core.Self(ctx).BotID) {
				continue
			}
			id, _ := md.EventPayload["job_id"].(string)
			gen, _ := md.EventPayload["generation"].(float64)
			if id == c.JobID && int64(gen) == c.Job.Generation {
				return true, nil
			}
		}
		if !more || next == "" {
			return false, nil
		}
		params.Cursor = next
	}
}

// postInThread writes a message in a job's thread, logging a failure.
func (a *agent) postInThread(ctx context.Context, t store.Thread, log *slog.Logger, opts ...slack.MsgOption) {
	if _, err := a.core.Post(ctx, t.Channel, bot.Plain(opts), slack.MsgOptionTS(t.TS)); err != nil {
		log.Warn("posting in the job's thread failed", "err", err)
	}
}

// pollDelay is the wait after the n-th poll of a job's run (store.Job.Polls
// of its claim, which counted it): the docs API
// client's schedule (docsapi.PollDelay) with the configured intervals, and
// jitter.
func (a *agent) pollDelay(n int) time.Duration {
	return docsapi.Jitter(docsapi.PollDelay(a.cfg.PollInterval, a.cfg.PollMaxInterval, n))
}

// pollGather is how long the poller's claim loop waits after a claim that
// caught up (claim.Runner.Gather): a twentieth of the poll interval, at
// most maxGather, so that a poll is at most 5 % of its interval late for
// it while polls due together cost one claim script a shard.
func pollGather(interval time.Duration) time.Duration {
	return min(interval/20, maxGather)
}
