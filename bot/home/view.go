package home

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// view builds the person's Home: the projects, the button (or why they may
// not use docsbot), their recent jobs and the cached visitors summary. A
// part that cannot be read says so instead of failing the whole Home.
func (h *home) view(ctx context.Context, req publishRequest, log *slog.Logger) slack.HomeTabViewRequest {
	text := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.MarkdownType, s, false, false)
	}
	plain := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
	}
	section := func(s string) slack.Block { return slack.NewSectionBlock(text(mrkdwn.Cut(s, 2900)), nil, nil) }

	blocks := []slack.Block{
		slack.NewHeaderBlock(plain("docsbot")),
		slack.NewContextBlock("", text(mrkdwn.Cut(h.projectsText(ctx), 2900))),
	}
	if refusal := h.core.Refusal(req.User, ""); refusal != "" {
		return homeView(append(blocks, section(mrkdwn.Escape(refusal))))
	}
	if h.core.ProjectsIn(ctx).Len() == 0 {
		// No docs connected: the Home is how to connect them.
		if h.settings != nil {
			blocks = append(blocks, h.settings.Blocks(ctx, req.Team, req.User)...)
		}
		return homeView(blocks)
	}
	switch {
	case req.Channel == "":
		blocks = append(blocks, section("Start a docs agent job with `/docs-agent` in a channel, or by mentioning docsbot."))
	case h.core.Refusal(req.User, req.Channel) != "":
		blocks = append(blocks, section("docsbot takes jobs only in some channels, not in your messages with it: "+
			"start one with `/docs-agent` in a channel where it is enabled."))
	default:
		if viewer := h.core.Editors().Refusal(ctx, req.User, req.Channel, ""); viewer != "" {
			// The core's words name the editors (bot-made mrkdwn).
			blocks = append(blocks, section(viewer))
			break
		}
		button := slack.NewButtonBlockElement(jobdraft.ActionNewJob, req.Channel, plain("New docs job")).WithStyle(slack.StylePrimary)
		blocks = append(blocks, slack.NewActionBlock("new_job", button),
			slack.NewContextBlock("", text("The job starts a thread in your messages with docsbot; reply there to follow up.")))
	}

	blocks = append(blocks, slack.NewDividerBlock(), slack.NewHeaderBlock(plain("Your recent docs agent jobs")))
	lines, err := h.recentJobs(ctx, req)
	switch {
	case err != nil:
		log.Warn("reading the person's jobs for the Home failed", "err", err)
		blocks = append(blocks, section("docsbot could not read your jobs just now. Open Home again in a minute."))
	case len(lines) == 0:
		blocks = append(blocks, section("You have no recent docs agent jobs. Start one with the button above, `/docs-agent`, or by mentioning docsbot."))
	}
	for _, l := range lines {
		blocks = append(blocks, section(l))
	}

	if h.visitors != nil {
		blocks = append(blocks, slack.NewDividerBlock(), slack.NewHeaderBlock(plain("Docs visitors, last 7 days")))
		for _, s := range h.visitorsTexts(ctx, log) {
			blocks = append(blocks, section(s))
		}
	}
	if h.health != nil {
		blocks = append(blocks, slack.NewDividerBlock(), slack.NewHeaderBlock(plain("Docs health, last 30 days")))
		for _, s := range h.healthTexts(ctx, req.User, log) {
			blocks = append(blocks, section(s))
		}
	}
	editor := h.core.Editors().Refusal(ctx, req.User, req.Channel, "") == ""
	if h.quality != nil && editor {
		blocks = append(blocks, slack.NewDividerBlock(), slack.NewHeaderBlock(plain("Answers from the docs, last 7 days")))
		for _, s := range h.qualityTexts(ctx, req.Team, log) {
			blocks = append(blocks, section(s))
		}
	}
	if h.cfg.Help != nil && editor {
		blocks = append(blocks, slack.NewDividerBlock(), slack.NewHeaderBlock(plain("Help channels")))
		blocks = append(blocks, section(h.helpText(ctx, log)))
	}
	if h.settings != nil {
		blocks = append(blocks, h.settings.Blocks(ctx, req.Team, req.User)...)
	}
	return homeView(blocks)
}

