package deploy_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestDeployAsksFirst: a bare /docs-deploy deploys nothing; it asks
// privately, in the ack, with Deploy and Cancel. Deploy deploys once (Slack
// sending the press again deploys nothing more) and the question makes way
// for the live message; Cancel deploys nothing.
func TestDeployAsksFirst(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})

	ack := h.Command(alice, general, deploy.Command, "")
	bottest.WantContains(t, "the ack of a bare /docs-deploy", string(ack.Payload),
		"Deploy the docs site now?", deploy.ActionConfirm, deploy.ActionCancel, `"ephemeral"`)
	q := h.question(alice)
	h.Idle()
	if n := len(h.Roots(general)); n != 0 {
		t.Errorf("%d messages in the channel before Deploy was pressed, want none", n)
	}
	h.WantRequests(docsapitest.EndpointDeploy, 0, "nothing is deployed before Deploy is pressed")

	press := h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: q.TS, ActionID: deploy.ActionConfirm})
	h.live(":white_check_mark:")
	h.WaitFor("the question replaced", func() bool {
		for _, m := range h.Slack.Ephemerals(alice) {
			if m.TS == q.TS {
				return strings.Contains(m.Text, "Deploying the docs") && !strings.Contains(string(m.Blocks), deploy.ActionConfirm)
			}
		}
		return false
	})
	if err := h.Slack.Redeliver(t.Context(), press.EnvelopeID); err != nil {
		t.Fatal(err)
	}
	h.Idle()
	h.WantRequests(docsapitest.EndpointDeploy, 1, "one press, delivered twice")

	h.Command(alice, general, deploy.Command, "")
	q = h.question(alice)
	h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: q.TS, ActionID: deploy.ActionCancel})
	h.WaitFor("the question cancelled", func() bool {
		for _, m := range h.Slack.Ephemerals(alice) {
			if m.TS == q.TS {
				return strings.Contains(m.Text, "nothing was deployed")
			}
		}
		return false
	})
	h.Idle()
	h.WantRequests(docsapitest.EndpointDeploy, 1, "Cancel deploys nothing")
	if n := len(h.Roots(general)); n != 1 {
		t.Errorf("%d messages in the channel, want the one live message", n)
	}
}

// TestDeployButtonOfAViewerIsRefused: the work checks the editor again: a
// viewer who presses a Deploy button (one that reached them, here a copy of
// an editor's question in the channel) is refused privately and nothing is
// deployed; the editor's own press still deploys.
func TestDeployButtonOfAViewerIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Editors: []string{alice}})
	h.Command(alice, general, deploy.Command, "")
	q := h.question(alice)
	var blocks slack.Blocks
	if err := json.Unmarshal(q.Blocks, &blocks); err != nil {
		t.Fatal(err)
	}
	_, ts, err := h.BotClient().PostMessage(general, slack.MsgOptionText(q.Text, false), slack.MsgOptionBlocks(blocks.BlockSet...))
	if err != nil {
		t.Fatal(err)
	}
	h.Act(slacktest.Action{UserID: bob, ChannelID: general, MessageTS: ts, ActionID: deploy.ActionConfirm})
	h.WaitFor("bob refused", func() bool { return h.told(bob, "Only editors") })
	h.Idle()
	h.WantRequests(docsapitest.EndpointDeploy, 0, "a viewer's press")
	for _, m := range h.Roots(general) {
		if m.TS == ts && (m.Edited || strings.Contains(m.Text, "Only editors")) {
			t.Errorf("the channel's message was replaced by bob's refusal: %+v", m)
		}
	}

	h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: q.TS, ActionID: deploy.ActionConfirm})
	h.live(":white_check_mark:")
	h.WantRequests(docsapitest.EndpointDeploy, 1, "the editor's press")
}

// TestDeployQuestionNamesTheProject: with several projects the question
// names the project it deploys, a viewer of that project is refused in the
// ack, and Deploy deploys that project's site.
func TestDeployQuestionNamesTheProject(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	api := h.TwoProjects(bottest.Project{Editors: []string{alice}}, bottest.Project{Editors: []string{bob}})
	h.StartBot(bottest.Config{})
	ack := h.Command(bob, general, deploy.Command, "project=docs")
	if !strings.Contains(string(ack.Payload), "Only editors") {
		t.Errorf("bob, who edits api only, asked to deploy docs: ack %s, want a refusal", ack.Payload)
	}
	ack = h.Command(bob, general, deploy.Command, "project=api")
	bottest.WantContains(t, "the question", string(ack.Payload), "Deploy the docs site of `api` now?")
	q := h.question(bob)
	h.Act(slacktest.Action{UserID: bob, ChannelID: general, MessageTS: q.TS, ActionID: deploy.ActionConfirm})
	h.live(":white_check_mark:")
	if n, m := api.Count(docsapitest.EndpointDeploy), h.API.Count(docsapitest.EndpointDeploy); n != 1 || m != 0 {
		t.Errorf("deploy calls: api %d, docs %d; want api's one", n, m)
	}
}
