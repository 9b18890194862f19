package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// ownRedis starts a redis-server with an append-only file for one test, so
// that the test may kill and start it.
func ownRedis(t *testing.T) *redistest.Server {
	t.Helper()
	rs, err := redistest.Start(redistest.WithAppendOnly())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rs.Close() })
	return rs
}

// TestRedisOutage kills Redis under a running bot: a slash command is
// answered at once, privately, with what happened; a thread reply is left
// unacknowledged, so Slack delivers it again, and once Redis is back it is
// sent to the agent exactly once.
func TestRedisOutage(t *testing.T) {
	t.Parallel()
	rs := ownRedis(t)
	h := newHarness(t)
	h.redisURL = rs.URL
	h.startBot(bot.Config{})

	h.command(alice, general, bot.CommandAgent, "Document the CLI flags")
	h.waitFor("the job to start", func() bool {
		r := h.roots(general)
		return len(r) == 1 && strings.Contains(rendered(r[0]), "job `")
	})
	root := h.roots(general)[0]

	if err := rs.Kill(); err != nil {
		t.Fatal(err)
	}
	ack := h.command(alice, general, bot.CommandAgent, "Document the config file")
	var msg struct {
		Text         string `json:"text"`
		ResponseType string `json:"response_type"`
	}
	if err := json.Unmarshal(ack.Payload, &msg); err != nil || !strings.Contains(msg.Text, "cannot reach its storage") || msg.ResponseType != "ephemeral" {
		t.Errorf("ack while Redis is down = %s, want a private note that the command was not taken", ack.Payload)
	}

	h.postNoAck(alice, general, root.TS, "Also mention the environment variables")
	h.waitLogged("cannot record Slack work in Redis; not acknowledged", 1)
	if err := rs.Start(); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the follow-up to reach the agent", func() bool { return h.api.Count(docsapitest.EndpointMessage) == 1 })
	h.settle()

	if n := h.api.Count(docsapitest.EndpointMessage); n != 1 {
		t.Errorf("%d follow-ups sent, want exactly 1", n)
	}
	if n := h.api.Count(docsapitest.EndpointCreate); n != 1 {
		t.Errorf("%d jobs created, want 1 (the command refused while Redis was down was not started)", n)
	}
	if n := len(h.roots(general)); n != 1 {
		t.Errorf("%d root messages, want 1", n)
	}
}

// TestStartAfterCrashDuringCreate plays a replica that died after recording
// the intent to create a job and before linking it: the next replica must not
// create the job again blindly. It says the outcome is unknown, in the root
// message and privately, and "retry" in the thread starts the job once.
func TestStartAfterCrashDuringCreate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	st := h.openStore()
	ctx := context.Background()

	// The dead replica's work: its root message posted, the create begun.
	rootTS := h.postNoAck(alice, general, "", "placeholder for the dead replica's root message")
	payload, _ := json.Marshal(map[string]string{"team": "T0TEST", "channel": general, "user": alice, "prompt": "Document the webhooks"})
	w := store.Work{Key: "cmd:dead-replica", Kind: "agent.start", Payload: payload}
	if queued, err := st.Enqueue(ctx, w, time.Hour); err != nil || !queued {
		t.Fatalf("Enqueue = %v, %v", queued, err)
	}
	taken, err := st.ClaimWork(ctx, 1, time.Millisecond)
	if err != nil || len(taken) != 1 {
		t.Fatalf("ClaimWork = %v, %v", taken, err)
	}
	if err := st.Mark(ctx, taken[0], 0, map[string]string{"root": rootTS, "intent": "x"}); err != nil {
		t.Fatalf("Mark: %v", err)
	}

	h.startBot(bot.Config{})
	h.waitFor("a private note that the outcome is unknown", func() bool {
		for _, m := range h.slack.Ephemerals(alice) {
			if strings.Contains(m.Text, "cannot tell whether the agent started") {
				return true
			}
		}
		return false
	})
	if n := h.api.Count(docsapitest.EndpointCreate); n != 0 {
		t.Fatalf("%d create requests after the crash, want none", n)
	}

	h.reply(alice, general, rootTS, "retry")
	h.reply(alice, general, rootTS, "retry") // a second ask finds the offer taken
	h.waitFor("the job to start on retry", func() bool { return h.api.Count(docsapitest.EndpointCreate) == 1 })
	h.settle()
	if n := h.api.Count(docsapitest.EndpointCreate); n != 1 {
		t.Errorf("%d create requests, want exactly 1", n)
	}
	if n := len(h.finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results in the thread, want 1", n)
	}
}

