package bot

import (
	"context"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"
)

// The statuses of an agent session docsbot sets (agents.sessions.setStatus):
// processing while it works in the thread (Slack shows Stop), active when
// it waits for the person.
const (
	SessionProcessing = "processing"
	SessionActive     = "active"
)

// SetSessionStatus (b.Decorations()) makes the agent session of a thread of the assistant
// pane follow the work, in the background and in order per thread:
// working sets it processing (created the first time, user its
// initiator), else active. Only a thread of a direct message with the bot
// (channel D…) is the pane's; elsewhere it does nothing. If Slack refuses
// the method for good (an app without the agent view, missing_scope), that
// is logged once and sessions are skipped from then on: never fatal.
func (d Decorations) SetSessionStatus(ctx context.Context, channel, threadTS, user string, working bool, log *slog.Logger) {
	b := d.b
	if b.sessionStatus.off.Load() || !strings.HasPrefix(channel, "D") || threadTS == "" {
		return
	}
	status := SessionActive
	if working {
		status = SessionProcessing
	}
	ctx = context.WithoutCancel(ctx)
	b.inOrder("session:"+channel+"/"+threadTS, func() {
		if b.sessionStatus.off.Load() {
			return
		}
		ctx, cancel := context.WithTimeout(ctx, editBudget)
		defer cancel()
		_, err := b.slack.SetAgentSessionStatusContext(ctx, slack.AgentSessionSetStatusParameters{
			ChannelID: channel, ThreadTS: threadTS, Status: status, InitiatorUserID: user})
		switch code := SlackCode(err); {
		case err == nil:
		case threadStatusRefused(code):
			if b.sessionStatus.off.CompareAndSwap(false, true) {
				b.log.Warn("Slack does not let docsbot set an agent session's status; not setting it", "err", err)
			}
		default:
			log.Warn("setting the agent session's status failed", "status", status, "err", err)
		}
	})
}
