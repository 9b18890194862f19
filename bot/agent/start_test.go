package agent_test

import (
	"cmp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestStartAfterCrashDuringCreate plays a replica that died after recording
// the intent to create a job and before linking it: the next replica must not
// create the job again blindly. It says the outcome is unknown, in the root
// message and privately, and "retry" in the thread starts the job once.
func TestStartAfterCrashDuringCreate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	// The dead replica's work: its root message posted, the create begun.
	rootTS := h.PostNoAck(alice, general, "", "placeholder for the dead replica's root message")
	h.DeadReplicaWork("cmd:dead-replica", "agent.start", map[string]string{"team": "T0TEST", "channel": general, "user": alice, "prompt": "Document the webhooks"},
		map[string]string{"root": rootTS, "intent": "x"})

	h.StartBot(bottest.Config{})
	h.WaitPrivate(alice, "cannot tell whether the agent started")
	if n := h.API.Count(docsapitest.EndpointCreate); n != 0 {
		t.Fatalf("%d create requests after the crash, want none", n)
	}

	h.Reply(alice, general, rootTS, "retry")
	h.Reply(alice, general, rootTS, "retry") // a second ask finds the offer taken
	h.WaitFor("the job to start on retry", func() bool { return h.API.Count(docsapitest.EndpointCreate) == 1 })
	h.Settle()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
	if n := len(h.Finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results in the thread, want 1", n)
	}
}

// TestSlackRateLimitedRootMessage has Slack answer 429 to the root message
// for longer than the queued notice: the person is told privately that the
// job is queued, and the job then starts once, nothing dropped.
func TestSlackRateLimitedRootMessage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Slack.RateLimit("chat.postMessage", 5, time.Second)
	h.StartBot(bottest.Config{})
	ack := h.Command(alice, general, agent.Command, "Document the rate limits")
	if len(ack.Payload) != 0 && string(ack.Payload) != "null" {
		t.Errorf("ack payload %s, want none", ack.Payload)
	}
	h.Settle()
	if n := h.API.Count(docsapitest.EndpointCreate); n != 1 {
		t.Fatalf("%d jobs created, want 1", n)
	}
	roots := h.Roots(general)
	if len(roots) != 1 || len(h.Finishes(general, roots[0].TS)) != 1 {
		t.Fatalf("%d root messages, want 1 with its result", len(roots))
	}
	var queued int
	for _, p := range h.Slack.ResponsePosts("") {
		if strings.Contains(p.Text, "queued") {
			queued++
		}
	}
	if queued != 1 {
		t.Errorf("%d private notes that the job is queued, want 1", queued)
	}
	if n := len(h.Slack.Calls("chat.postMessage")); n < 6 {
		t.Errorf("%d chat.postMessage calls, want the 5 answered 429 and more", n)
	}
}

// TestRootMessageAnsweredInternalError has Slack answer internal_error to
// the root message once: that is Slack's trouble, not a refusal, so the
// start is tried again and the job starts once instead of "not started".
func TestRootMessageAnsweredInternalError(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Slack.FailNext("chat.postMessage", "internal_error", 1)
	h.StartBot(bottest.Config{})
	h.Command(alice, general, agent.Command, "Document the retries")
	h.Settle()
	if n := h.API.Count(docsapitest.EndpointCreate); n != 1 {
		t.Fatalf("%d jobs created, want 1", n)
	}
	roots := h.Roots(general)
	if len(roots) != 1 || len(h.Finishes(general, roots[0].TS)) != 1 {
		t.Fatalf("%d root messages, want 1 with its result", len(roots))
	}
}

// TestStartAfterCrashAfterRootPost plays a replica that died after posting the
// root message and before recording it: the next replica finds the message by
// its metadata instead of posting a second one, and starts the job once.
func TestStartAfterCrashAfterRootPost(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const key = "cmd:root-posted"
	h.DeadReplicaWork(key, "agent.start", map[string]string{"team": "T0TEST", "channel": general, "user": alice, "prompt": "Document the SDK"}, nil)
	// The dead replica's root message, as the bot posts it.
	_, rootTS, err := h.BotClient().PostMessage(general, slack.MsgOptionText("Docs agent job", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: agent.RootEvent, EventPayload: map[string]any{"work": key}}))
	if err != nil {
		t.Fatal(err)
	}

	h.StartBot(bottest.Config{})
	h.Settle()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
	if roots := h.Roots(general); len(roots) != 1 || roots[0].TS != rootTS {
		t.Fatalf("root messages %d, want just the dead replica's", len(roots))
	}
	if n := len(h.Finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results in the root message's thread, want 1", n)
	}
}

