package install_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
)

// TestInstallOnlyFromTheTeamsServed: with DOCSBOT_TEAMS, an install from
// another workspace is refused after Slack's answer, its token handed back
// (auth.revoke) and nothing saved, while a workspace of the list installs;
// a workspace taken off the list is no longer served.
func TestInstallOnlyFromTheTeamsServed(t *testing.T) {
	t.Parallel()
	h, f := installWorld(t)
	installBot(h, f, func(c *app.Config) { c.Install.Teams = []string{primary} })

	status, page, _ := installAs(h, f, other, olive)
	if status != http.StatusForbidden || !strings.Contains(page, "cannot be added to Other &amp; Co") {
		t.Errorf("an install from a workspace not served: %d %s", status, page)
	}
	if n := len(installations(t, h)); n != 0 {
		t.Errorf("%d installations saved from a workspace not served", n)
	}
	revoked := h.Slack.Calls("auth.revoke")
	if len(revoked) != 1 || revoked[0].Team != other || revoked[0].Error != "" {
		t.Errorf("the refused workspace's token handed back by %+v, want one auth.revoke with its token", revoked)
	}
	if status, page, _ := installAs(h, f, primary, alice); status != http.StatusOK {
		t.Fatalf("an install from a workspace served: %d %s", status, page)
	}
	if ack := h.Command(olive, otherChan, agent.Command, "Rewrite the quickstart"); !strings.Contains(string(ack.Payload), "does not serve this workspace") {
		t.Errorf("a command of the refused workspace was answered %s", ack.Payload)
	}
	h.Command(alice, general, agent.Command, "Explain the webhooks page")
	h.WaitFor("the job in the workspace served", func() bool { return len(h.Roots(general)) == 1 })
	if n := len(h.Roots(otherChan)); n != 0 {
		t.Errorf("%d jobs in the workspace not served", n)
	}
}
