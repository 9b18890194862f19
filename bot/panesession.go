package bot

import (
	"context"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"
)

// The statuses of the pane's session docsbot sets: Slack's agent session of
// a thread of the pane (agents.sessions.setStatus), not the docs agent.
// Processing while docsbot works in the thread (Slack shows Stop), active
// when it waits for the person.
const (
	PaneSessionProcessing = "processing"
	PaneSessionActive     = "active"
)

// SetPaneSession (b.Decorations()) makes the pane's session of a thread
// (Slack's agent session: agents.sessions.setStatus) follow the work, in
// the background and in order per thread: working sets it processing
// (created the first time, user its initiator), else active. Only a thread of a direct message with the bot
// (channel D…) is the pane's; elsewhere it does nothing. If Slack refuses
// the method for good (an app without the agent view, missing_scope), that
// is logged once and sessions are skipped from then on: never fatal.
func (d Decorations) SetPaneSession(ctx context.Context, channel, threadTS, user string, working bool, log *slog.Logger) {
	b := d.b
	if b.paneSession.off.Load() || !strings.HasPrefix(channel, "D") || threadTS == "" {
		return
	}
	status := PaneSessionActive
	if working {
		status = PaneSessionProcessing
	}
	ctx = context.WithoutCancel(ctx)
	b.inOrder("session:"+channel+"/"+threadTS, func() {
		if b.paneSession.off.Load() {
			return
		}
		ctx, cancel := context.WithTimeout(ctx, editBudget)
		defer cancel()
		_, err := b.SlackIn(ctx).SetAgentSessionStatusContext(ctx, slack.AgentSessionSetStatusParameters{
			ChannelID: channel, ThreadTS: threadTS, Status: status, InitiatorUserID: user})
		switch code := SlackCode(err); {
		case err == nil:
		case threadStatusRefused(code):
			if b.paneSession.off.CompareAndSwap(false, true) {
				b.log.Warn("Slack does not let docsbot set the pane's session status (agents.sessions.setStatus); not setting it", "err", err)
			}
		default:
			log.Warn("setting the pane's session status failed", "status", status, "err", err)
		}
	})
}
