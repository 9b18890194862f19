package install_test

import (
	"context"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/install"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// TestUninstallForgetsTheWorkspace: once a workspace removes docsbot, its
// installation is deleted on every replica, its commands are answered
// (without a token) that docsbot is not installed there, and no call is made
// for it; the other workspace is served as before. Revoking the tokens does
// the same.
func TestUninstallForgetsTheWorkspace(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"uninstall", "revoke"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			h, f := installWorld(t)
			installBot(h, f)
			installBot(h, f)
			for _, in := range []struct{ team, user string }{{other, olive}, {primary, alice}} {
				if status, page, _ := installAs(h, f, in.team, in.user); status != 200 {
					t.Fatalf("install of %s: %d %s", in.team, status, page)
				}
			}
			// Each replica reads the other workspace's installation once.
			h.Command(olive, otherChan, agent.Command, "list")
			h.Command(olive, otherChan, agent.Command, "list")
			h.Idle()

			forgotten := strings.Count(h.Logs.String(), `msg="`+install.LogForgotten+`"`)
			if how == "uninstall" {
				h.Slack.Uninstall(other)
			} else {
				h.Slack.RevokeTokens(other)
			}
			h.WaitFor("the installation deleted", func() bool { return len(installations(t, h)) == 1 })
			h.WaitLogged(install.LogForgotten, forgotten+2) // by each replica
			calls := len(h.Slack.Calls(""))
			for range 2 { // each replica in turn
				ack := h.Command(olive, otherChan, agent.Command, "Rewrite the quickstart")
				if !strings.Contains(string(ack.Payload), "not installed in this workspace") {
					t.Errorf("a command after the %s was answered %s", how, ack.Payload)
				}
			}
			h.Command(alice, general, agent.Command, "Explain the webhooks page")
			h.WaitFor("the job in the workspace still served", func() bool { return len(h.Roots(general)) == 1 })
			h.Idle()
			for _, c := range h.Slack.Calls("")[calls:] {
				if c.Team == other || c.Params["channel"] == otherChan {
					t.Errorf("a call for the removed workspace: %+v", c)
				}
			}
			if n := len(h.Roots(otherChan)); n != 0 {
				t.Errorf("%d jobs posted in the removed workspace", n)
			}
			// The audit trail says who added docsbot and that it was removed.
			actions := map[string]int{}
			if err := h.OpenStore().AuditLog(store.AuditOptions{}).Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
				if r.Team == other {
					actions[r.Action+" "+r.User]++
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if actions[store.AuditInstall+" "+olive] != 1 || actions[store.AuditRemove+" "] != 1 {
				t.Errorf("the other workspace's audit: %v, want its install by olive and its removal", actions)
			}
		})
	}
}

// TestUninstallMidJob: a job of a workspace that removes docsbot while it
// runs is still followed to its end, and its result, which can no longer be
// posted, is given up without a call to Slack with the workspace's tokens,
// and recorded in the audit trail as undelivered.
func TestUninstallMidJob(t *testing.T) {
	t.Parallel()
	h, f := installWorldAPI(t, nil, docsapitest.WithLifecycle(func(string) docsapitest.Lifecycle {
		return docsapitest.Lifecycle{ActivePolls: 1 << 20}
	}))
	installBot(h, f)
	if status, page, _ := installAs(h, f, other, olive); status != 200 {
		t.Fatalf("install: %d %s", status, page)
	}
	h.Command(olive, otherChan, agent.Command, "Rewrite the quickstart")
	h.WaitFor("the job's root", func() bool { return len(h.Roots(otherChan)) == 1 && len(h.API.Jobs()) == 1 })
	h.Idle()

	h.Slack.Uninstall(other)
	h.WaitFor("the installation deleted", func() bool { return len(installations(t, h)) == 0 })
	calls := len(h.Slack.Calls(""))
	h.Complete(h.API.Jobs()[0].ID, 7)
	h.WaitLogged("cannot post the job's result in its thread nor send it to the requester; giving up", 1)
	for _, c := range h.Slack.Calls("")[calls:] {
		t.Errorf("a call after the uninstall: %+v", c)
	}
	// Nobody in Slack can be told: the audit trail keeps it.
	var undelivered []string
	if err := h.OpenStore().AuditLog(store.AuditOptions{}).Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
		if r.Action == store.AuditResult {
			undelivered = append(undelivered, r.Team+" "+r.User+" "+r.Outcome+" "+r.Detail)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := other + " " + olive + " undelivered completed: not_authed"; len(undelivered) != 1 || undelivered[0] != want {
		t.Errorf("the audit trail's results: %q, want %q", undelivered, want)
	}
}
