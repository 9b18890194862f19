package bot

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/store"
)

// reactionAccepted marks a thread reply that went to the agent.
const reactionAccepted = "eyes"

// onMessage handles message events. Only a person's reply in the thread of a
// job becomes a follow-up; everything else is acknowledged and ignored.
func (b *Bot) onMessage(ctx context.Context, evt *socketmode.Event, client *socketmode.Client) {
	b.ack(client, evt.Request, nil)
	outer, ok := evt.Data.(slackevents.EventsAPIEvent)
	if !ok {
		return
	}
	ev, ok := outer.InnerEvent.Data.(*slackevents.MessageEvent)
	if !ok {
		return
	}
	// Slack escapes what the person typed; the agent gets it as typed.
	text := strings.TrimSpace(plain(ev.Text))
	if text == "" || !b.isThreadReply(ev) {
		return
	}
	eventID := ev.Channel + "/" + ev.TimeStamp
	if cb, ok := outer.Data.(*slackevents.EventsAPICallbackEvent); ok && cb.EventID != "" {
		eventID = cb.EventID
	}
	team := outer.TeamID
	b.spawn(ctx, startBudget, func(ctx context.Context) { b.followUp(ctx, team, eventID, text, ev) })
}

// isThreadReply reports whether ev is a person's new reply inside a thread:
// not the bot's own or another bot's, not an edit, deletion, join or other
// subtype, and not a top-level message.
func (b *Bot) isThreadReply(ev *slackevents.MessageEvent) bool {
	if ev.SubType != "" && ev.SubType != "thread_broadcast" {
		return false
	}
	if b.isOwnOrBot(ev) {
		return false
	}
	return ev.ThreadTimeStamp != "" && ev.ThreadTimeStamp != ev.TimeStamp
}

// followUp sends a thread reply to the thread's job and follows the job again.
func (b *Bot) followUp(ctx context.Context, team, eventID, text string, ev *slackevents.MessageEvent) {
	log := b.log.With("user", ev.User, "channel", ev.Channel, "thread", ev.ThreadTimeStamp)
	const noDatabase = "docsbot cannot reach its database right now, so this reply was not sent to the agent. Try again in a minute."
	// Most thread replies are not in a job's thread: look that up first, and
	// only then mark the event as handled.
	job, err := b.store.JobByThread(ctx, store.Thread{Team: team, Channel: ev.Channel, TS: ev.ThreadTimeStamp})
	if errors.Is(err, store.ErrNotFound) {
		return // a thread that is not a job's
	}
	if err != nil {
		log.Error("looking up the thread's job failed", "err", err)
		b.whisper(ctx, ev, noDatabase, log)
		return
	}
	first, err := b.store.Once(ctx, "ev:"+eventID, dedupeTTL)
	if err != nil {
		log.Error("dedupe check failed; follow-up not sent", "err", err)
		b.whisper(ctx, ev, noDatabase, log)
		return
	}
	if !first {
		log.Info("event delivered again; already handled", "event", eventID)
		return
	}
	log = log.With("job", job.ID)
	if refusal := b.access.check(ev.User, ev.Channel); refusal != "" {
		b.whisper(ctx, ev, refusal, log)
		return
	}
	if _, err := b.api.SendMessage(ctx, job.ID, text); err != nil {
		log.Warn("docs API did not take the follow-up", "err", err)
		b.whisper(ctx, ev, "This reply was not sent to the agent. "+describe(err), log)
		return
	}
	var updated *store.Job
	err = retry(ctx, log, "saving the follow-up", func() error {
		var err error
		updated, err = b.store.FollowUp(ctx, job.ID, b.cfg.PollInterval)
		return err
	})
	if err != nil {
		b.whisper(ctx, ev, "The agent got this reply, but docsbot could not save it and may not report the result. Follow the job in your docs dashboard.", log)
		return
	}
	log.Info("follow-up sent", "generation", updated.Generation)
	b.metrics.followUp()
	b.nudgePoller()
	if err := b.slack.AddReactionContext(ctx, reactionAccepted, slack.ItemRef{Channel: ev.Channel, Timestamp: ev.TimeStamp}); err != nil && slackCode(err) != "already_reacted" {
		log.Warn("reacting to the follow-up failed", "err", err)
	}
	b.updateRoot(ctx, ev.Channel, ev.ThreadTimeStamp, jobView(updated), log)
}

// whisper answers the author of a thread reply in that thread, visible only
// to them.
func (b *Bot) whisper(ctx context.Context, ev *slackevents.MessageEvent, text string, log *slog.Logger) {
	_, err := b.slack.PostEphemeralContext(ctx, ev.Channel, ev.User,
		slack.MsgOptionText(text, false), slack.MsgOptionTS(ev.ThreadTimeStamp))
	if err != nil {
		log.Warn("private reply in the thread failed", "err", err)
	}
}
