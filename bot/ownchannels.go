package bot

import (
	"context"

	"github.com/slack-go/slack"
)

// ChannelsHere keeps of channels, Slack channel ids a setting names (a
// project's default channels), those of the workspace ctx names (WorkspaceOf),
// in their order. With one workspace served, that is all of them. In install
// mode, one projects-file project may name the channels of several
// workspaces; a channel is kept when Slack finds it with this workspace's
// token (conversations.info), so that one workspace is never shown another's
// channel ids. A channel Slack cannot say of just now is left out too: the
// list is for reading, and a missing line is better than another's id.
func (b *Bot) ChannelsHere(ctx context.Context, channels []string) []string {
	if !b.cfg.InstallMode || len(channels) == 0 {
		return channels
	}
	client := b.SlackIn(ctx)
	var here []string
	for _, id := range channels {
		if _, err := client.GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: id}); err != nil {
			b.log.Debug("a channel a setting names is left out of this workspace's list", "channel", id, "err", err)
			continue
		}
		here = append(here, id)
	}
	return here
}
