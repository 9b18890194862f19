package install_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
)

// installations reads the world's installation records.
func installations(t *testing.T, h *bottest.Harness) []store.Installation {
	t.Helper()
	sealer, err := store.NewSealer(secretsKey)
	if err != nil {
		t.Fatal(err)
	}
	list, bad, err := h.OpenStore().Installations(sealer).List(context.Background())
	if err != nil || len(bad) > 0 {
		t.Fatalf("installations: %v %v", err, bad)
	}
	return list
}

// worldTeams are the workspaces of the world's channels.
var worldTeams = map[string]string{general: primary, otherChan: other, "D0OLIVE": other, "D0ALICE": primary}

// wrongTeamCalls are the Web API calls about a channel of teamOf made in
// another workspace than the channel's, or refused for their token.
func wrongTeamCalls(h *bottest.Harness, teamOf map[string]string) []slacktest.Call {
	var bad []slacktest.Call
	for _, c := range h.Slack.Calls("") {
		switch c.Error {
		case "invalid_auth", "not_authed", "token_revoked", "token_expired", "channel_not_found", "user_not_found":
			bad = append(bad, c)
			continue
		}
		if want, ok := teamOf[c.Params["channel"]]; ok && c.Team != want {
			bad = append(bad, c)
		}
	}
	return bad
}

// TestInstallByLinkServesEachWorkspaceWithItsToken: two workspaces add
// docsbot by link; each is welcomed, its installation saved with its token
// sealed, and a job started in each is posted with that workspace's token
// and no other.
func TestInstallByLinkServesEachWorkspaceWithItsToken(t *testing.T) {
	t.Parallel()
	h, f := installWorld(t)
	installBot(h, f)

	for _, in := range []struct{ team, user, name string }{{other, olive, "Other &amp; Co"}, {primary, alice, "docsbot-test"}} {
		status, page, _ := installAs(h, f, in.team, in.user)
		if status != http.StatusOK || !strings.Contains(page, "docsbot was added to") {
			t.Fatalf("%s's install ended on %d: %s", in.team, status, page)
		}
		if in.team == other && !strings.Contains(page, "docsbot was added to "+in.name) {
			t.Errorf("the page names the workspace as %q, want %q (escaped)", page, in.name)
		}
		if !h.Slack.Installed(in.team) {
			t.Errorf("Slack does not count docsbot installed in %s", in.team)
		}
	}
	list := installations(t, h)
	if len(list) != 2 {
		t.Fatalf("%d installations saved, want 2", len(list))
	}
	for _, in := range list {
		if !strings.HasPrefix(in.BotToken, "xoxb-") || in.InstalledBy == "" || in.BotUserID == "" {
			t.Errorf("installation %s: %+v", in.ID(), in.Workspace)
		}
	}
	h.WaitFor("olive's welcome", func() bool {
		for _, m := range h.Slack.Messages("D0OLIVE") {
			if strings.Contains(m.Text, "docsbot is now in *Other &amp; Co*") {
				return true
			}
		}
		return false
	})

	h.Command(olive, otherChan, agent.Command, "Rewrite the quickstart")
	h.Command(alice, general, agent.Command, "Explain the webhooks page")
	h.WaitFor("a job's root in each workspace", func() bool { return len(h.Roots(otherChan)) == 1 && len(h.Roots(general)) == 1 })
	if r := h.Roots(otherChan)[0]; r.User != otherBotUID {
		t.Errorf("the other workspace's root was posted by %s, want its own bot user %s", r.User, otherBotUID)
	}
	h.Idle()
	if bad := wrongTeamCalls(h, worldTeams); len(bad) > 0 {
		t.Errorf("calls with another workspace's token, or refused: %+v", bad)
	}
}
