package deploy

import (
	"context"
	"log/slog"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// How many deployments /docs-deploy status lists, of how many of the
// latest it looks through for those the person may see.
const (
	statusShown  = 10
	statusLooked = 50
)

// doStatus lists, privately, the deployments and previews started from
// Slack lately that the person may see: those started in channels they are
// in (bot.ChannelsOf), and their own. When Slack cannot say which channels
// they are in, it lists their own and says so.
func (d *deploys) doStatus(ctx context.Context, w *bot.Work, req request, log *slog.Logger) error {
	all, err := d.store.Deploys.RecentDeploys(ctx, req.Team, statusLooked)
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	note := ""
	in, err := bot.ChannelsOf(ctx, d.core.SlackIn(ctx), req.User)
	if err != nil {
		log.Warn("cannot read the channels the person is in; listing their own deployments only", "err", err)
		note = "\n_docsbot could not read which channels you are in just now, so only the deployments you started are listed._"
	}
	var recs []store.DeployRecord
	for _, r := range all {
		if (r.User == req.User || in[r.Channel]) && len(recs) < statusShown {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		d.tell(ctx, req, "No deployment or preview was started from Slack lately in the channels you are in. `"+Command+"` deploys the docs."+note, log)
		return d.done(ctx, w)
	}
	lines := []string{"*Deployments and previews started from Slack lately, in the channels you are in:*"}
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
	d.tell(ctx, req, strings.Join(lines, "\n")+note, log)
	return d.done(ctx, w)
}
