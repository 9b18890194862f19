package home

import (
	"context"
	"fmt"
	"strings"

	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// projectsText is the Home's line about the docs projects: for one implicit
// project (no projects file) the project it is connected to (its id,
// DOCS_PROJECT_ID); otherwise each project the bot serves with the
// channels it is the default of.
func (h *home) projectsText(ctx context.Context) string {
	set := h.core.ProjectsIn(ctx)
	if set.Implicit() {
		id := set.All()[0].ID
		if id == "" {
			return "docsbot is not connected to a docs project."
		}
		return "Connected to the docs project `" + mrkdwn.Escape(mrkdwn.Cut(id, 100)) + "`."
	}
	var b strings.Builder
	switch set.Len() {
	case 0:
		return "docsbot has no docs connected in this workspace yet."
	case 1:
		b.WriteString("docsbot serves one docs project:")
	default:
		fmt.Fprintf(&b, "docsbot serves %d docs projects:", set.Len())
	}
	for _, p := range set.All() {
		b.WriteString("\n• " + projectLabel(p.Name))
		if here := h.core.ChannelsHere(ctx, p.Channels); len(here) > 0 {
			channels := make([]string, len(here))
			for i, c := range here {
				channels[i] = "<#" + mrkdwn.Escape(c) + ">"
			}
			b.WriteString(": the default in " + strings.Join(channels, ", "))
		}
	}
	if set.Len() > 1 {
		b.WriteString("\nIn other channels docsbot asks, or takes `project=NAME` at the start or the end of a command.")
	}
	return b.String()
}

// projectLabel shows a project's name.
func projectLabel(name string) string { return "`" + mrkdwn.Escape(mrkdwn.Cut(name, 40)) + "`" }

// recentJobs renders the person's recent jobs, each with its project when
// the bot serves projects from a file and the agent gives the jobs' records
// (JobRecords).
func (h *home) recentJobs(ctx context.Context, req publishRequest) ([]string, error) {
	records, ok := h.jobs.(JobRecords)
	if !ok || h.core.ProjectsIn(ctx).Implicit() {
		return h.jobs.RecentJobs(ctx, req.Team, req.User, jobsShown)
	}
	jobs, err := records.RecentJobRecords(ctx, req.Team, req.User, jobsShown)
	if err != nil {
		return nil, err
	}
	lines := make([]string, len(jobs))
	for i, j := range jobs {
		line := records.JobLine(ctx, j)
		if name := h.jobProject(j.Project); name != "" {
			line = projectLabel(name) + " · " + line
		}
		lines[i] = line
	}
	return lines, nil
}

// jobProject is the name shown for a job recorded with project key key
// (bot.ProjectKey): a record from before the projects file ("") belongs to
// the only project when there is one, else to none shown; a project since
// removed from the file is still named.
func (h *home) jobProject(key string) string {
	if key != "" {
		return key
	}
	if p, ok := h.core.Project(key); ok {
		return p.Name
	}
	return ""
}
