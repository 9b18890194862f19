package settings

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/store"
)

// Blocks are the Settings section of user's Home (home.Settings): for an
// admin, the docs projects served here, each with where it comes from and
// a hint of its key, Connect docs and, for a project connected from
// Slack, Disconnect; then the other settings (table.go), each with its
// value and where it comes from (the environment, or set in Slack by whom
// and when), the buttons of their modals and Clear for a value set in
// Slack; for anyone else, nothing, or, while no docs are connected, who
// can connect them. ctx names the workspace.
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
	if projects.Len() == 0 {
		if !s.core.ConnectsInSlack() {
			return append(blocks, slack.NewSectionBlock(text("*docsbot has no docs connected in this workspace.*"), nil, nil),
				slack.NewContextBlock("", text(notConnectable)))
		}
		return append(blocks, slack.NewSectionBlock(text("*Connect your docs to start.* docsbot has no docs project in this workspace yet: "+
			"connect one with its API key, and people here can start docs agent jobs and ask the docs."), nil,
			slack.NewAccessory(button(ActionConnect, "Connect docs", "", slack.StylePrimary))))
	}
	blocks = append(blocks, s.projectBlocks(ctx, team, projects.All())...)
	return append(blocks, s.settingBlocks(ctx, team)...)
}

// projectBlocks are the docs projects served here, and Connect another.
func (s *settings) projectBlocks(ctx context.Context, team string, projects []project.Project) []slack.Block {
	conns := map[string]store.Connection{}
	if s.core.ConnectsInSlack() {
		if list, _, err := s.store.Connections.List(ctx, team); err == nil {
			for _, c := range list {
				conns[c.Name] = c
			}
		} else {
			s.log.Warn("the connected docs projects cannot be read for the Home", "err", err)
		}
	}
	blocks := []slack.Block{slack.NewSectionBlock(text("*Docs projects*"), nil, nil)}
	for _, p := range projects {
		line := "`" + mrkdwn.Escape(p.Name) + "` · project `" + mrkdwn.Escape(mrkdwn.Cut(p.ID, 100)) + "` · key `" + store.KeyHint(p.APIKey.Reveal()) + "`"
		if p.Assistant.Set() {
			line += " · answers from `" + mrkdwn.Escape(p.Assistant.Domain) + "`"
		}
		c, connected := conns[p.Name]
		if !connected || p.Workspace == "" {
			blocks = append(blocks, slack.NewContextBlock("", text(line+"\n"+fromFile(p))))
			continue
		}
		line += "\nconnected from Slack by <@" + mrkdwn.Escape(c.By) + "> on " + day(c.At)
		disconnect := button(ActionDisconnect, "Disconnect", p.Name, slack.StyleDanger)
		disconnect.Confirm = slack.NewConfirmationBlockObject(plain("Disconnect "+mrkdwn.Cut(p.Name, 40)+"?"),
			plain("Nothing new will start in this project from Slack. Jobs running in it are still followed to the end."),
			plain("Disconnect"), plain("Cancel"))
		blocks = append(blocks, slack.NewSectionBlock(text(line), nil, slack.NewAccessory(disconnect)))
	}
	if !s.core.ConnectsInSlack() {
		return append(blocks, slack.NewContextBlock("", text(notConnectable)))
	}
	return append(blocks, slack.NewActionBlock("settings_actions", button(ActionConnect, "Connect another project", "", "")))
}

// settingBlocks are the settings of the table (the Channels, People and
// Digests and limits sections), each with its value and where it comes
// from, and Clear for each workspace-wide value set in Slack.
func (s *settings) settingBlocks(ctx context.Context, team string) []slack.Block {
	set := s.setIn(ctx, team)
	blocks := []slack.Block{slack.NewSectionBlock(text("*"+modalChannels+"*\n"+s.channelLines(ctx, team, set)), nil,
		slack.NewAccessory(button(ActionChannels, "Set a channel up", "", "")))}
	var clear []slack.BlockElement
	for _, modal := range []struct{ title, action, label string }{{modalPeople, ActionPeople, "Change people"}, {modalLimits, ActionLimits, "Change limits"}} {
		lines := []string{"*" + modal.title + "*"}
		for _, st := range rowsOf(modal.title) {
			if st.Kind == KindDigest {
				if s.digestStore(st) != nil {
					lines = append(lines, s.digestLine(ctx, team, st))
				}
				continue
			}
			v, ok := set[st.Key]
			if !ok || v.Value == "" {
				lines = append(lines, "*"+st.Label+"*: "+s.environmentText(st)+" · from the environment (`"+st.Env+"`)")
				continue
			}
			lines = append(lines, "*"+st.Label+"*: "+show(st.Kind, v.Value)+" · set in Slack by <@"+mrkdwn.Escape(v.By)+"> on "+day(v.At))
			b := button(ActionClear+st.Key, "Clear "+st.Label, st.Key, "")
			b.Confirm = slack.NewConfirmationBlockObject(plain("Clear "+st.Label+"?"),
				plain("The environment's "+st.Env+" applies again in this workspace."), plain("Clear"), plain("Cancel"))
			clear = append(clear, b)
		}
		blocks = append(blocks, slack.NewSectionBlock(text(strings.Join(lines, "\n")), nil,
			slack.NewAccessory(button(modal.action, modal.label, "", ""))))
	}
	if len(clear) > 0 {
		blocks = append(blocks, slack.NewActionBlock("settings_clear", clear...))
	}
	return blocks
}

