package settings_test

import (
	"context"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/settings"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
)

const (
	help          = "C0HELP" // a channel set up from the Settings
	signingSecret = "settings-signing-secret"
)

// openModal has user press action on their Home v and returns the modal
// callback it opened.
func openModal(t *testing.T, h *bottest.Harness, user string, v slacktest.View, action, callback string) slacktest.View {
	t.Helper()
	h.Act(slacktest.Action{UserID: user, ViewID: v.ID, ActionID: action})
	return h.WaitModal(user, callback)
}

// submitted submits values to the modal, and returns what it answered:
// its errors by input, none when it closed.
func submitted(t *testing.T, h *bottest.Harness, modal slacktest.View, values map[string]map[string]string) map[string]string {
	t.Helper()
	h.Submit(slacktest.ViewSubmission{ViewID: modal.ID, Values: values})
	v, _ := h.Slack.ViewByID(modal.ID)
	if v.Open && len(v.Errors) == 0 {
		t.Fatalf("the modal stayed open without errors")
	}
	return v.Errors
}

// confirmed waits until user was told, in their DM with docsbot, the nth
// change of settings, and returns its text.
func confirmed(h *bottest.Harness, user, dm string, n int) string {
	h.T.Helper()
	var text string
	h.WaitFor(user+"'s confirmation", func() bool {
		var seen int
		for _, m := range h.Slack.Messages(dm) {
			if strings.Contains(m.Text, "settings changed") {
				seen++
				text = m.Text
			}
		}
		return seen >= n
	})
	return text
}

// values is one input's value of a submission.
func values(kv ...string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = map[string]string{"value": kv[i+1]}
	}
	return out
}

// front is where the fake Slack delivers, in front of the replicas: the
// test points it at one of them, so that it knows which took a request.
type front struct {
	srv *httptest.Server
	to  atomic.Pointer[url.URL]
}

func newFront(t *testing.T) *front {
	f := &front{}
	f.srv = httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(f.to.Load())
		r.Out.Host = r.In.Host
	}})
	t.Cleanup(f.srv.Close)
	return f
}