// postNoAck posts a person's message like reply, without waiting for the bot
// to acknowledge its event (no bot may be connected, or it may refuse).
func (h *harness) postNoAck(user, channel, threadTS, text string) string {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ts, _, err := h.slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: channel, UserID: user, Text: text, ThreadTS: threadTS})
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		h.t.Fatalf("post %q: %v", text, err)
	}
	return ts
}

// TestSlackRateLimitedRootMessage has Slack answer 429 to the root message
// for longer than the queued notice: the person is told privately that the
// job is queued, and the job then starts once, nothing dropped.
func TestSlackRateLimitedRootMessage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.slack.RateLimit("chat.postMessage", 5, time.Second)
	h.startBot(bot.Config{})
	ack := h.command(alice, general, bot.CommandAgent, "Document the rate limits")
	if len(ack.Payload) != 0 && string(ack.Payload) != "null" {
		t.Errorf("ack payload %s, want none", ack.Payload)
	}
	h.settle()
	if n := h.api.Count(docsapitest.EndpointCreate); n != 1 {
		t.Fatalf("%d jobs created, want 1", n)
	}
	roots := h.roots(general)
	if len(roots) != 1 || len(h.finishes(general, roots[0].TS)) != 1 {
		t.Fatalf("%d root messages, want 1 with its result", len(roots))
	}
	var queued int
	for _, p := range h.slack.ResponsePosts("") {
		if strings.Contains(p.Text, "queued") {
			queued++
		}
	}
	if queued != 1 {
		t.Errorf("%d private notes that the job is queued, want 1", queued)
	}
	if n := len(h.slack.Calls("chat.postMessage")); n < 6 {
		t.Errorf("%d chat.postMessage calls, want the 5 answered 429 and more", n)
	}
}

// TestStartAfterCrashAfterRootPost plays a replica that died after posting the
// root message and before recording it: the next replica finds the message by
// its metadata instead of posting a second one, and starts the job once.
func TestStartAfterCrashAfterRootPost(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	st := h.openStore()
	ctx := context.Background()
	payload, _ := json.Marshal(map[string]string{"team": "T0TEST", "channel": general, "user": alice, "prompt": "Document the SDK"})
	w := store.Work{Key: "cmd:root-posted", Kind: "agent.start", Payload: payload}
	if queued, err := st.Enqueue(ctx, w, time.Hour); err != nil || !queued {
		t.Fatalf("Enqueue = %v, %v", queued, err)
	}
	if _, err := st.ClaimWork(ctx, 1, time.Millisecond); err != nil {
		t.Fatalf("ClaimWork: %v", err)
	}
	// The dead replica's root message, as the bot posts it.
	api := slack.New(h.slack.BotToken(), slack.OptionAPIURL(h.slack.APIURL))
	_, rootTS, err := api.PostMessageContext(ctx, general, slack.MsgOptionText("Docs agent job", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: bot.RootEvent, EventPayload: map[string]any{"work": w.Key}}))
	if err != nil {
		t.Fatal(err)
	}

	h.startBot(bot.Config{})
	h.settle()
	if n := h.api.Count(docsapitest.EndpointCreate); n != 1 {
		t.Errorf("%d jobs created, want 1", n)
	}
	if roots := h.roots(general); len(roots) != 1 || roots[0].TS != rootTS {
		t.Fatalf("root messages %d, want just the dead replica's", len(roots))
	}
	if n := len(h.finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results in the root message's thread, want 1", n)
	}
}

