package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
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
	// finishBudget bounds reporting a finish (record, check, post, mark),
	// well inside notifyLease.
	finishBudget = notifyLease / 2
	// maxIdle is the longest the poller sleeps between looks at the schedule,
	// so jobs scheduled by other replicas are polled within a second of due.
	maxIdle = 500 * time.Millisecond
	// trackedEvery is how often a replica refreshes the tracked-jobs gauge.
	trackedEvery = 5 * time.Second
)

// runPoller follows every unfinished job. Every replica runs one; they share
// the schedule in Redis, each claim being exclusive while its lease holds. On
// shutdown the claims still in flight are handed back so another replica
// takes them at once.
func (a *agent) runPoller(ctx context.Context) {
	slots := make(chan struct{}, a.cfg.PollWorkers)
	var (
		inflight sync.WaitGroup
		mu       sync.Mutex
		held     = map[string]store.Claim{}
	)
	var counted time.Time
	for ctx.Err() == nil {
		if a.metrics != nil && time.Since(counted) > trackedEvery {
			counted = time.Now()
			if n, err := a.store.Tracked(ctx); err == nil {
				a.metrics.TrackedJobs(n)
			}
		}
		free := cap(slots) - len(slots)
		if free == 0 {
			a.sleep(ctx, maxIdle)
			continue
		}
		claims, err := a.store.Claim(ctx, free, pollLease)
		if err != nil {
			if ctx.Err() == nil {
				a.log.Error("claiming due jobs failed", "err", err)
				a.sleep(ctx, time.Second)
			}
			continue
		}
		for _, c := range claims {
			slots <- struct{}{}
			mu.Lock()
			held[c.JobID] = c
			mu.Unlock()
			inflight.Go(func() {
				// A freed slot, and the job's new due time, wake the claim
				// loop at once: a backlog drains at the speed of the API,
				// not one batch per idle sleep.
				defer func() { <-slots; a.nudgePoller() }()
				if a.poll(ctx, c) {
					mu.Lock()
					delete(held, c.JobID)
					mu.Unlock()
				}
			})
		}
		if len(claims) == free {
			continue // more may be due right now
		}
		wait := maxIdle
		if d, ok, err := a.store.NextDue(ctx); err == nil && ok && d < wait {
			wait = d
		}
		a.sleep(ctx, wait)
	}
	inflight.Wait()
	if len(held) == 0 {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	back := make([]store.Claim, 0, len(held))
	for _, c := range held {
		back = append(back, c)
	}
	if err := a.store.Release(rctx, back); err != nil {
		a.log.Error("handing back polls in flight failed; they resume when their lease runs out", "jobs", len(back), "err", err)
		return
	}
	a.log.Info("handed back polls in flight", "jobs", len(back))
}

// sleep waits for d, a nudge, or the end of ctx.
func (a *agent) sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-a.wake:
	case <-t.C:
	}
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
	log := a.log.With("job", c.JobID, "channel", c.Job.Thread.Channel, "thread", c.Job.Thread.TS)
	a.metrics.Polled(c.Late)
	if st := docsapi.Status(c.Job.Status); st.Final() && c.Job.Notified < c.Job.Generation && c.Job.NotifyAttempts > 0 {
		// A finish already recorded but not reported: a replica stopped mid-way.
		return a.finish(ctx, c, st, c.Job.PRLink, log)
	}
	actx, cancel := context.WithTimeout(ctx, pollAttempt)
	job, err := a.api.GetJob(actx, c.JobID)
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
	err = a.store.Reschedule(ctx, c, string(job.Status), a.pollDelay(c.Job.Polls+1))
	if err == nil {
		a.refresh(ctx, c, job, log)
	}
	return a.settle(ctx, log, err)
}

