package agent

import (
	"context"
	"log/slog"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// What the rest of docsbot (the App Home, bot/home) may use of the agent:
// a person's recent jobs as the list shows them, a hook called when one of
// a person's jobs changes, and the "New docs job" button
// (jobdraft.ActionNewJob), which opens the job modal.

// Feature is the agent registered on a bot, as other features see it
// through the small interfaces they declare. Register returns it.
type Feature struct{ a *agent }

// RecentJobs renders the person's most recent jobs (up to n), newest first,
// one mrkdwn line each as "/docs-agent list" shows them: status, age, id,
// the instruction's start, the thread and the pull request links.
func (f *Feature) RecentJobs(ctx context.Context, team, user string, n int) ([]string, error) {
	jobs, err := f.a.store.RecentJobs(ctx, team, user, n)
	if err != nil {
		return nil, err
	}
	lines := make([]string, 0, len(jobs))
	for _, j := range jobs {
		lines = append(lines, f.a.jobLine(ctx, &j, false, true))
	}
	return lines, nil
}

// RecentJobRecords returns the records of the person's most recent jobs (up
// to n), newest first: what the App Home needs to name each job's project
// (store.Job.Project, bot.ProjectKey).
func (f *Feature) RecentJobRecords(ctx context.Context, team, user string, n int) ([]store.Job, error) {
	return f.a.store.RecentJobs(ctx, team, user, n)
}

// JobLine renders one job as RecentJobs does, without its project, which
// the caller names itself: one mrkdwn line, escaped.
func (f *Feature) JobLine(ctx context.Context, j store.Job) string {
	return f.a.jobLine(ctx, &j, false, false)
}

// OnJobChange registers fn, called with a job's record after the job is
// linked to its thread, after a follow-up restarts it and once its finish
// is recorded (the record then holds the final status). fn must be quick:
// it runs in the agent's work. Register before the bot runs.
func (f *Feature) OnJobChange(fn func(ctx context.Context, j store.Job)) {
	f.a.changed = append(f.a.changed, fn)
}

// jobChanged calls the hooks of OnJobChange.
func (a *agent) jobChanged(ctx context.Context, j store.Job) {
	for _, fn := range a.changed {
		fn(ctx, j)
	}
}

// onNewJob opens the job modal from the App Home's "New docs job" button;
// the job starts a thread in the channel the button names (the person's
// direct messages with docsbot). The Home has no response_url, so a
// refusal or a lost channel is shown in a modal of its own.
func (a *agent) onNewJob(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	channel := ""
	if len(ic.ActionCallback.BlockActions) > 0 {
		channel = ic.ActionCallback.BlockActions[0].Value
	}
	log := a.log.With("user", ic.User.ID, "channel", channel)
	r.Ack(nil)
	refusal := a.core.Editors().RefusalInAck(ctx, ic.User.ID, channel, "")
	if channel == "" {
		refusal = "docsbot does not know where to post this job. Open the app's Messages tab, then come back to Home and try again."
	}
	if refusal != "" {
		log.Info("new job from the App Home refused", "reason", refusal)
		a.showNotice(ctx, ic.TriggerID, refusal, log)
		return
	}
	a.openModal(ctx, ic.TriggerID, ic.User.ID, modalTarget{Team: ic.Team.ID, Channel: channel}, "", "")
}

// showNotice opens a modal that only says text.
func (a *agent) showNotice(ctx context.Context, trigger, text string, log *slog.Logger) {
	plain := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
	}
	view := slack.ModalViewRequest{
		Type:   slack.VTModal,
		Title:  plain("Docs agent"),
		Close:  plain("Close"),
		Blocks: slack.Blocks{BlockSet: []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, mrkdwn.Escape(text), false, false), nil, nil)}},
	}
	if _, err := a.core.SlackIn(ctx).OpenViewContext(ctx, trigger, view); err != nil {
		log.Warn("showing a notice in a modal failed", "err", err)
	}
}

// finished is j's record once its finish is recorded.
func finished(j store.Job, status docsapi.Status, pr string) store.Job {
	j.Status, j.PRLink = string(status), pr
	return j
}
