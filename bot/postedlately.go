package bot

import (
	"context"
	"time"
)

// PostedLately reports whether docsbot posted in channel, of the workspace
// ctx names (WorkspaceOf), within the last postedLatelyFresh, and Slack
// refused none of its posts there since. It is what this replica saw (Post),
// not a promise: a channel can be archived, or docsbot removed from it, at
// any moment. A job's start uses it to post its root message once the job
// exists, one message instead of a post and an edit (bot/agent, the late
// root).
func (b *Bot) PostedLately(ctx context.Context, channel string) bool {
	_, ok := b.postedLately.get(WorkspaceOf(ctx).Team, channel, postedLatelyFresh, time.Now())
	return ok
}

// notePost keeps what a post in channel said of it: posted (err nil) or
// refused for good (a final answer: not_in_channel, is_archived). A
// failure that may pass says nothing of the channel.
func (b *Bot) notePost(ctx context.Context, channel string, err error) {
	team := WorkspaceOf(ctx).Team
	switch {
	case err == nil:
		b.postedLately.put(team, channel, struct{}{}, postedLatelyMax, time.Now())
	case !TransientSlack(err):
		b.postedLately.forget(team, channel)
	}
}

// postedLatelyFresh is how long a post counts as lately; postedLatelyMax
// bounds the channels kept.
const (
	postedLatelyFresh = 10 * time.Minute
	postedLatelyMax   = 4096
)