// at sends Slack's requests to r from now on.
func (f *front) at(t *testing.T, r *bottest.Running) {
	u, err := url.Parse(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	f.to.Store(u)
}

// TestChannelSetUpOnOneReplicaInForceOnAnother: a channel set to auto from
// the Channels modal on one replica has a question without a mention
// answered by another, which had read the workspace's settings before;
// turned off there, the other replica refuses a command in it once it
// heard (the published change, at the latest its 5-second read).
func TestChannelSetUpOnOneReplicaInForceOnAnother(t *testing.T) {
	t.Parallel()
	f := newFront(t)
	h := bottest.NewWith(t, redisURL, []slacktest.Option{slacktest.WithHTTPDelivery(f.srv.URL, signingSecret)})
	h.Slack.MakeAdmin(alice, false)
	h.Slack.AddChannel(slacktest.Channel{ID: help, Name: "help", BotMember: true})
	cfg := bottest.Config{Answers: true, Config: app.Config{Bot: bot.Config{Mode: bot.ModeHTTP, SigningSecret: signingSecret}}}
	one, other := h.StartBot(cfg), h.StartBot(cfg)

	f.at(t, other)
	before, _ := h.Reply(bob, help, "", "How do I rotate an API key?")
	h.Idle() // the other replica took it, and read the workspace's settings: none, so no answer

	f.at(t, one)
	home := h.OpenHome(alice, "Set a channel up")
	if errs := submitted(t, h, openModal(t, h, alice, home, settings.ActionChannels, settings.ViewChannels),
		values("channel", help, "answers", bot.ModeAuto)); errs != nil {
		t.Fatalf("the Channels modal answered %v", errs)
	}
	bottest.WantContains(t, "the confirmation", confirmed(h, alice, "D0ALICE", 1), "*Answers* in <#"+help+">: *auto*")

	f.at(t, other)
	q, _ := h.Reply(bob, help, "", "How do I verify a webhook signature?")
	h.WaitFor("the other replica's answer without a mention", func() bool {
		for _, m := range h.Slack.Thread(help, q) {
			if m.BotID != "" && m.TS != q && !m.Streaming && strings.Contains(string(m.Blocks), "Sources") {
				return true
			}
		}
		return false
	})
	if n := len(h.Slack.Thread(help, before)); n != 1 {
		t.Errorf("the question before the change has %d messages in its thread, want itself alone", n)
	}

	f.at(t, one)
	if errs := submitted(t, h, openModal(t, h, alice, home, settings.ActionChannels, settings.ViewChannels),
		values("channel", help, "here", bot.ChannelOff)); errs != nil {
		t.Fatalf("the Channels modal answered %v", errs)
	}
	confirmed(h, alice, "D0ALICE", 2)
	ctx := bot.WithWorkspace(context.Background(), bot.Workspace{Team: team})
	h.WaitFor("the other replica hearing of the change", func() bool {
		v, ok := other.Bot.SetInSlack(ctx).Get(bot.ChannelSetting(help, bot.ChannelOff))
		return ok && v.Value == bot.ChannelOff
	})
	f.at(t, other)
	ack := string(h.Command(bob, help, "/docs-ask", "How do I rotate an API key?").Payload)
	bottest.WantContains(t, "a command where docsbot is off", ack, "turned off in this channel")
}

// TestPeopleChannelsAndLimitsSetInSlack: editors set in the People modal
// let their editor start a job and refuse another, the job going to the
// channel's project set in the Channels modal; a member's forged
// submission, and a channel's mode set where docsbot cannot see it, change
// nothing; a share above the environment's is refused
// on its input, naming the ceiling, and one below it is in force; the Home
// says where each value comes from, Clear brings the environment's back,
// and every change is an audit record with its old and new value.
func TestPeopleChannelsAndLimitsSetInSlack(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.Slack.MakeAdmin(alice, false)
	api := h.TwoProjects(bottest.Project{}, bottest.Project{})
	h.StartBot(bottest.Config{Answers: true})
	home := h.OpenHome(alice, "from the environment (`DOCSBOT_EDITORS`)")

	people := openModal(t, h, alice, home, settings.ActionPeople, settings.ViewPeople)
	errs := submitted(t, h, people, values("editors", alice, "editors_groups", "docs-team"))
	bottest.WantContains(t, "a group that is no id", errs["editors_groups"], "no user group id")
	if errs := submitted(t, h, people, values("editors", alice)); errs != nil {
		t.Fatalf("the People modal answered %v", errs)
	}
	confirmed(h, alice, "D0ALICE", 1)
	in, err := h.Slack.ForgeViewSubmission(t.Context(), people.ID, bob, values("editors", bob))
	if err != nil || !strings.Contains(string(in.Ack.Payload), "Only admins can change") {
		t.Errorf("a member's forged submission was answered %s (%v)", in.Ack.Payload, err)
	}

	channels := openModal(t, h, alice, home, settings.ActionChannels, settings.ViewChannels)
	errs = submitted(t, h, channels, values("channel", "C0ELSEWHERE", "answers", bot.ModeAuto))
	bottest.WantContains(t, "a channel docsbot cannot see here", errs["channel"], "cannot see this channel in this workspace")
	if errs := submitted(t, h, channels, values("channel", bottest.General, "project", "api")); errs != nil {
		t.Fatalf("the Channels modal answered %v", errs)
	}
	confirmed(h, alice, "D0ALICE", 2)
	ack := string(h.Command(bob, bottest.General, agent.Command, "Document the webhooks").Payload)
	bottest.WantContains(t, "bob's job", ack, "Only editors can start docs agent jobs", "Editors: \\u003c@"+alice+"\\u003e.")
	h.Command(alice, bottest.General, agent.Command, "Document the webhooks")
	h.WaitFor("alice's job, in the channel's project set in Slack", func() bool { return len(api.Jobs()) == 1 })

	limits := openModal(t, h, alice, home, settings.ActionLimits, settings.ViewLimits)
	errs = submitted(t, h, limits, values("ask_per_user", "31"))
	bottest.WantContains(t, "a share above the ceiling", errs["ask_per_user"], "At most 30", "DOCSBOT_ASK_PER_USER")
	if errs := submitted(t, h, limits, values("ask_per_user", "1")); errs != nil {
		t.Fatalf("the limits modal answered %v", errs)
	}
	confirmed(h, alice, "D0ALICE", 3)
	h.Command(bob, bottest.General, "/docs-ask", "How are webhooks signed?")
	h.WaitFor("bob's first question answered", func() bool { return api.Questions() == 1 })
	h.Command(bob, bottest.General, "/docs-ask", "And how are they retried?")
	h.WaitForEphemeral(bob, "You asked 1 question in the last hour")

	home = h.OpenHome(alice, "set in Slack by <@"+alice+">")
	rendered := bottest.Rendered(slacktest.Message{Blocks: home.Blocks})
	bottest.WantContains(t, "the Home", rendered, "*Editors*: <@"+alice+">", "*Experts*: nobody, unless the projects file names experts · from the environment (`DOCSBOT_EXPERTS`)",
		"*Questions per person an hour*: 1 · set in Slack", "<#"+bottest.General+">: docs project `api`")
	h.Act(slacktest.Action{UserID: alice, ViewID: home.ID, ActionID: settings.ActionClear + bot.SettingEditors})
	h.OpenHome(alice, "*Editors*: everyone, unless the projects file names editors · from the environment")

	h.Idle()
	var changes []string
	var refusals int // of the settings
	err = h.OpenStore().AuditLog(store.AuditOptions{}).Each(t.Context(), store.AuditQuery{}, func(r store.AuditRecord) error {
		switch r.Action {
		case store.AuditSettings:
			changes = append(changes, r.Detail)
		case store.AuditRefusal:
			if strings.HasPrefix(r.Detail, "settings:") {
				refusals++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`set Editors (over DOCSBOT_EDITORS) to "` + alice + `", was none (the environment's)`,
		`set Docs project of channel ` + bottest.General + ` (over DOCSBOT_PROJECTS_FILE) to "api", was none (the environment's)`,
		`set Questions per person an hour (over DOCSBOT_ASK_PER_USER) to "1", was none (the environment's)`,
		`set Editors (over DOCSBOT_EDITORS) to none (the environment's), was "` + alice + `"`,
	}
	if strings.Join(changes, "\n") != strings.Join(want, "\n") {
		t.Errorf("audited changes:\n%s\nwant:\n%s", strings.Join(changes, "\n"), strings.Join(want, "\n"))
	}
	if refusals != 1 {
		t.Errorf("%d refusals of the settings audited, want the forged submission's", refusals)
	}
}
