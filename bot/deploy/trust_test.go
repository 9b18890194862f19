package deploy_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// partner is a channel shared with another organisation.
const partner = "C0PARTNER"

// leaky are the secrets a failing build printed, one of each shape
// secret.Redact knows, and the lines that print them. The private key's
// BEGIN line comes well before the last lines shown, so only redacting the
// whole logs, not the lines shown, takes its body out.
var leaky = struct {
	secrets []string
	lines   []string
}{
	secrets: []string{
		"mint_0123456789abcdefghijKLMN", "mint_dsc_0123456789abcdefghij",
		"xoxb-1111111111-2222222222-abcdefghijklmnop", "xoxp-1-2-3-abcdefabcdef", "xoxe.xoxp-1-Mi0yLTExMTEtQQ", "xapp-1-A0123-4567-abcdef",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "dXNlcjpodW50ZXIy",
		"s3cr3t-signing", "hunter2-pw", "p4ss-wd", "gcp-creds-json", "np_basic_auth", "k3y-material", "priv-8899",
		"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"ghp_0123456789abcdefghijABCDEFGHIJ0123", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstu",
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun", "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
		"cl0ne-pa55",
	},
	lines: []string{
		"-----BEGIN RSA PRIVATE KEY-----",
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
		"VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
		"VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
		"-----END RSA PRIVATE KEY-----",
		"Cloning https://x-access-token:cl0ne-pa55@github.com/acme/docs.git",
		"env: DOCS_API_KEY=mint_0123456789abcdefghijKLMN DOCS_ASSISTANT_KEY=mint_dsc_0123456789abcdefghij",
		"slack: SLACK_BOT_TOKEN=xoxb-1111111111-2222222222-abcdefghijklmnop user xoxp-1-2-3-abcdefabcdef refresh xoxe.xoxp-1-Mi0yLTExMTEtQQ app xapp-1-A0123-4567-abcdef",
		"> Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
		"> Proxy-Authorization: Basic dXNlcjpodW50ZXIy",
		"SLACK_SIGNING_SECRET=s3cr3t-signing DB_PASSWORD=hunter2-pw FTP_PASSWD: p4ss-wd GCP_CREDENTIALS=gcp-creds-json",
		"NPM_AUTH=np_basic_auth apiKey: k3y-material PRIVATE_DATA=priv-8899",
		"aws: AKIAIOSFODNN7EXAMPLE aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"git: ghp_0123456789abcdefghijABCDEFGHIJ0123 github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstu",
		"Error: 401 Unauthorized with token mint_0123456789abcdefghijKLMN",
	},
}

// leakyLifecycle fails every deployment with the leaky logs.
func leakyLifecycle(docsapitest.DeployRequest) docsapitest.DeployLifecycle {
	return docsapitest.DeployLifecycle{QueuedPolls: 1, RunningPolls: 1, Outcome: "failure", Logs: leaky.lines}
}

// wantNoSecret fails when text, what it is, holds one of the leaky secrets.
func wantNoSecret(t *testing.T, what, text string) {
	t.Helper()
	for _, s := range leaky.secrets {
		if strings.Contains(text, s) {
			t.Errorf("%s holds the secret %q:\n%s", what, s, text)
		}
	}
}

// TestDeployLogsCleaned: a failed deployment whose logs print a key or a
// token of every shape shows its logs in the live message with each taken
// out and marked, and neither docsbot's logs nor the audit trail hold one.
func TestDeployLogsCleaned(t *testing.T) {
	t.Parallel()
	h := newHarness(t, docsapitest.WithDeployLifecycle(leakyLifecycle))
	h.StartBot(bottest.Config{})
	h.deployNow(alice, general, "")
	end := h.live("it failed.")
	bottest.WantContains(t, "the failed deployment", end, "The end of the logs:", "[redacted token]", "[redacted secret]",
		"DB_PASSWORD=[redacted secret]", "Authorization: [redacted secret]", "https://[redacted]@github.com/acme/docs.git")
	wantNoSecret(t, "the live message", end)
	for _, m := range h.Slack.Ephemerals(alice) {
		wantNoSecret(t, "a private message", m.Text)
	}
	h.Settle()
	wantNoSecret(t, "docsbot's logs", h.Logs.String())
	n := 0
	err := h.OpenStore().AuditLog(store.AuditOptions{}).Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
		n++
		wantNoSecret(t, "the audit trail", fmt.Sprintf("%+v", r))
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("the audit trail: %d records, %v", n, err)
	}
}

// TestDeployLogsPrivatelyInASharedChannel: where the channel is shared with
// another organisation (Slack Connect, as conversations.info says), the live
// message shows no logs and says they were sent privately; the person who
// deployed gets them, cleaned.
func TestDeployLogsPrivatelyInASharedChannel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, docsapitest.WithDeployLifecycle(leakyLifecycle))
	h.Slack.AddChannel(slacktest.Channel{ID: partner, Name: "partner", BotMember: true, Shared: true})
	h.StartBot(bottest.Config{})
	wantLogsPrivately(t, h, partner, "This channel is shared with another organisation")
}

// TestDeployLogsPrivatelyInAChannelWithAGuest: in a channel of the
// workspace's own with a guest in it (conversations.members, users.info),
// the logs go to the person who deployed alone, as in a shared channel, and
// the guest sees none of them.
func TestDeployLogsPrivatelyInAChannelWithAGuest(t *testing.T) {
	t.Parallel()
	const withGuest, guest = "C0WITHGUS", "U0GUEST"
	h := newHarness(t, docsapitest.WithDeployLifecycle(leakyLifecycle))
	h.Slack.AddGuest(guest, "Gus Guest", true)
	h.Slack.AddChannel(slacktest.Channel{ID: withGuest, Name: "with-gus", BotMember: true, Members: []string{alice, guest}})
	h.StartBot(bottest.Config{})
	wantLogsPrivately(t, h, withGuest, "This channel has guests or people of another organisation in it")
	for _, m := range append(h.Slack.Messages(withGuest), h.Slack.Ephemerals(guest)...) {
		if strings.Contains(m.Text, "The end of the logs") || strings.Contains(m.Text, "Cloning https://") {
			t.Errorf("the guest can read the logs:\n%s", m.Text)
		}
	}
}

