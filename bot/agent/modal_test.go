package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// modalOf waits for the job modal open for user and returns it.
func (h *harness) modalOf(user string) slacktest.View {
	h.T.Helper()
	return h.WaitModal(user, agent.ViewJob)
}

// submit submits the job modal with an instruction.
func (h *harness) submit(viewID, instruction string) slacktest.Interaction {
	h.T.Helper()
	return h.Submit(slacktest.ViewSubmission{ViewID: viewID, Values: map[string]map[string]string{"instruction": {"instruction": instruction}}})
}

func TestShortcutModalSubmissionStartsOneJob(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	msg := h.userMessage(bob, general, "", "Our rate limits page still says 100/min &amp; <@"+alice+"> knows why")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.Shortcut(slacktest.MessageShortcut{UserID: alice, CallbackID: agent.ShortcutSendToAgent, ChannelID: general, MessageTS: msg})
	v := h.modalOf(alice)
	if !strings.Contains(string(v.Blocks), "100/min") || !strings.Contains(string(v.Blocks), `"multiline":true`) {
		t.Errorf("modal does not quote the message or lacks a multi-line input: %s", v.Blocks)
	}

	// An empty instruction is refused in the modal, which stays open.
	in := h.submit(v.ID, "   ")
	if !strings.Contains(string(in.Ack.Payload), `"response_action":"errors"`) {
		t.Errorf("empty instruction acked %s, want response_action errors", in.Ack.Payload)
	}
	if got, _ := h.Slack.ViewByID(v.ID); !got.Open || got.Errors["instruction"] == "" {
		t.Errorf("after an empty submission the modal is %+v, want it open with an error on the instruction", got)
	}

	in = h.submit(v.ID, "Update it for the v2 limits")
	root, jobID := h.rootIn(general, msg)
	prompt := h.API.Prompts(jobID)[0]
	bottest.WantContains(t, "instruction", prompt, "Update it for the v2 limits\n\nContext: the Slack message", "by @bob", "100/min & @alice knows why")
	if !strings.Contains(rendered(root), "<@"+alice+">") {
		t.Errorf("root %q does not name who asked", rendered(root))
	}

	// Slack sends the submission again: still one job.
	if err := h.Slack.Redeliver(ctx, in.EnvelopeID); err != nil {
		t.Fatal(err)
	}
	h.WaitLogged(bot.RedeliveredInteraction, 1)
	h.StopAll()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
}

func TestShortcutWithAnExpiredTrigger(t *testing.T) {
	t.Parallel()
	// Every trigger has expired by the time the bot uses it, as when the
	// bot took longer than Slack's 3 seconds.
	h := &harness{bottest.NewWith(t, redisURL, []slacktest.Option{slacktest.WithTriggerTTL(-time.Second)})}
	h.StartBot(bottest.Config{})
	msg := h.userMessage(bob, general, "", "The SDK page is stale")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in, err := h.Slack.MessageShortcut(ctx, slacktest.MessageShortcut{UserID: alice, CallbackID: agent.ShortcutSendToAgent, ChannelID: general, MessageTS: msg})
	if err != nil {
		t.Fatal(err)
	}
	h.WaitFor("the person told privately", func() bool { return len(h.Slack.ResponsePosts(in.TriggerID)) == 1 })
	post := h.Slack.ResponsePosts(in.TriggerID)[0]
	if post.ResponseType != "ephemeral" || !strings.Contains(post.Text, "3 seconds") {
		t.Errorf("answer %+v, want an ephemeral note that the form could not open in time", post)
	}
	// /docs-agent alone meets the same.
	h.Command(alice, general, agent.Command, "")
	h.WaitFor("the person told privately again", func() bool { return len(h.Slack.ResponsePosts("")) == 2 })
	if post := h.Slack.ResponsePosts("")[1]; !strings.Contains(post.Text, "3 seconds") {
		t.Errorf("answer to /docs-agent alone %+v, want the note that the form could not open in time", post)
	}
	if n := len(h.Slack.OpenModals(alice)); n != 0 {
		t.Errorf("%d modals open, want none", n)
	}
}

func TestDocsAgentAloneOpensTheModal(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	ack := h.Command(alice, general, agent.Command, "")
	if len(ack.Payload) > 0 && string(ack.Payload) != "null" {
		t.Errorf("ack carries %s, want an empty ack (the modal answers)", ack.Payload)
	}
	v := h.modalOf(alice)
	h.submit(v.ID, "Write a page about\nwebhook retries")
	h.WaitFor("the job's root message in the channel", func() bool {
		r := h.Roots(general)
		return len(r) == 1 && strings.Contains(rendered(r[0]), "job `")
	})
	jobs := h.API.Jobs()
	if len(jobs) != 1 || h.API.Prompts(jobs[0].ID)[0] != "Write a page about\nwebhook retries" {
		t.Errorf("API jobs %v, want one with the instruction as typed", jobs)
	}
}