// pollFailed decides what a failed get-job call means for the job.
func (a *agent) pollFailed(ctx context.Context, c store.Claim, err error, log *slog.Logger) bool {
	delay := a.pollDelay(c.Job.Polls + 1)
	switch apiErr, _ := errors.AsType[*docsapi.APIError](err); {
	case errors.Is(err, docsapi.ErrNotFound):
		log.Warn("the docs API no longer knows the job; no longer following it")
		if err := a.store.Untrack(ctx, c, "not_found"); err != nil {
			return a.settle(ctx, log, err)
		}
		v := jobView(&c.Job)
		v.State, v.Problem = stateUntracked, "the docs API no longer knows this job."
		a.postInThread(ctx, c.Job.Thread, log, slack.MsgOptionText(":grey_question: The docs API no longer knows job `"+bot.Escape(c.JobID)+"`, so I stopped following it. Check the agent jobs in your docs dashboard.", false))
		a.updateRoot(ctx, c.Job.Thread.Channel, rootTS(&c.Job), v, log)
		a.ended(ctx, &c.Job, "", log)
		return true
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

// finish records a run's end and, if nobody reported it yet, posts the result
// in the thread once and updates the root message.
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
	if c.Job.NotifyAttempts > 0 && a.reported(wctx, c, log) {
		log.Info("result was already posted by an earlier attempt")
		if err := a.store.MarkNotified(wctx, c); err != nil {
			return a.settle(ctx, log, err)
		}
		a.showFinished(wctx, c, status, pr, log)
		return true
	}
	thread := c.Job.Thread
	err = a.postResult(wctx, c, status, pr, log)
	if err != nil {
		if ctx.Err() != nil {
			return false
		}
		if bot.TransientSlack(err) {
			log.Warn("posting the job's result failed; trying again later", "err", err)
			return true // the notify lease brings the job back
		}
		log.Error("cannot post the job's result in its thread nor send it to the requester; giving up", "err", err)
	} else {
		log.Info("job finished; result posted", "status", status, "pr", pr != "", "generation", c.Job.Generation)
		a.metrics.Notified(status)
		a.core.Audit(ctx, store.AuditRecord{Team: thread.Team, Channel: thread.Channel, User: c.Job.Requester,
			Action: store.AuditResult, Outcome: string(status), JobID: c.JobID, Detail: pr,
			Work: fmt.Sprintf("result:%s:%d", c.JobID, c.Job.Generation)})
	}
	if err := a.store.MarkNotified(wctx, c); err != nil {
		log.Error("recording the posted result failed; a later attempt checks the thread first", "err", err)
		return true
	}
	a.showFinished(wctx, c, status, pr, log)
	return true
}

// postResult posts a run's result in the job's thread. What Slack refuses
// there still reaches the requester: as text alone when Slack refuses the
// message's blocks, else in a direct message (the bot was removed from the
// channel, it was archived or deleted). A passing failure is returned as it
// is, for the result to be posted later.
func (a *agent) postResult(ctx context.Context, c store.Claim, status docsapi.Status, pr string, log *slog.Logger) error {
	thread := c.Job.Thread
	msg := finishMessage(thread, c.JobID, c.Job.Generation, status, pr)
	_, err := a.core.Post(ctx, thread.Channel, append(msg, slack.MsgOptionTS(thread.TS))...)
	if err == nil || bot.TransientSlack(err) {
		return err
	}
	if code := bot.SlackCode(err); code == "invalid_blocks" || code == "msg_too_long" {
		log.Warn("Slack refused the result message; posting it as text", "err", err)
		_, err = a.core.Post(ctx, thread.Channel, append(finishTextMessage(c.JobID, c.Job.Generation, status, pr), slack.MsgOptionTS(thread.TS))...)
		if err == nil || bot.TransientSlack(err) {
			return err
		}
	}
	log.Warn("cannot post the job's result in its thread; sending it to the requester", "err", err)
	text := "Your docs agent job `" + bot.Escape(c.JobID) + "` ended, and docsbot cannot post in its thread in <#" + thread.Channel + "> (" +
		bot.Escape(bot.SlackCode(err)) + "), so here is its result:\n" + finishText(c.Job.Generation, status, pr)
	_, err = a.core.Post(ctx, c.Job.Requester, slack.MsgOptionText(text, false), slack.MsgOptionDisableLinkUnfurl())
	return err
}

// showFinished shows a reported finish on the root message and the person's
// message.
func (a *agent) showFinished(ctx context.Context, c store.Claim, status docsapi.Status, pr string, log *slog.Logger) {
	v := jobView(&c.Job)
	v.State, v.Status, v.PRLink = stateFinished, status, pr
	a.updateRoot(ctx, c.Job.Thread.Channel, rootTS(&c.Job), v, log)
	a.ended(ctx, &c.Job, status, log)
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
// by an attempt that stopped before recording it.
func (a *agent) reported(ctx context.Context, c store.Claim, log *slog.Logger) bool {
	params := &slack.GetConversationRepliesParameters{
		ChannelID: c.Job.Thread.Channel, Timestamp: c.Job.Thread.TS, Limit: 200, IncludeAllMetadata: true,
	}
	for {
		msgs, more, next, err := a.slack.GetConversationRepliesContext(ctx, params)
		if err != nil {
			log.Warn("could not read the thread to check for an earlier result; posting it", "err", err)
			return false
		}
		for _, m := range msgs {
			md := m.Metadata
			if md.EventType != FinishedEvent || (m.User != a.core.Self().UserID && m.BotID != a.core.Self().BotID) {
				continue
			}
			id, _ := md.EventPayload["job_id"].(string)
			gen, _ := md.EventPayload["generation"].(float64)
			if id == c.JobID && int64(gen) == c.Job.Generation {
				return true
			}
		}
		if !more || next == "" {
			return false
		}
		params.Cursor = next
	}
}

// postInThread writes a message in a job's thread, logging a failure.
func (a *agent) postInThread(ctx context.Context, t store.Thread, log *slog.Logger, opts ...slack.MsgOption) {
	if _, err := a.core.Post(ctx, t.Channel, append(opts, slack.MsgOptionTS(t.TS))...); err != nil {
		log.Warn("posting in the job's thread failed", "err", err)
	}
}

// pollDelay is the wait after the n-th poll of a job's run: the docs API
// client's schedule (docsapi.PollDelay) with the configured intervals, and
// jitter.
func (a *agent) pollDelay(n int) time.Duration {
	return docsapi.Jitter(docsapi.PollDelay(a.cfg.PollInterval, a.cfg.PollMaxInterval, n))
}
