package agent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// The agent owns four rows of the core's table of posts (bot/posts.go):
//
//	owner             order                hears                           claims
//	agent.command     bot.OrderCommand     a mention, a top-level DM       help, list, status (or a project=NAME naming none)
//	agent.job-thread  bot.OrderJobThread   a reply in a thread             the thread is a job's, or "retry" where one is offered
//	agent.job-start   bot.OrderJobStart    a mention, a DM                 all it hears: a job start (doAddressed)
//	agent.under-way   bot.OrderUnderWay    a plain reply in a thread       a job linked since; a start under way: offered again shortly
//
// What a post's owner does is resumable by the marks of its work: a start
// queued (markStarting), a wait for another start (markWaiting), a
// follow-up being sent (markSending).

// Names of the agent's owners of posts (bot.PostOwner.Name), marked on a
// post's work.
const (
	ownerCommand   = "agent.command"
	ownerJobThread = "agent.job-thread"
	ownerJobStart  = "agent.job-start"
	ownerUnderWay  = "agent.under-way"
)

// replyRequest is a post as the agent handles it: a person's post
// (bot.Post, its JSON as the post's), or a follow-up typed in the follow-up
// modal (agent.followup work). Its Project is the one an earlier owner
// named (bot.Post.Project: the pane's channel looked at), "" to decide as
// for any post.
type replyRequest struct {
	bot.Post
	// FromModal marks a follow-up typed in the follow-up modal: there is no
	// message of the person's in the thread (TS is ""), so the bot shows
	// the instruction there once it is sent.
	FromModal bool `json:"modal,omitempty"`
}

// replyOf is the post p as the agent handles it.
func replyOf(p bot.Post) replyRequest { return replyRequest{Post: p} }

// filesOnly reports whether the post has files and no text (nor a mention,
// which alone asks for help).
func (r replyRequest) filesOnly() bool { return r.Files && r.Text == "" && !r.Mention }

// ownPosts registers the agent's rows of the table above.
func (a *agent) ownPosts(routes bot.Router) {
	routes.OwnPosts(bot.PostOwner{Name: ownerCommand, Order: bot.OrderCommand, Hears: a.hearsCommand, Do: a.doAddressedPost})
	routes.OwnPosts(bot.PostOwner{Name: ownerJobThread, Order: bot.OrderJobThread, Hears: hearsReply, Claims: a.claimsJobThread, Do: a.doJobThread})
	routes.OwnPosts(bot.PostOwner{Name: ownerJobStart, Order: bot.OrderJobStart, Hears: hearsAddressed, Do: a.doAddressedPost})
	routes.OwnPosts(bot.PostOwner{Name: ownerUnderWay, Order: bot.OrderUnderWay, Hears: hearsPlainReply, Claims: a.claimsUnderWay, Do: a.doJobThread})
}

// hearsCommand: a mention, or a top-level DM, that is one of the words the
// agent answers itself (help, list, status; commandWord); in a thread only
// a mention whose whole text is one.
func (a *agent) hearsCommand(ctx context.Context, p bot.Post) bool {
	if p.InThread() {
		return p.Mention && commandWord(p.Text) != ""
	}
	if !p.Addressed() {
		return false
	}
	listed, _, problem := listWords(p.Text, a.core.ProjectsIn(ctx).Set)
	switch commandWord(listed) {
	case wordHelp:
		return problem != "" || listed != "" || listed == p.Text
	case wordList, wordStatus:
		return true
	}
	return problem != ""
}

func hearsReply(_ context.Context, p bot.Post) bool      { return p.InThread() }
func hearsAddressed(_ context.Context, p bot.Post) bool  { return p.Addressed() }
func hearsPlainReply(_ context.Context, p bot.Post) bool { return p.InThread() && !p.Addressed() }

