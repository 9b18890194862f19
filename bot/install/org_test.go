package install_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestOrgWideInstall: an organisation on Enterprise Grid installs docsbot
// once for all its workspaces; a job started in a workspace of it other
// than the installer's is posted with the organisation's token, by its bot
// user, beside a workspace that installed on its own; the calls Slack
// needs the workspace named in with that token (the editors' user group)
// name it.
func TestOrgWideInstall(t *testing.T) {
	t.Parallel()
	h, f := installWorld(t)
	const (
		grid, west, east = "E0GRID", "T0WEST", "T0EAST"
		gridBot          = "U0BOTGRID"
		wendy, eve       = "U0WENDY", "U0EVE"
		eastChan         = "C0EAST"
	)
	// An org-wide app has one bot user in every workspace of the organisation.
	for _, team := range []string{west, east} {
		h.Slack.AddWorkspace(slacktest.Workspace{Team: team, Name: team, Enterprise: grid, EnterpriseName: "Grid Corp", BotUserID: gridBot, BotID: "B0BOTGRID"})
	}
	h.Slack.AddMember(west, wendy, "wendy")
	h.Slack.AddMember(east, eve, "eve")
	h.Slack.AddChannel(slacktest.Channel{ID: eastChan, Name: "east-docs", BotMember: true, Team: east})
	h.Slack.AddUserGroup("S0EDITORS", eve, olive)
	installBot(h, f, func(c *app.Config) { c.Bot.Editors = roles.Editors{Groups: []string{"S0EDITORS"}} })

	h.Slack.InstallOrgWide(true)
	if status, page, _ := installAs(h, f, west, wendy); status != http.StatusOK || !strings.Contains(page, "docsbot was added to Grid Corp") {
		t.Fatalf("org-wide install: %d %s", status, page)
	}
	h.Slack.InstallOrgWide(false)
	if status, page, _ := installAs(h, f, other, olive); status != http.StatusOK {
		t.Fatalf("the other company's install: %d %s", status, page)
	}
	list := installations(t, h)
	if len(list) != 2 {
		t.Fatalf("%d installations, want the organisation's and the other company's", len(list))
	}
	for _, in := range list {
		if in.Workspace.Enterprise == grid && (!in.OrgWide || in.Workspace.Team != "" || in.ID() != "E"+grid) {
			t.Errorf("the organisation's installation: %+v", in.Workspace)
		}
	}

	h.Command(eve, eastChan, agent.Command, "Rewrite the SSO page")
	h.Command(olive, otherChan, agent.Command, "Rewrite the quickstart")
	h.WaitFor("a job in each", func() bool { return len(h.Roots(eastChan)) == 1 && len(h.Roots(otherChan)) == 1 })
	if r := h.Roots(eastChan)[0]; r.User != gridBot {
		t.Errorf("the east workspace's root was posted by %s, want the organisation's bot %s", r.User, gridBot)
	}
	h.Idle()
	groups := h.Slack.Calls("usergroups.users.list")
	for _, c := range groups {
		if c.Team == east && (c.Error != "" || c.Params["team_id"] != east) {
			t.Errorf("the editors' group read with the organisation's token as %+v, want team_id %s", c, east)
		}
	}
	if bad := wrongTeamCalls(h, map[string]string{eastChan: east, otherChan: other}); len(bad) > 0 {
		t.Errorf("calls in another workspace than their channel's, or refused: %+v", bad)
	}
}
