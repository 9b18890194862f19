package bot

import (
	"context"
	"time"
)

// FreeToPost reports whether a post in channel, of the workspace ctx names
// (WorkspaceOf), should go out at once, as far as this replica saw (Post's
// answers):
//
//	docsbot posted there within postedLatelyFresh     else false: Slack may refuse the channel
//	Slack refused none of its posts there since          else false (not_in_channel, is_archived)
//	no post there took slowPost or more lately           else false: Slack's limit, or a queue
//	  (slowLatelyFresh)
//	no post there is waiting or in flight now            else false: it would wait its turn
//	the replica is not stopping                          else false: work before its paid
//	                                                       call can still be handed over
//
// It is not a promise: a channel can be archived, or docsbot removed from
// it, at any moment, and another replica's posts can meet Slack's limit. A
// job's start uses it to post its root message once the job exists, one
// message instead of a post and an edit (bot/agent, the late root), where
// that post is unlikely to wait after the paid call.
func (b *Bot) FreeToPost(ctx context.Context, channel string) bool {
	team, now := WorkspaceOf(ctx).Team, time.Now()
	if _, ok := b.postedLately.get(team, channel, postedLatelyFresh, now); !ok {
		return false
	}
	if _, slow := b.slowLately.get(team, channel, slowLatelyFresh, now); slow {
		return false
	}
	select {
	case <-b.stopping:
		return false
	default:
	}
	return !b.out.posting(channel)
}

// notePost keeps what a post in channel said of it, which took took, its
// turn included: posted (err nil), slow, or refused for good (a final
// answer: not_in_channel, is_archived). A failure that may pass says
// nothing of whether docsbot may post there.
func (b *Bot) notePost(ctx context.Context, channel string, took time.Duration, err error) {
	team, now := WorkspaceOf(ctx).Team, time.Now()
	if took >= slowPost {
		b.slowLately.put(team, channel, struct{}{}, postedLatelyMax, now)
	}
	switch {
	case err == nil:
		b.postedLately.put(team, channel, struct{}{}, postedLatelyMax, now)
	case !TransientSlack(err):
		b.postedLately.forget(team, channel)
	}
}

// What FreeToPost remembers: posts for postedLatelyFresh, a slow post for
// slowLatelyFresh, at most postedLatelyMax channels each.
const (
	postedLatelyFresh = 10 * time.Minute
	slowLatelyFresh   = time.Minute
	slowPost          = time.Second
	postedLatelyMax   = 4096
)
