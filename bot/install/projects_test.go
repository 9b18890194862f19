package install_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestProjectsServeTheirWorkspaces: with the projects file's teams, each
// workspace sees, names and reaches only its own project, and one that no
// project serves is told privately, at every way in, that an admin
// connects its docs, with nothing started.
func TestProjectsServeTheirWorkspaces(t *testing.T) {
	t.Parallel()
	const third, tom, thirdChan = "T0THIRD", "U0TOM", "C0THIRD"
	h, f := installWorld(t)
	h.Slack.AddWorkspace(slacktest.Workspace{Team: third, Name: "Third Ltd", BotUserID: "U0BOTTHIRD", BotID: "B0BOTTHIRD"})
	h.Slack.AddMember(third, tom, "tom")
	h.Slack.AddChannel(slacktest.Channel{ID: thirdChan, Name: "third-general", BotMember: true, Team: third})
	h.AddProject(bottest.Project{Name: "docs", API: h.API, Channels: []string{general}, Teams: []string{primary}})
	otherAPI := h.AddProject(bottest.Project{Name: "olives", Channels: []string{otherChan}, Teams: []string{other}})
	installBot(h, f)
	for _, in := range []struct{ team, user string }{{primary, alice}, {other, olive}, {third, tom}} {
		installAs(h, f, in.team, in.user)
	}

	// Naming another workspace's project: unknown here, and only this
	// workspace's projects are listed.
	h.Command(alice, general, agent.Command, "project=olives Rewrite the quickstart")
	told := h.WaitForEphemeral(alice, "There is no docs project `olives`")
	if !strings.Contains(told, "The projects are `docs`:") {
		t.Errorf("naming another workspace's project was answered %s", told)
	}

	h.Command(olive, otherChan, agent.Command, "Rewrite the quickstart")
	h.WaitFor("olive's job on her workspace's project", func() bool { return len(otherAPI.Jobs()) == 1 })
	if n := len(h.API.Jobs()); n != 0 {
		t.Errorf("%d jobs reached the other workspace's project", n)
	}

	// The workspace no project serves.
	ack := string(h.Command(tom, thirdChan, agent.Command, "Rewrite the quickstart").Payload)
	if !strings.Contains(ack, "no docs connected in this workspace") {
		t.Errorf("a command where no docs are connected was answered %s", ack)
	}
	if _, err := h.Slack.Mention(t.Context(), slacktest.UserMessage{ChannelID: thirdChan, UserID: tom, Text: "Document the webhooks"}); err != nil {
		t.Fatal(err)
	}
	if told := h.WaitForEphemeral(tom, "no docs connected"); told != project.NotConnected {
		t.Errorf("tom's mention was answered %q", told)
	}
	if n := len(h.Roots(thirdChan)); n != 0 {
		t.Errorf("%d posts in the workspace with no docs", n)
	}
	if n := len(h.API.Jobs()) + len(otherAPI.Jobs()); n != 1 {
		t.Errorf("%d jobs in all, want olive's alone", n)
	}
}

// TestHomeNamesOnlyItsWorkspacesChannels: a projects-file project serving
// two workspaces, the default in a channel of each, is shown on each
// workspace's Home with that workspace's channel alone: never the other
// workspace's channel id.
func TestHomeNamesOnlyItsWorkspacesChannels(t *testing.T) {
	t.Parallel()
	h, f := installWorld(t)
	h.AddProject(bottest.Project{Name: "docs", API: h.API, Channels: []string{general, otherChan}, Teams: []string{primary, other}})
	installBot(h, f)
	for _, in := range []struct{ team, user string }{{primary, alice}, {other, olive}} {
		installAs(h, f, in.team, in.user)
	}
	for _, w := range []struct{ user, here, elsewhere string }{{alice, general, otherChan}, {olive, otherChan, general}} {
		if _, err := h.Slack.OpenHome(t.Context(), w.user); err != nil {
			t.Fatal(err)
		}
		var home string
		h.WaitFor(w.user+"'s Home with the projects", func() bool {
			v, _ := h.Slack.HomeView(w.user)
			home = bottest.Rendered(slacktest.Message{Blocks: v.Blocks})
			return strings.Contains(home, "docsbot serves one docs project")
		})
		if !strings.Contains(home, "<#"+w.here+">") {
			t.Errorf("%s's Home does not name its own channel %s:\n%s", w.user, w.here, home)
		}
		if strings.Contains(home, w.elsewhere) {
			t.Errorf("%s's Home names another workspace's channel:\n%s", w.user, home)
		}
	}
}
