package settings_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/install"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/settings"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL) }

const (
	alice = "U0ALICE" // the workspace's admin
	bob   = "U0BOB"   // a member
	gus   = "U0GUS"   // a guest
	team  = "T0TEST"  // the fake Slack's workspace
)

// secretsKey is the world's DOCSBOT_SECRETS_KEY.
var secretsKey = bytes.Repeat([]byte{3}, store.SealKeySize)

// firstRun starts a replica with no docs at all and the secrets key set,
// as `docsbot serve` starts without DOCS_API_KEY and DOCS_PROJECT_ID: the
// docs are connected from Slack, reached at the harness's docs API.
func firstRun(h *bottest.Harness) *bottest.Running {
	return h.StartBot(bottest.Config{Config: app.Config{
		Bot:     bot.Config{Projects: project.None()},
		Install: install.Config{SecretsKeys: [][]byte{secretsKey}},
		Connect: app.Connect{APIURL: h.API.URL, DiscoveryURL: h.API.DiscoveryURL},
	}})
}

// connectModal has user press Connect docs on their Home v and returns the
// modal it opened.
func connectModal(t *testing.T, h *bottest.Harness, user string, v slacktest.View) slacktest.View {
	t.Helper()
	h.Act(slacktest.Action{UserID: user, ViewID: v.ID, ActionID: settings.ActionConnect})
	var modal slacktest.View
	h.WaitFor(user+"'s Connect docs modal", func() bool {
		for _, m := range h.Slack.OpenModals(user) {
			if m.CallbackID == settings.ViewConnect {
				modal = m
				return true
			}
		}
		return false
	})
	return modal
}

// form is what the Connect docs modal is submitted with.
func form(apiKey, projectID string) map[string]map[string]string {
	return map[string]map[string]string{"api_key": {"value": apiKey}, "project_id": {"value": projectID}}
}

