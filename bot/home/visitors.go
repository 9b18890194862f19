package home

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// visitorsShown is how many projects' visitors the Home shows, each in a
// section of its own (a Home holds at most 100 blocks).
const visitorsShown = 20

// visitorsTexts renders the Home's cached visitors summaries, one mrkdwn
// section each: for one implicit project (no projects file) its summary;
// otherwise each project's, headed by its name, or a line saying that none
// is cached and how to get one. A summary that cannot be read says so.
func (h *home) visitorsTexts(ctx context.Context, log *slog.Logger) []string {
	set := h.core.ProjectsIn(ctx)
	if set.Implicit() {
		text, ok, err := h.visitors.CachedProjectSummary(ctx, "", visitorDays)
		switch {
		case err != nil:
			log.Warn("reading the visitors cache for the Home failed", "err", err)
			return []string{"docsbot could not read its visitors cache just now."}
		case !ok:
			return []string{"No summary of the last 7 days is cached, and the Home never spends the docs API's analytics budget. " +
				"`/docs-visitors 7d` in a channel counts them; the Home shows the numbers after that."}
		}
		return []string{text}
	}
	projects := set.All()
	var out []string
	for i, p := range projects {
		if i == visitorsShown {
			out = append(out, fmt.Sprintf("…and %d more projects: `/docs-visitors project=NAME` in a channel counts one's visitors.", len(projects)-i))
			break
		}
		name := projectLabel(p.Name)
		text, ok, err := h.visitors.CachedProjectSummary(ctx, bot.ProjectKey(p), visitorDays)
		switch {
		case err != nil:
			log.Warn("reading the visitors cache for the Home failed", "project", p.Name, "err", err)
			out = append(out, name+": docsbot could not read its visitors cache just now.")
		case !ok:
			out = append(out, name+": no summary of the last 7 days is cached yet. "+
				"`/docs-visitors project="+mrkdwn.Escape(mrkdwn.Cut(p.Name, 40))+"` in a channel counts them; the Home shows the numbers after that.")
		default:
			out = append(out, "*"+name+"*\n"+text)
		}
	}
	return out
}