// qualityTexts are the figures of the questions docsbot answered in
// workspace team over the last qualityDays days, for editors: the implicit
// project's, or each project's of the workspace (bot.ProjectsIn) with
// questions, under its name (visitorsShown of them); a line saying there
// were none, or that they cannot be read. They are counts, read from the
// store: the Home spends nothing.
func (h *home) qualityTexts(ctx context.Context, team string, log *slog.Logger) []string {
	set := h.core.ProjectsIn(ctx)
	var out []string
	projects := set.All()
	for i, p := range projects {
		key, label := bot.ProjectKey(p), ""
		if !set.Implicit() {
			label = "*" + projectLabel(p.Name) + "*\n"
		}
		if len(out) == visitorsShown {
			out = append(out, fmt.Sprintf("…and %d more projects: `/docs-health quality project=NAME` in a channel shows one's.", len(projects)-i))
			break
		}
		text, ok, err := h.quality.QualityText(ctx, team, key, qualityDays)
		switch {
		case err != nil:
			log.Warn("reading the answers' figures for the Home failed", "project", p.Name, "err", err)
			out = append(out, label+"docsbot could not read how its answers came out just now.")
		case ok:
			out = append(out, label+text)
		}
	}
	if len(out) == 0 {
		return []string{"docsbot answered no questions from the docs in the last 14 days."}
	}
	return append(out, "`/docs-health quality` in a channel shows the questions docsbot could not answer well, with *Make this a docs job*.")
}

// helpText lists the channels whose answer mode is not the default, for
// editors.
func (h *home) helpText(ctx context.Context, log *slog.Logger) string {
	lines, err := h.cfg.Help.HelpLines(ctx)
	switch {
	case err != nil:
		log.Warn("reading the help channels for the Home failed", "err", err)
		return "docsbot could not read the help channels' modes just now."
	case len(lines) == 0:
		return "Every channel answers when asked. `/docs-ask here auto` in a channel answers its questions without a mention."
	}
	return strings.Join(lines, "\n")
}

// healthTexts are the Home's docs health, one mrkdwn section each: for the
// implicit project its cached summary; with a projects file each
// project's, headed by its name, or a line saying that none is cached and
// how to get one (as visitorsTexts does). The readers' words are in it only
// when bot.Sight says the viewer sees them (a member of the organisation),
// and otherwise why not, once. The Home never spends the analytics budget.
func (h *home) healthTexts(ctx context.Context, viewer string, log *slog.Logger) []string {
	sight := h.core.Sight(ctx, viewer, "")
	set := h.core.ProjectsIn(ctx)
	if set.Implicit() {
		return []string{h.healthText(ctx, "", "", sight, log)}
	}
	projects := set.All()
	var out []string
	for i, p := range projects {
		if i == visitorsShown {
			out = append(out, fmt.Sprintf("…and %d more projects: `/docs-health project=NAME` in a channel shows one's docs health.", len(projects)-i))
			break
		}
		out = append(out, h.healthText(ctx, bot.ProjectKey(p), p.Name, sight, log))
	}
	if !sight.Words {
		out = append(out, sight.Why)
	}
	return out
}

// healthText is the cached docs health of the project keyed key, named
// name ("" for the implicit project, which is not named).
func (h *home) healthText(ctx context.Context, key, name string, sight bot.Sight, log *slog.Logger) string {
	label, command := "", "`/docs-health`"
	if name != "" {
		label = projectLabel(name) + ": "
		command = "`/docs-health project=" + mrkdwn.Escape(mrkdwn.Cut(name, 40)) + "`"
	}
	text, ok, err := h.health.CachedHealth(ctx, key, sight.Words)
	switch {
	case err != nil:
		log.Warn("reading the docs health cache for the Home failed", "project", name, "err", err)
		return label + "docsbot could not read its docs health cache just now."
	case !ok && name != "":
		return label + "no docs health of the last 30 days is cached yet. " + command + " in a channel reads it; the Home shows the numbers after that."
	case !ok:
		return "No docs health of the last 30 days is cached, and the Home never spends the analytics budget. " +
			command + " in a channel reads it; the Home shows the numbers after that."
	}
	if name != "" {
		text = "*" + projectLabel(name) + "*\n" + text
	}
	if !sight.Words && name == "" {
		return text + "\n" + sight.Why
	}
	return text
}

// homeView wraps blocks in a Home tab view.
func homeView(blocks []slack.Block) slack.HomeTabViewRequest {
	return slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: blocks}}
}