// TestConnectDocsFromTheHome: with no docs, a command is told an admin
// connects them; the admin's Home opens on Connect docs, a member's says
// who can; a wrong key, a key of the wrong kind and a wrong project are
// refused on their input with nothing saved; the right ones are checked
// with one docs API call, saved sealed, audited, confirmed, and a job then
// reaches the docs API with that key.
func TestConnectDocsFromTheHome(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.Slack.MakeAdmin(alice, false)
	h.Slack.AddGuest(gus, "gus", false)
	firstRun(h)

	ack := string(h.Command(bob, bottest.General, agent.Command, "Document the webhooks").Payload)
	bottest.WantContains(t, "a command with no docs", ack, "no docs connected in this workspace")

	bobHome := h.OpenHome(bob, "has no docs connected")
	bottest.WantContains(t, "bob's Home", bottest.Rendered(slacktest.Message{Blocks: bobHome.Blocks}), "admins and owners")
	if strings.Contains(string(bobHome.Blocks), settings.ActionConnect) {
		t.Errorf("a member's Home offers Connect docs: %s", bobHome.Blocks)
	}
	aliceHome := h.OpenHome(alice, "Connect your docs to start")
	modal := connectModal(t, h, alice, aliceHome)

	for _, c := range []struct {
		name, apiKey, projectID, block, want string
	}{
		{"an assistant key as the API key", "mint_dsc_0123456789abcd", h.API.ProjectID, "api_key", "This is an assistant key"},
		{"a key the platform refuses", "mint_wrong_key_0123456789", h.API.ProjectID, "api_key", "refused this key"},
		{"a project the key does not reach", h.API.Key, "p-elsewhere", "project_id", "no project with this id"},
	} {
		h.Submit(slacktest.ViewSubmission{ViewID: modal.ID, Values: form(c.apiKey, c.projectID)})
		v, _ := h.Slack.ViewByID(modal.ID)
		if !v.Open || !strings.Contains(v.Errors[c.block], c.want) {
			t.Errorf("%s: the modal answered %v (open %t), want %q on %s", c.name, v.Errors, v.Open, c.want, c.block)
		}
	}
	if n := h.API.Count("visitors"); n != 2 {
		t.Errorf("%d docs API calls checking keys, want 2 (the key of the wrong kind is refused before any)", n)
	}
	sealer, _ := store.NewSealer(secretsKey)
	conns := h.OpenStore().Connections(sealer)
	if list, _, err := conns.List(t.Context(), team); err != nil || len(list) != 0 {
		t.Fatalf("after refused submissions: %+v, %v", list, err)
	}

	right := form(h.API.Key, h.API.ProjectID)
	right["assistant_key"] = map[string]string{"value": h.API.AssistantKey}
	right["domain"] = map[string]string{"value": h.API.Domain}
	h.Submit(slacktest.ViewSubmission{ViewID: modal.ID, Values: right})
	if v, _ := h.Slack.ViewByID(modal.ID); v.Open {
		t.Fatalf("the right key left the modal open: %v", v.Errors)
	}
	h.WaitFor("alice's confirmation", func() bool {
		for _, m := range h.Slack.Messages("D0ALICE") {
			if strings.Contains(m.Text, "is connected") {
				return true
			}
		}
		return false
	})
	list, _, err := conns.List(t.Context(), team)
	if err != nil || len(list) != 1 || list[0].ProjectID != h.API.ProjectID || list[0].By != alice {
		t.Fatalf("saved: %+v, %v", list, err)
	}
	h.OpenHome(alice, "connected from Slack by <@"+alice+">")

	h.Command(bob, bottest.General, agent.Command, "Document the webhooks")
	h.WaitFor("bob's job on the connected project", func() bool { return len(h.API.Jobs()) == 1 })
	h.Command(bob, bottest.General, "/docs-ask", "How are webhooks signed?")
	h.WaitFor("bob's question answered from the connected project", func() bool { return h.API.Questions() == 1 })

	// A forged submission, from the guest: refused, nothing saved.
	in, err := h.Slack.ForgeViewSubmission(t.Context(), modal.ID, gus, form(h.API.Key, "p-other"))
	if err != nil || !strings.Contains(string(in.Ack.Payload), "Guests and people of other organisations") {
		t.Errorf("a guest's forged submission was answered %s (%v)", in.Ack.Payload, err)
	}
	in, err = h.Slack.ForgeViewSubmission(t.Context(), modal.ID, bob, form(h.API.Key, "p-other"))
	if err != nil || !strings.Contains(string(in.Ack.Payload), "Only admins can change") {
		t.Errorf("a member's forged submission was answered %s (%v)", in.Ack.Payload, err)
	}
	if list, _, _ := conns.List(t.Context(), team); len(list) != 1 {
		t.Errorf("forged submissions changed the connections: %+v", list)
	}

	// No key's text in Redis: only its hint.
	for _, secret := range []string{h.API.Key, strings.TrimPrefix(h.API.Key, "mint_")} {
		if found := redistest.KeysHolding(t, h.RedisURL, h.Prefix, secret); len(found) > 0 {
			t.Errorf("Redis holds the key in the clear at %v", found)
		}
	}
	h.Idle()
	var changes, refusals int
	err = h.OpenStore().AuditLog(store.AuditOptions{}).Each(t.Context(), store.AuditQuery{}, func(r store.AuditRecord) error {
		switch {
		case r.Action == store.AuditSettings && strings.Contains(r.Detail, "connected the docs project") && strings.Contains(r.Detail, store.KeyHint(h.API.Key)):
			changes++
		case r.Action == store.AuditRefusal && strings.HasPrefix(r.Detail, "settings:"):
			refusals++
		}
		if strings.Contains(r.Detail+r.Instruction, h.API.Key) {
			t.Errorf("an audit record holds the key: %+v", r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if changes != 1 || refusals != 2 {
		t.Errorf("audit: %d changes and %d refusals, want 1 and 2", changes, refusals)
	}

	// Disconnected: nothing new starts; the project's record keeps its
	// keys for the job still running.
	home := h.OpenHome(alice, "Disconnect")
	h.Act(slacktest.Action{UserID: alice, ViewID: home.ID, ActionID: settings.ActionDisconnect})
	h.WaitFor("alice's Home without the project", func() bool {
		v, _ := h.Slack.HomeView(alice)
		return strings.Contains(bottest.Rendered(slacktest.Message{Blocks: v.Blocks}), "Connect your docs to start")
	})
	ack = string(h.Command(bob, bottest.General, agent.Command, "Document the retries").Payload)
	bottest.WantContains(t, "a command after the disconnect", ack, "no docs connected in this workspace")
	if list, _, _ := conns.List(t.Context(), team); len(list) != 1 || list[0].Retired.IsZero() {
		t.Errorf("after the disconnect: %+v", list)
	}
}
