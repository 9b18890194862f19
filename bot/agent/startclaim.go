package agent

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// One start per thread. Two posts may start a job in the same thread at the
// same moment (two mentions, a mention and the message shortcut on its
// parent): only one may create it. A start claims the thread in Redis
// (store.Jobs.ClaimStart, owned by the start work's key, so that its later
// attempts take it again); when it takes, waits for and releases the claim
// is the table in doc.go.
//
// A post that finds the claim taken waits for that start (awaitStart): once
// the thread's job is linked, the post is sent to it as a follow-up, unless
// the job read it into its context as it started (inJobContext: the person
// is told so, privately); if the start ends without a job, the person is
// told that nothing was sent. A modal's start that finds it taken waits
// too, and is then told the thread follows a job already (inJobThread), like
// any start in a job's thread.

const (
	// startClaimTTL is how long a start's claim on its thread holds without
	// being taken again: a root message's post (rootPostBudget), the create
	// call and the link, with room to spare.
	startClaimTTL = 2 * time.Minute
	// startWaitPoll is how often a post waiting for another start in its
	// thread looks again.
	startWaitPoll = time.Second
	// markWaiting records that a post found another start under way in its
	// thread and is to become that job's follow-up.
	markWaiting = "waiting"
)

// startOwner is the owner of the start claim of the job start queued for
// the post work key: the start work's own key.
func startOwner(postKey string) string { return "start:" + postKey }

// claimStart claims the start of a job in the request's thread for w before
// anything is posted or created (doc.go). It reports whether the start ends
// here: the thread follows a job already (the person was told), or another
// start holds it (w waits for it).
func (a *agent) claimStart(ctx context.Context, w *bot.Work, req startRequest, root string, log *slog.Logger) (bool, error) {
	err := a.store.ClaimStart(ctx, req.thread(""), w.Key, startClaimTTL)
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, store.ErrConflict):
		if _, err := w.Outcome(createCall); root == "" && err == nil {
			return a.inJobThread(ctx, w, req, log)
		}
		// Linked by an earlier attempt of this start: the checks of an
		// attempt after a crash find its job.
		return false, nil
	case errors.Is(err, store.ErrStartHeld):
		log.Info("another job start in this thread is under way; waiting for it")
		return true, bot.Later(startWaitPoll, err)
	}
	return true, bot.Later(bot.RetryDelay(w.Attempt), err)
}

// releaseThread releases the thread a start claimed, after it ended without a
// job linked, so that the posts waiting for it are told at once.
func (a *agent) releaseThread(ctx context.Context, w *bot.Work, req startRequest, log *slog.Logger) {
	if req.ThreadTS == "" {
		return
	}
	if err := a.store.ReleaseStart(context.WithoutCancel(ctx), req.thread(""), w.Key); err != nil {
		log.Warn("releasing the thread's start failed; it runs out by itself", "err", err)
	}
}

// awaitStart waits for the start under way in thread, which r's post found
// when it was about to start one itself, and then sends r to the started
// job as a follow-up, unless the job got r as context already
// (inJobContext); if that start linked no job, r's author is told.
func (a *agent) awaitStart(ctx context.Context, w *bot.Work, r replyRequest, thread store.Thread, log *slog.Logger) error {
	// The claim is read before the link: a start links its job as it drops
	// its claim, so no claim and no link means that it linked nothing.
	held, err := a.store.StartHeld(ctx, thread)
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	r.ThreadTS = thread.TS
	job, err := a.store.JobByThread(ctx, thread)
	switch {
	case err == nil:
		log = log.With("job", job.ID)
		if w.Marked(markSending) == "" && a.inJobContext(ctx, r, job, log) {
			return nil
		}
		// The post was let in for some project (doAddressed); the job's
		// may take other editors.
		if a.refuseFollowUp(ctx, w, r, job, log) {
			return nil
		}
		return a.sendFollowUp(ctx, w, r, job, log)
	case !errors.Is(err, store.ErrNotFound):
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	case held:
		return bot.Later(startWaitPoll, store.ErrStartHeld)
	}
	log.Info("the other job start in this thread created no job; telling the person")
	a.tellInThread(ctx, r, "A docs agent job was being started in this thread when you posted, so docsbot waited to pass your message on to it. That start did not succeed, so your message was not sent to the agent. Mention docsbot again to start a job here.", log)
	return nil
}