// TestPerChannelPostLimit sends more commands into one channel than Slack
// lets the bot post there at once: every job starts and reports once, the
// root messages and results waiting their turn; none is dropped.
func TestPerChannelPostLimit(t *testing.T) {
	t.Parallel()
	const commands = 12
	h := newHarnessWith(t, []slacktest.Option{slacktest.WithPostLimit(4, 2)})
	h.startBot(bot.Config{})
	for i := range commands {
		h.command(alice, general, bot.CommandAgent, fmt.Sprintf("Document endpoint %d", i))
	}
	h.settle()
	if n := h.api.Count(docsapitest.EndpointCreate); n != commands {
		t.Errorf("%d jobs created, want %d", n, commands)
	}
	roots := h.roots(general)
	if len(roots) != commands {
		t.Fatalf("%d root messages, want %d", len(roots), commands)
	}
	for _, r := range roots {
		if n := len(h.finishes(general, r.TS)); n != 1 {
			t.Errorf("root %s: %d results, want 1", r.TS, n)
		}
	}
	if h.slack.RateLimited()[general] == 0 {
		t.Errorf("Slack never refused a post: the limit was not in force")
	}
}

// TestResponseURLRateLimited has Slack answer 429 to a response_url post:
// the private reply is sent again after Retry-After, not dropped.
func TestResponseURLRateLimited(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.slack.AddChannel(slacktest.Channel{ID: "C0PRIVATE", Name: "secret", BotMember: false, Private: true})
	h.slack.RateLimit("response_url", 1, time.Second)
	h.startBot(bot.Config{})
	h.command(alice, "C0PRIVATE", bot.CommandAgent, "Write docs")
	h.waitFor("the private reply after the 429", func() bool { return len(h.slack.ResponsePosts("")) == 1 })
	if post := h.slack.ResponsePosts("")[0]; !strings.Contains(post.Text, "/invite @docsbot") {
		t.Errorf("reply %q, want the invite hint", post.Text)
	}
}

// TestReplyWhileTheJobStarts replies in the thread of a root message whose
// job is still being created: the reply is not dropped but sent to the job
// once it is linked.
func TestReplyWhileTheJobStarts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.api.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Latency: 1500 * time.Millisecond, Times: 1})
	h.startBot(bot.Config{})
	h.command(alice, general, bot.CommandAgent, "Document the CLI")
	h.waitFor("the root message", func() bool { return len(h.roots(general)) == 1 })
	root := h.roots(general)[0]
	h.reply(alice, general, root.TS, "Also the config file")
	h.waitFor("the follow-up to reach the agent", func() bool { return h.api.Count(docsapitest.EndpointMessage) == 1 })
	h.settle()
	if n := h.api.Count(docsapitest.EndpointMessage); n != 1 {
		t.Errorf("%d follow-ups sent, want 1", n)
	}
}

// TestWorkOfAnUnknownKindWaits plays a rolling update: a newer replica queued
// work of a kind this one does not know. It is left in the inbox for a
// replica that knows it, not dropped.
func TestWorkOfAnUnknownKindWaits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	st := h.openStore()
	if queued, err := st.Enqueue(context.Background(), store.Work{Key: "ev:from-the-future", Kind: "agent.mention", Payload: []byte("{}")}, time.Hour); err != nil || !queued {
		t.Fatalf("Enqueue = %v, %v", queued, err)
	}
	h.startBot(bot.Config{})
	h.waitLogged("no handler for this kind of work here; leaving it to another replica", 1)
	h.stopAll()
	if n, err := st.Queued(context.Background()); err != nil || n != 1 {
		t.Fatalf("Queued = %d, %v; want the work still waiting", n, err)
	}
}