// TestReplyWhileTheJobStarts replies in the thread of a root message whose
// job is still being created: the reply is not dropped but sent to the job
// once it is linked.
func TestReplyWhileTheJobStarts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Latency: 1500 * time.Millisecond, Times: 1})
	h.StartBot(bottest.Config{})
	h.Command(alice, general, agent.Command, "Document the CLI")
	h.WaitFor("the root message", func() bool { return len(h.Roots(general)) == 1 })
	root := h.Roots(general)[0]
	h.Reply(alice, general, root.TS, "Also the config file")
	h.WaitFor("the follow-up to reach the agent", func() bool { return h.API.Count(docsapitest.EndpointMessage) == 1 })
	h.Settle()
	h.WantRequests(docsapitest.EndpointMessage, 1, "")
}

// TestRootMessageRefusedTellsThePerson has Slack refuse the root message of
// a job started by a mention, which has no response_url: the person is told
// privately why nothing started: in the channel, or in a direct message when
// the bot cannot write in the channel at all.
func TestRootMessageRefusedTellsThePerson(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		fail      map[string]string // method: Slack's answer
		inDM      bool
		wantWords string
	}{
		{"posting restricted", map[string]string{"chat.postMessage": "restricted_action"}, false, "restricted_action"},
		{"bot removed from the channel", map[string]string{"chat.postMessage": "not_in_channel", "chat.postEphemeral": "not_in_channel"}, true, "I can't post in this channel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			for method, code := range tc.fail {
				h.Slack.FailNext(method, code, 1)
			}
			h.StartBot(bottest.Config{})
			h.mention(alice, general, "", "Document the webhooks")
			dm, err := h.Slack.OpenDM(alice)
			if err != nil {
				t.Fatal(err)
			}
			h.WaitFor("a private note that nothing started", func() bool {
				if tc.inDM {
					return slices.ContainsFunc(h.Slack.Messages(dm), func(m slacktest.Message) bool { return strings.Contains(m.Text, tc.wantWords) })
				}
				return len(h.Privates(alice, tc.wantWords)) > 0
			})
			h.Settle()
			h.WantRequests(docsapitest.EndpointCreate, 0, "")
		})
	}
}

// TestStartEndingIsShownDespiteSlack ends starts without a job to follow
// (the docs API refused the create; its outcome is unknown) while Slack
// fails the root message's edit for a while: the person is told privately
// at once, once, the root message shows the ending when Slack recovers
// instead of "Starting" forever, and the create is never made again.
func TestStartEndingIsShownDespiteSlack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		fault   docsapitest.Fault
		mention bool
		want    string // on the root message and in the private note
	}{
		{"refused, slash command", docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Status: 422, Body: `{"error":"prompt rejected"}`}, false, "did not start"},
		{"refused, mention", docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Status: 422, Body: `{"error":"prompt rejected"}`}, true, "did not start"},
		{"outcome unknown", docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Status: 500, AfterAct: true}, false, "cannot tell whether the agent started"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.API.AddFault(tc.fault)
			h.Slack.FailNext("chat.update", "internal_error", 3)
			h.StartBot(bottest.Config{})
			var thread string
			if tc.mention {
				thread = h.mention(alice, general, "", "Document the webhooks").TS
			} else {
				h.Command(alice, general, agent.Command, "Document the webhooks")
			}
			var root slacktest.Message
			h.WaitFor("the root message showing how the start ended", func() bool {
				for _, m := range h.Slack.Thread(general, cmp.Or(thread, rootTSOf(h))) {
					if m.BotID != "" && strings.Contains(string(m.Metadata), agent.RootEvent) {
						root = m
						return strings.Contains(rendered(m), "Not started") || strings.Contains(rendered(m), "cannot tell whether")
					}
				}
				return false
			})
			h.Settle()
			if told := len(h.Privates(alice, tc.want)); told != 1 {
				t.Errorf("told privately %d times, want once", told)
			}
			if strings.Contains(rendered(root), "Starting the agent") {
				t.Errorf("root message %q still says it is starting", rendered(root))
			}
			h.WantRequests(docsapitest.EndpointCreate, 1, "")
		})
	}
}

// rootTSOf is the ts of the bot's only top-level message in general, "" if
// there is none yet.
func rootTSOf(h *harness) string {
	if r := h.Roots(general); len(r) == 1 {
		return r[0].TS
	}
	return ""
}