// claimsJobThread claims a reply in a job's thread, and "retry" in a thread
// where a start whose outcome was unknown offers to try again.
func (a *agent) claimsJobThread(ctx context.Context, _ *bot.Work, p *bot.Post) (bool, error) {
	thread := store.Thread{Team: p.Team, Channel: p.Channel, TS: p.ThreadTS}
	_, err := a.store.JobByThread(ctx, thread)
	switch {
	case err == nil:
		return true, nil
	case !errors.Is(err, store.ErrNotFound):
		return false, err
	case !isRetryWord(p.Text):
		return false, nil
	}
	return a.store.RetryOffered(ctx, thread)
}

// claimsUnderWay looks once more at a plain reply nobody claimed: a job
// linked to its thread since (a start links its job as it drops its claim)
// is claimed; a start under way in the thread, or a thread so young that
// its job may still be starting (startMayBeUnderWay), offers the post again
// after a while.
func (a *agent) claimsUnderWay(ctx context.Context, w *bot.Work, p *bot.Post) (bool, error) {
	thread := store.Thread{Team: p.Team, Channel: p.Channel, TS: p.ThreadTS}
	held, err := a.store.StartHeld(ctx, thread)
	if err != nil {
		return false, err
	}
	if held {
		// A job is being started in the thread (a mention in an old
		// thread, say): the post may be addressed to it. Look again once
		// it is linked (or released).
		return false, bot.Later(startWaitPoll, store.ErrStartHeld)
	}
	if _, err := a.store.JobByThread(ctx, thread); err == nil {
		return true, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return false, err
	}
	if startMayBeUnderWay(p.ThreadTS, w.Attempt) {
		// A reply to a root message posted moments ago: its job may still
		// be starting. Look again shortly rather than drop it.
		return false, bot.Later(bot.RetryDelay(w.Attempt), fmt.Errorf("no job in the thread yet: %w", bot.ErrNotYet))
	}
	return false, nil // a thread that is not a job's
}

// doJobThread acts on a reply claimed in a job's thread: "retry" where a
// start offers it, files without text, or a follow-up (replyInJobThread).
func (a *agent) doJobThread(ctx context.Context, w *bot.Work, p bot.Post) error {
	r := replyOf(p)
	log := a.postLog(w, r)
	thread := store.Thread{Team: r.Team, Channel: r.Channel, TS: r.ThreadTS}
	if w.Marked(markRetry) != "" {
		_, err := a.maybeRetryStart(ctx, w, r, thread, log)
		return err
	}
	job, err := a.store.JobByThread(ctx, thread)
	if errors.Is(err, store.ErrNotFound) {
		// "retry" where a start offers it; or the job was untracked since
		// the claim: nothing to follow up.
		_, err := a.maybeRetryStart(ctx, w, r, thread, log)
		return err
	}
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if r.filesOnly() {
		a.tellInThread(ctx, r, filesOnlyText, log)
		return nil
	}
	return a.replyInJobThread(ctx, w, r, thread, job, log)
}

// doAddressedPost acts on a post addressed to the bot that is not a
// follow-up (agent.command, agent.job-start): help, a list, or a job start
// in the post's thread (doAddressed), after any wait for another start in
// that thread (markWaiting, startclaim.go).
func (a *agent) doAddressedPost(ctx context.Context, w *bot.Work, p bot.Post) error {
	r := replyOf(p)
	log := a.postLog(w, r)
	if r.filesOnly() {
		a.tellInThread(ctx, r, filesOnlyText, log)
		return nil
	}
	if w.Marked(markWaiting) != "" {
		return a.awaitStart(ctx, w, r, store.Thread{Team: r.Team, Channel: r.Channel, TS: cmp.Or(r.ThreadTS, r.TS)}, log)
	}
	return a.doAddressed(ctx, w, r, log)
}

// postLog is the log of a post's work.
func (a *agent) postLog(w *bot.Work, r replyRequest) *slog.Logger {
	return a.log.With("user", r.User, "channel", r.Channel, "thread", r.ThreadTS, "work", w.Key, "attempt", w.Attempt)
}

// filesOnlyText tells the author of a post with files and no text, in a
// job's thread or a DM, that nothing was passed on.
const filesOnlyText = "This message has only files, and docsbot passes only text on to the agent, so nothing was sent. Write what the agent should do in a message."