func TestImprovePageOpensAPrefilledModal(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	// A visitors summary with the button, as bot/visitors renders it.
	value := `{"path":"/docs/quickstart","human":120,"ai":30,"total":150,"range":"the last 7 days"}`
	api := h.BotClient()
	_, summary, err := api.PostMessage(general, slack.MsgOptionText("Visitors", false), slack.MsgOptionBlocks(
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "*Top pages*", false, false), nil, nil),
		slack.NewActionBlock("pages", slack.NewButtonBlockElement(jobdraft.ActionImprovePage, value, slack.NewTextBlockObject(slack.PlainTextType, "Improve this page", false, false))),
	))
	if err != nil {
		t.Fatal(err)
	}
	h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: summary, ActionID: jobdraft.ActionImprovePage})
	v := h.modalOf(alice)
	var blocks []struct {
		Element struct {
			InitialValue string `json:"initial_value"`
		} `json:"element"`
	}
	_ = json.Unmarshal(v.Blocks, &blocks)
	initial := ""
	for _, b := range blocks {
		initial += b.Element.InitialValue
	}
	if !strings.Contains(string(v.Blocks), "150 unique visitors (120 human, 30 AI)") || !strings.Contains(initial, "/docs/quickstart") {
		t.Errorf("modal not prefilled with the page and its figures: %s", v.Blocks)
	}
	h.submit(v.ID, initial+"add a troubleshooting section")
	_, jobID := h.rootIn(general, summary)
	prompt := h.API.Prompts(jobID)[0]
	if !strings.Contains(prompt, "/docs/quickstart") || !strings.Contains(prompt, "had 150 unique visitors (120 human, 30 AI) over the last 7 days") {
		t.Errorf("instruction lacks the page or its figures:\n%s", prompt)
	}
	h.StopAll()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
}

func TestEveryWayInRefusesPeopleNotAllowed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Slack.AddUser("U0MALLORY", "mallory")
	const mallory = "U0MALLORY"
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{AllowedUsers: []string{alice, bob}}}})
	const refused = "not on the list"
	n := 0
	h.everyWayIn(mallory, "", func(what string) {
		h.T.Helper()
		n++
		h.WaitFor(what+": the private refusal", func() bool {
			c := 0
			for _, e := range h.Slack.Ephemerals(mallory) {
				if strings.Contains(e.Text, refused) {
					c++
				}
			}
			for _, p := range h.Slack.ResponsePosts("") {
				if strings.Contains(p.Text, refused) && p.ResponseType == "ephemeral" {
					c++
				}
			}
			return c >= n
		})
	})
	for _, text := range []string{"", "list", "Write docs"} {
		ack := h.Command(mallory, general, agent.Command, text)
		if !strings.Contains(string(ack.Payload), refused) || !strings.Contains(string(ack.Payload), "ephemeral") {
			t.Errorf("/docs-agent %q acked %s, want a private refusal", text, ack.Payload)
		}
	}
	h.StopAll()
	if n := len(h.API.Requests()); n != 0 {
		t.Errorf("%d docs API requests, want none", n)
	}
	if n := len(h.Slack.OpenModals(mallory)); n != 0 {
		t.Errorf("%d modals opened for a refused person, want none", n)
	}
	for _, method := range []string{"conversations.replies", "views.open", "chat.postMessage"} {
		if calls := h.Slack.Calls(method); (method == "chat.postMessage" && len(calls) != 1) || (method != "chat.postMessage" && len(calls) != 0) {
			t.Errorf("%d %s calls: a refusal reads and posts nothing (the one post is the test's summary)", len(calls), method)
		}
	}
}

func TestShortcutOnALongMessage(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	// 3,900 characters, most of them escaped entities that grow in JSON:
	// the modal's private_metadata (3,000 characters at most) still fits.
	long := "START " + strings.Repeat("&lt;b&gt; &amp; ", 240)
	msg := h.userMessage(bob, general, "", long)
	h.Shortcut(slacktest.MessageShortcut{UserID: alice, CallbackID: agent.ShortcutSendToAgent, ChannelID: general, MessageTS: msg})
	v := h.modalOf(alice)
	if n := len([]rune(v.PrivateMetadata)); n > 3000 {
		t.Errorf("private_metadata of %d characters", n)
	}
	h.submit(v.ID, "Explain the tags")
	_, jobID := h.rootIn(general, msg)
	if prompt := h.API.Prompts(jobID)[0]; !strings.Contains(prompt, "START <b> & <b>") {
		t.Errorf("instruction lacks the quoted message, as typed:\n%.300s", prompt)
	}
}
