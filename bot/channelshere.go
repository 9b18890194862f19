package bot

import (
	"context"
	"time"

	"github.com/slack-go/slack"
)

// ChannelsHere keeps of channels, Slack channel ids a setting names (a
// project's default channels), those of the workspace ctx names (WorkspaceOf),
// in their order. With one workspace served, that is all of them. In install
// mode, one projects-file project may name the channels of several
// workspaces; a channel is kept when Slack finds it with this workspace's
// token (conversations.info), so that one workspace is never shown another's
// channel ids. A channel Slack cannot say of just now is left out too: the
// list is for reading, and a missing line is better than another's id. What
// Slack answered is kept channelsHereFresh (channelsHere), so that Home tabs
// opened one after another do not spend conversations.info each.
func (b *Bot) ChannelsHere(ctx context.Context, channels []string) []string {
	if !b.cfg.InstallMode || len(channels) == 0 {
		return channels
	}
	team := WorkspaceOf(ctx).Team
	var here []string
	for _, id := range channels {
		in, ok := b.channelsHere.get(team, id, channelsHereFresh, time.Now())
		if !ok {
			_, err := b.SlackIn(ctx).GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: id})
			if in = err == nil; in || !TransientSlack(err) {
				b.channelsHere.put(team, id, in, channelsHereMax, time.Now())
			}
			if err != nil {
				b.log.Debug("a channel a setting names is left out of this workspace's list", "channel", id, "err", err)
			}
		}
		if in {
			here = append(here, id)
		}
	}
	return here
}

// channelsHereFresh is how long a workspace's answer about a channel is
// kept; channelsHereMax bounds the answers kept (past it, all are dropped).
// A failure that may pass is not kept: the next look asks again.
const (
	channelsHereFresh = 10 * time.Minute
	channelsHereMax   = 4096
)
