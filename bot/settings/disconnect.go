package settings

import (
	"context"
	"fmt"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// onDisconnect disconnects the project its value names, for an admin of
// the workspace the click came from (the table in settings.go). The
// answer is a modal: the Home has no place for a private message.
func (s *settings) onDisconnect(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	r.Ack(nil)
	team, user, name := ic.Team.ID, ic.User.ID, pressed(ic)
	say := func(text string) {
		if _, err := s.core.SlackIn(ctx).OpenViewContext(ctx, ic.TriggerID, noticeModal(text)); err != nil {
			s.log.Warn("the answer to Disconnect could not be shown", "user", user, "err", err)
		}
	}
	if !s.core.ConnectsInSlack() {
		say(notConnectable)
		return
	}
	if refusal := s.core.AdminRefusal(ctx, user); refusal != "" {
		say(refusal)
		s.refused(ctx, team, user, "disconnect "+name, refusal)
		return
	}
	list, _, err := s.store.Connections.List(ctx, team)
	if err != nil {
		s.log.Warn("the connected docs projects cannot be read", "err", err)
		say("docsbot cannot reach its storage right now, so nothing was changed. Try again in a minute.")
		return
	}
	for _, c := range list {
		if c.Name != name || !c.Retired.IsZero() {
			continue
		}
		c.Retired = s.cfg.Now()
		if err := s.store.Connections.Save(ctx, c); err != nil {
			s.log.Warn("a docs project could not be disconnected", "err", err)
			say("docsbot cannot reach its storage right now, so nothing was changed. Try again in a minute.")
			return
		}
		s.changed(ctx, team, user, "disconnect:"+name+":"+c.Retired.Format("20060102T150405.000"),
			fmt.Sprintf("disconnected the docs project `%s` (project id %s)", name, c.ProjectID),
			"The docs project *"+mrkdwn.Escape(name)+"* is disconnected: nothing new starts in it. Jobs already running in it are still followed to the end.")
		return
	}
	say("The docs project `" + mrkdwn.Escape(mrkdwn.Cut(name, 40)) + "` is not connected here (any more).")
}