// wantLogsPrivately deploys as alice in channel, where the logs fail, and
// checks that the live message shows no logs and says why (room) and that
// alice got them privately, cleaned.
func wantLogsPrivately(t *testing.T, h *harness, channel, room string) {
	t.Helper()
	h.deployNow(alice, channel, "")
	end := h.liveIn(channel, "it failed.")
	bottest.WantContains(t, "the failed deployment", end, room+", so the logs were sent to <@"+alice+"> privately")
	if strings.Contains(end, "The end of the logs") {
		t.Errorf("the live message in %s shows the logs:\n%s", channel, end)
	}
	var logs string
	h.WaitFor("the logs told to alice", func() bool {
		for _, p := range h.Slack.ResponsePosts("") {
			if p.User == alice && strings.Contains(p.Text, "The end of the logs") {
				logs = p.Text
				return true
			}
		}
		if m := h.Privates(alice, "The end of the logs"); len(m) > 0 {
			logs = m[0].Text
			return true
		}
		return false
	})
	bottest.WantContains(t, "the logs told privately", logs, "Your deployment of the docs failed", "[redacted token]")
	wantNoSecret(t, "the logs told privately", logs)
}

// TestDeployShareOfOnePerson: one person may start DOCSBOT_DEPLOY_PER_USER
// deployments and previews an hour across replicas: the next is refused
// privately, saying when to try again, without asking the docs API; a
// start tried again after a failure takes its share once; another person
// has a share of their own.
func TestDeployShareOfOnePerson(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cfg := bottest.Config{Config: app.Config{Deploy: deploy.Config{PerUser: 2}}}
	first := h.StartBot(cfg)
	// The first start's live message fails once: the work is tried again,
	// and must not take alice's share twice.
	h.Slack.FailNext("chat.postMessage", "internal_error", 1)
	h.Command(alice, general, deploy.Command, "preview docs/one")
	h.live("a preview of `docs/one` of the docs: done.")
	h.Command(alice, general, deploy.Command, "preview docs/two")
	h.live("a preview of `docs/two` of the docs: done.")
	first.Stop()

	h.StartBot(cfg)
	h.Command(alice, general, deploy.Command, "preview docs/three")
	h.WaitFor("alice refused", func() bool { return h.told(alice, "You started 2 deployments and previews in the last hour") })
	if !h.told(alice, "you can try again in about") {
		t.Error("the refusal does not say when to try again")
	}
	h.Command(alice, general, deploy.Command, "")
	q := h.question(alice)
	h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: q.TS, ActionID: deploy.ActionConfirm})
	h.WaitFor("alice's deployment refused in the question's place", func() bool {
		for _, m := range h.Slack.Ephemerals(alice) {
			if m.TS == q.TS && strings.Contains(m.Text, "You started 2 deployments") {
				return true
			}
		}
		return false
	})
	h.Idle()
	h.WantRequests(docsapitest.EndpointPreview, 2, "alice's share is 2 an hour")
	h.WantRequests(docsapitest.EndpointDeploy, 0, "alice's share is spent")

	h.Command(bob, general, deploy.Command, "preview docs/bobs")
	h.live("a preview of `docs/bobs` of the docs: done.")
	h.WantRequests(docsapitest.EndpointPreview, 3, "bob has a share of his own")
}

// TestDeployStatusListsTheChannelsOfThePerson: /docs-deploy status lists
// the deployments started in channels the person is in (users.conversations)
// and their own, never one started in a private channel they are not in; when
// Slack cannot say which channels they are in, only their own, saying so.
func TestDeployStatusListsTheChannelsOfThePerson(t *testing.T) {
	t.Parallel()
	const team = "C0TEAM"
	h := newHarness(t)
	h.Slack.AddChannel(slacktest.Channel{ID: team, Name: "docs-core", BotMember: true, Private: true, Members: []string{alice}})
	h.StartBot(bottest.Config{})
	h.Command(alice, team, deploy.Command, "preview docs/secret-plan")
	h.liveIn(team, "a preview of `docs/secret-plan` of the docs: done.")
	h.Command(alice, general, deploy.Command, "preview docs/open")
	h.live("a preview of `docs/open` of the docs: done.")

	h.Command(bob, general, deploy.Command, "status")
	h.WaitFor("bob's status", func() bool { return h.told(bob, "started from Slack lately") })
	if !h.told(bob, "docs/open") || h.told(bob, "docs/secret-plan") {
		t.Errorf("bob's status should list the preview of #general only: %+v", h.Slack.ResponsePosts(""))
	}
	h.Command(alice, general, deploy.Command, "status")
	h.WaitFor("alice's status", func() bool { return h.told(alice, "started from Slack lately") })
	if !h.told(alice, "docs/open") || !h.told(alice, "docs/secret-plan") {
		t.Errorf("alice's status should list both her previews: %+v", h.Slack.ResponsePosts(""))
	}

	h.Slack.FailNext("users.conversations", "internal_error", 1)
	h.Command(bob, general, deploy.Command, "status")
	h.WaitFor("bob told only his own are listed", func() bool { return h.told(bob, "only the deployments you started are listed") })
}
