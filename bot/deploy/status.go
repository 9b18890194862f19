package deploy

import (
	"context"
	"log/slog"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// statusShown is how many deployments /docs-deploy status lists.
const statusShown = 10

// doStatus lists the deployments and previews started from Slack lately,
// privately.
func (d *deploys) doStatus(ctx context.Context, w *bot.Work, req request, log *slog.Logger) error {
	recs, err := d.store.Deploys.RecentDeploys(ctx, req.Team, statusShown)
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if len(recs) == 0 {
		d.tell(ctx, req, "No deployment or preview was started from Slack lately. `"+Command+"` deploys the docs.", log)
		return d.done(ctx, w)
	}
	lines := []string{"*Deployments and previews started from Slack lately:*"}
	now := d.cfg.Now()
	for _, r := range recs {
		icon := map[string]string{"queued": ":hourglass_flowing_sand:", "in_progress": ":hammer_and_wrench:", "success": ":white_check_mark:",
			"failure": ":x:", "unknown": ":grey_question:"}[r.State]
		if icon == "" {
			icon = ":grey_question:"
		}
		kind := "deployment"
		if r.Preview {
			kind = "preview of `" + mrkdwn.Escape(r.Branch) + "`"
		}
		if r.Project != "" {
			kind += " of `" + mrkdwn.Escape(r.Project) + "`"
		}
		line := icon + " " + kind + " by " + mrkdwn.Mention(r.User) + ", " + humanize.Ago(now.Sub(r.Started)) + ": " +
			strings.ReplaceAll(r.State, "_", " ")
		if r.Preview && mrkdwn.WebURL(r.PreviewURL) && r.State == "success" {
			line += " · " + mrkdwn.Link(r.PreviewURL, "preview")
		}
		lines = append(lines, line)
	}
	d.tell(ctx, req, strings.Join(lines, "\n"), log)
	return d.done(ctx, w)
}