// maxChannelLines bounds the channels the Home lists.
const maxChannelLines = 10

// channelLines are the channels set up in Slack, a line each: their
// answer mode set (here or with `/docs-ask here`), default project and
// whether docsbot works there.
func (s *settings) channelLines(ctx context.Context, team string, set map[string]store.WorkspaceSetting) string {
	byChannel := map[string][]string{}
	if modes, err := s.store.Modes.Modes(ctx); err == nil {
		for _, m := range modes {
			if m.Workspace.Team == team {
				byChannel[m.Channel] = append(byChannel[m.Channel], "answers *"+mrkdwn.Escape(m.Mode)+"* (set by <@"+mrkdwn.Escape(m.By)+"> on "+day(m.At)+")")
			}
		}
	} else {
		s.log.Warn("the channels' answer modes cannot be read for the Home", "err", err)
	}
	for k, v := range set {
		rest, ok := strings.CutPrefix(k, "channel:")
		ch, what, _ := strings.Cut(rest, ":")
		if !ok || v.Value == "" {
			continue
		}
		st := row(what)
		byChannel[ch] = append(byChannel[ch], strings.ToLower(st.Label[:1])+st.Label[1:]+" "+show(st.Kind, v.Value)+
			" (set by <@"+mrkdwn.Escape(v.By)+"> on "+day(v.At)+")")
	}
	if len(byChannel) == 0 {
		return "No channel is set up here yet: `/docs-ask here`, the projects file's channels and the environment's apply."
	}
	channels := slices.Sorted(maps.Keys(byChannel))
	var lines []string
	for i, ch := range channels {
		if i == maxChannelLines {
			lines = append(lines, "and "+strconv.Itoa(len(channels)-i)+" more")
			break
		}
		slices.Sort(byChannel[ch])
		lines = append(lines, "<#"+mrkdwn.Escape(ch)+">: "+strings.Join(byChannel[ch], " · "))
	}
	return strings.Join(lines, "\n")
}

// environmentText is the environment's value of st, as the Home shows it.
func (s *settings) environmentText(st Setting) string {
	if v := s.cfg.Environment[st.Key]; v != "" {
		return show(st.Kind, v)
	}
	return st.None
}

// show is a value of kind as the Home shows it.
func show(kind Kind, v string) string {
	switch kind {
	case KindPeople:
		e, err := roles.ParseEditors(strings.Fields(v))
		if err != nil {
			return "`" + mrkdwn.Escape(mrkdwn.Cut(v, 100)) + "`"
		}
		return e.Mentions()
	case KindChannel:
		return "<#" + mrkdwn.Escape(v) + ">"
	case KindDigest:
		var out []string
		for _, ch := range strings.Fields(v) {
			out = append(out, "<#"+mrkdwn.Escape(ch)+">")
		}
		return strings.Join(out, ", ")
	case KindTime:
		sched, err := digest.Parse(v)
		if err != nil {
			return "`" + mrkdwn.Escape(mrkdwn.Cut(v, 100)) + "`"
		}
		return mrkdwn.Escape(sched.Text(digest.Weekly)) + " (daily digests every day at that time)"
	case KindMode, KindSwitch:
		return "*" + mrkdwn.Escape(v) + "*"
	case KindProject:
		return "`" + mrkdwn.Escape(v) + "`"
	}
	return mrkdwn.Escape(v)
}

// day is when a setting was set, as the Home shows it.
func day(t time.Time) string { return t.UTC().Format("2 Jan 2006") }

// setIn is what team set in Slack, read now; nothing when it cannot be
// read (said in the log).
func (s *settings) setIn(ctx context.Context, team string) map[string]store.WorkspaceSetting {
	all, err := s.store.Settings.All(ctx, team)
	if err != nil {
		s.log.Warn("the settings set in Slack cannot be read", "team", team, "err", err)
	}
	return all
}

// serves reports whether a project named name is served in the workspace
// ctx names.
func (s *settings) serves(ctx context.Context, name string) bool {
	_, ok := s.core.ProjectsIn(ctx).Get(name)
	return ok
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
