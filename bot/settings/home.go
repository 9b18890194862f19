package settings

import (
	"context"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// Blocks are the Settings section of user's Home (home.Settings): for an
// admin, the docs projects served here, each with where it comes from and
// a hint of its key, Connect docs and, for a project connected from
// Slack, Disconnect; for anyone else, nothing, or, while no docs are
// connected, who can connect them. ctx names the workspace.
func (f *Feature) Blocks(ctx context.Context, team, user string) []slack.Block {
	s := f.s
	projects := s.core.ProjectsIn(ctx)
	if !s.core.IsAdmin(ctx, user) {
		if projects.Len() > 0 {
			return nil
		}
		return []slack.Block{slack.NewSectionBlock(text("*docsbot has no docs connected in this workspace yet.* "+s.core.AdminsText(ctx)+" can connect them from here."), nil, nil)}
	}
	blocks := []slack.Block{slack.NewDividerBlock(), slack.NewHeaderBlock(plain("Settings"))}
	if !s.core.ConnectsInSlack() {
		if projects.Len() == 0 {
			blocks = append(blocks, slack.NewSectionBlock(text("*docsbot has no docs connected in this workspace.*"), nil, nil))
		}
		return append(blocks, slack.NewContextBlock("", text(notConnectable)))
	}
	conns := map[string]store.Connection{}
	if list, _, err := s.store.Connections.List(ctx, team); err == nil {
		for _, c := range list {
			conns[c.Name] = c
		}
	} else {
		s.log.Warn("the connected docs projects cannot be read for the Home", "err", err)
	}
	if projects.Len() == 0 {
		blocks = append(blocks, slack.NewSectionBlock(text("*Connect your docs to start.* docsbot has no docs project in this workspace yet: "+
			"connect one with its API key, and people here can start docs agent jobs and ask the docs."), nil,
			slack.NewAccessory(button(ActionConnect, "Connect docs", "", slack.StylePrimary))))
		return blocks
	}
	blocks = append(blocks, slack.NewSectionBlock(text("*Docs projects*"), nil, nil))
	for _, p := range projects.All() {
		line := "`" + mrkdwn.Escape(p.Name) + "` · project `" + mrkdwn.Escape(mrkdwn.Cut(p.ID, 100)) + "` · key `" + store.KeyHint(p.APIKey.Reveal()) + "`"
		if p.Assistant.Set() {
			line += " · answers from `" + mrkdwn.Escape(p.Assistant.Domain) + "`"
		}
		c, connected := conns[p.Name]
		if !connected || p.Workspace == "" {
			blocks = append(blocks, slack.NewContextBlock("", text(line+"\n"+fromFile(p))))
			continue
		}
		line += "\nconnected from Slack by <@" + mrkdwn.Escape(c.By) + "> on " + c.At.UTC().Format("2 Jan 2006")
		disconnect := button(ActionDisconnect, "Disconnect", p.Name, slack.StyleDanger)
		disconnect.Confirm = slack.NewConfirmationBlockObject(plain("Disconnect "+mrkdwn.Cut(p.Name, 40)+"?"),
			plain("Nothing new will start in this project from Slack. Jobs running in it are still followed to the end."),
			plain("Disconnect"), plain("Cancel"))
		blocks = append(blocks, slack.NewSectionBlock(text(line), nil, slack.NewAccessory(disconnect)))
	}
	return append(blocks, slack.NewActionBlock("settings_actions", button(ActionConnect, "Connect another project", "", "")))
}

// fromFile says where a project not connected from Slack is set.
func fromFile(p project.Project) string {
	if p.Implicit {
		return "set by whoever runs docsbot: `DOCS_PROJECT_ID` and `DOCS_API_KEY`"
	}
	return "set by whoever runs docsbot: the projects file"
}

// button is a Home button.
func button(action, label, value string, style slack.Style) *slack.ButtonBlockElement {
	b := slack.NewButtonBlockElement(action, value, plain(label))
	b.Style = style
	return b
}
