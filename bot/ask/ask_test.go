package ask_test

import (
	"time"

	"github.com/slack-go/slack"

	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"

	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestAskStreamsTheAnswerWithItsSources: /docs-ask shows the question, and
// the answer streams under it in steps (the fake assistant releases its
// deltas one by one), then ends with its sources linked to the docs site,
// the assistant's suggestions as links, and 👍/👎.
func TestAskStreamsTheAnswerWithItsSources(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	pace := make(chan struct{})
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Pace: pace})
	h.StartBot(bottest.Config{Answers: true})
	ts := h.asked(alice, "How do I rotate an API key?")
	h.WaitFor("the first text", func() bool {
		a := h.answers(ts)
		return len(a) == 1 && a[0].Streaming && strings.Contains(a[0].Text, "According")
	})
	first := h.answers(ts)[0].Text
	close(pace)
	m := h.answered(ts)
	if !strings.HasPrefix(m.Text, first) || len(m.Text) <= len(first) {
		t.Errorf("the answer did not grow from its first text %q: %q", first, m.Text)
	}
	bottest.WantContains(t, "the answer", m.Text, "According to Authentication", "Bearer token", "[Authentication](https://docs.example.com/authentication)")
	if strings.Contains(m.Text, "```suggestions") {
		t.Errorf("the suggestions block shows as text: %q", m.Text)
	}
	bottest.WantContains(t, "the answer's blocks", bottest.Rendered(m), "Sources:", "<https://docs.example.com/authentication|Authentication>",
		"See also:", "<https://docs.example.com/api-reference/rate-limits|Rate limits>")
	bottest.WantContains(t, "the answer's blocks", string(m.Blocks), `"feedback_buttons"`, `"ask.feedback"`)
	if !strings.Contains(h.Slack.Messages(general)[0].Text, "How do I rotate an API key?") {
		t.Errorf("the question is not shown: %q", h.Slack.Messages(general)[0].Text)
	}
	if n := h.API.Questions(); n != 1 {
		t.Errorf("the assistant was asked %d times, want once", n)
	}
}

// TestAskConversationGoesOn: the asker's reply in an answer's thread goes
// on with its conversation (the assistant's thread, with its key), and its
// answer follows the earlier question.
func TestAskConversationGoesOn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	ts := h.asked(alice, "How do I set up webhooks?")
	h.answered(ts)
	h.Reply(alice, general, ts, "And how do I verify them?")
	second := h.answeredAgain(ts)
	bottest.WantContains(t, "the second answer", second.Text, `Following up on your earlier question ("How do I set up webhooks?")`)
	if n := h.API.Questions(); n != 2 {
		t.Errorf("the assistant was asked %d times, want twice", n)
	}
}

// TestAskWhoseMentionIsAQuestion: with the answers on, a viewer's mention
// is answered and starts no job; an editor's is a question when it ends
// with "?" or starts with "ask", and a job otherwise.
func TestAskWhoseMentionIsAQuestion(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const viewer = "U0VIEWER"
	h.Slack.AddUser(viewer, "viewer")
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	tests := []struct {
		user, text string
		job        bool
	}{
		{viewer, "Write a page on webhooks", false},
		{alice, "how do webhooks get signed?", false},
		{alice, "ask where the quickstart is", false},
		{alice, "Write a page on webhook retries", true},
	}
	for _, tt := range tests {
		jobs := len(h.API.Jobs())
		m, err := h.Slack.Mention(t.Context(), slacktestMessage(tt.user, tt.text))
		if err != nil {
			t.Fatal(err)
		}
		if tt.job {
			h.WaitFor("the job of "+tt.text, func() bool { return len(h.API.Jobs()) == jobs+1 })
			continue
		}
		h.answered(m.TS)
		if n := len(h.API.Jobs()); n != jobs {
			t.Errorf("%q by %s started a job", tt.text, tt.user)
		}
	}
	if n := h.API.Questions(); n != 3 {
		t.Errorf("the assistant was asked %d times, want 3", n)
	}
}

// TestAskWhenTheAssistantFails: what the person reads when the assistant
// fails mid-answer (an error chunk, a cut stream) or refuses (429): the part
// that arrived stays, stopped, saying so, with Ask again; a 429 is told
// privately with when to try again. The assistant is never asked twice.
func TestAskWhenTheAssistantFails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		fault   docsapitest.Fault
		note    string // in the stopped answer, "" when none shows
		private string // told privately, "" when nothing is
	}{
		{"an error chunk", docsapitest.Fault{StreamError: "model overloaded", AfterDeltas: 2}, "stopped with an error", ""},
		{"a cut stream", docsapitest.Fault{CutStream: true, AfterDeltas: 2}, "cut off before it ended", ""},
		{"a 429", docsapitest.Fault{Status: 429, RetryAfter: 90 * time.Second}, "", "answering too many questions right now. Please ask again in about 2 minutes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			tt.fault.Endpoint = docsapitest.EndpointAssistant
			h.API.AddFault(tt.fault)
			h.StartBot(bottest.Config{Answers: true})
			ts := h.asked(alice, "How do webhooks get signed?")
			if tt.note != "" {
				m := h.answered(ts)
				bottest.WantContains(t, "the answer", m.Text, "According to", tt.note)
				bottest.WantContains(t, "the answer's blocks", string(m.Blocks), `"ask.again"`)
			}
			if tt.private != "" {
				h.WaitFor("the private note", func() bool { return h.told(alice, tt.private) })
				h.Idle()
				if a := h.answers(ts); len(a) != 0 {
					t.Errorf("%d answers shown after a 429, want none", len(a))
				}
			}
			if n := h.API.Count(docsapitest.EndpointAssistant); n != 1 {
				t.Errorf("the assistant was asked %d times, want once", n)
			}
		})
	}
}

// TestAskAnsweredOnceWhenRedelivered: Slack sending /docs-ask again gets
// one answer.
func TestAskAnsweredOnceWhenRedelivered(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	ack := h.Command(alice, general, "/docs-ask", "How do I install the CLI?")
	h.WaitFor("the question shown", func() bool { return len(h.Roots(general)) == 1 })
	ts := h.Roots(general)[0].TS
	h.answered(ts)
	if err := h.Slack.Redeliver(t.Context(), ack.EnvelopeID); err != nil {
		t.Fatal(err)
	}
	h.Idle()
	if n := len(h.Roots(general)); n != 1 {
		t.Errorf("%d questions shown, want 1", n)
	}
	if a := h.answers(ts); len(a) != 1 || h.API.Questions() != 1 {
		t.Errorf("%d answers and %d questions to the assistant after a redelivery, want 1 and 1", len(a), h.API.Questions())
	}
}

// TestAskAfterAReplicaDiedMidAnswer: the work of a replica that died while
// its answer streamed is taken by another, which stops that answer saying
// it may be incomplete, with Ask again, and does not ask the assistant
// again; one that died after asking and before showing anything leaves
// the person a private note with Ask again.
func TestAskAfterAReplicaDiedMidAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := t.Context()
	// No bot runs yet: the questions (as the dead replica saw them) are
	// posted without waiting for one, and mention nobody.
	questionTS := h.PostNoAck(bob, general, "", "how are keys rotated?")
	_, streamTS, err := h.BotClient().StartStreamContext(ctx, general, slack.MsgOptionTS(questionTS), slack.MsgOptionMarkdownText("Keys are rotated"),
		slack.MsgOptionRecipientUserID(bob), slack.MsgOptionRecipientTeamID("T0TEST"))
	if err != nil {
		t.Fatal(err)
	}
	q := bot.Question{Team: "T0TEST", Channel: general, User: bob, TS: questionTS, Text: "how are keys rotated?", Via: bot.ViaMention}
	h.DeadReplicaWork("ask:streaming", bot.WorkAsk, q, map[string]string{"share": "1", "asking": "1", "stream": streamTS})
	lostTS := h.PostNoAck(alice, general, "", "where is the quickstart?")
	q2 := bot.Question{Team: "T0TEST", Channel: general, User: alice, TS: lostTS, Text: "where is the quickstart?", Via: bot.ViaMention}
	h.DeadReplicaWork("ask:lost", bot.WorkAsk, q2, map[string]string{"share": "1", "asking": "1"})

	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Bot: bot.Config{LandingWindow: time.Millisecond}}})
	m := h.answered(questionTS)
	bottest.WantContains(t, "the answer left streaming", m.Text, "Keys are rotated", "docsbot stopped while answering")
	bottest.WantContains(t, "its blocks", string(m.Blocks), `"ask.again"`)
	h.WaitFor("alice told her answer was lost", func() bool { return h.told(alice, "stopped before it could show the answer") })
	h.Idle()
	if n := h.API.Questions(); n != 0 {
		t.Errorf("the assistant was asked %d times after the replica died, want none", n)
	}
}

// TestAskAfterAReplicaDiedBeforeDone: a replica that ended its answer
// whole and died before Done (an answer streamed whole writes no done
// mark: doc.go) leaves the next attempt nothing to do: the answer stays as
// it was, nobody is told anything, and the assistant is not asked again.
func TestAskAfterAReplicaDiedBeforeDone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := t.Context()
	ts := h.PostNoAck(alice, general, "", "how do I install the CLI?")
	_, stream, err := h.BotClient().StartStreamContext(ctx, general, slack.MsgOptionTS(ts), slack.MsgOptionMarkdownText("Run the installer."),
		slack.MsgOptionRecipientUserID(alice), slack.MsgOptionRecipientTeamID("T0TEST"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.BotClient().StopStreamContext(ctx, general, stream); err != nil {
		t.Fatal(err)
	}
	q := bot.Question{Team: "T0TEST", Channel: general, User: alice, TS: ts, Text: "how do I install the CLI?", Via: bot.ViaMention}
	h.DeadReplicaWork("ask:whole", bot.WorkAsk, q, map[string]string{"share": "1", "asking": "1", "stream": stream})

	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Bot: bot.Config{LandingWindow: time.Millisecond}}})
	h.WaitLogged("the answer of an earlier attempt was complete", 1)
	h.Idle()
	if a := h.answers(ts); len(a) != 1 || a[0].Streaming || strings.Contains(a[0].Text, "docsbot stopped") {
		t.Errorf("the answer ended whole before Done was lost: %+v, want it as it was", a)
	}
	if n := len(h.Slack.Thread(general, ts)); n != 2 {
		t.Errorf("%d messages in the thread, want the question and its answer", n)
	}
	if p := h.Privates(alice, ""); len(p) != 0 {
		t.Errorf("alice told %+v, want nothing", p)
	}
	if n := h.API.Questions(); n != 0 {
		t.Errorf("the assistant was asked %d times after the replica died, want none", n)
	}
}

// TestAskKeepsSecretsOutOfTheLogs: neither the assistant key nor a thread
// key shows in what the bot logged while answering and going on with a
// conversation.
func TestAskKeepsSecretsOutOfTheLogs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	ts := h.asked(alice, "How do I add a custom domain?")
	h.answered(ts)
	h.Reply(alice, general, ts, "Is TLS included?")
	h.answeredAgain(ts)
	h.StopAll()
	logs := h.Logs.String()
	if strings.Contains(logs, h.API.AssistantKey) {
		t.Error("the assistant key is in the logs")
	}
	for _, id := range h.API.ThreadIDs() {
		th, _ := h.API.Thread(id)
		if th.Key != "" && strings.Contains(logs, th.Key) {
			t.Errorf("thread %s's key is in the logs", id)
		}
	}
}

// TestAskShareOfAPerson: a person who asked their share of the hour is told
// when they can ask again, and the assistant is not asked; another person
// still gets answers.
func TestAskShareOfAPerson(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Ask: ask.Config{PerUser: 2}}})
	for _, q := range []string{"How do I install the CLI?", "How do webhooks get signed?"} {
		h.answered(h.asked(alice, q))
	}
	h.Command(alice, general, "/docs-ask", "Where are the rate limits?")
	h.WaitFor("alice told her share is spent", func() bool { return h.told(alice, "You asked 2 questions in the last hour") })
	h.answered(h.asked(bob, "Where are the rate limits?"))
	h.Idle()
	if n := h.API.Questions(); n != 3 {
		t.Errorf("the assistant was asked %d times, want 3 (alice's third refused)", n)
	}
}

// TestAskNotSetUp: where no project has a docs assistant, /docs-ask says so
// privately, and so does a button of an answer given before the answers
// were turned off: nothing pressed goes unanswered.
func TestAskNotSetUp(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	answer := h.answered(h.asked(alice, "How do I install the CLI?"))
	h.StopAll()
	h.StartBot(bottest.Config{})
	ack := h.Command(alice, general, "/docs-ask", "How do I rotate an API key?")
	bottest.WantContains(t, "the ack", string(ack.Payload), "not set up", "DOCS_ASSISTANT_KEY")
	h.press(bob, answer, ask.ActionFeedback, "good")
	h.WaitFor("bob told the answers are off", func() bool { return h.told(bob, "Answers from the docs are not set up here") })
	if n := h.API.Questions(); n != 1 {
		t.Errorf("the assistant was asked %d times, want 1 (before the answers were off)", n)
	}
}

// TestAskWhereSlackRefusesStreams: where Slack refuses chat.startStream, the
// answer is posted and then edited as it grows, and ends with the same
// sources and buttons.
func TestAskWhereSlackRefusesStreams(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Slack.FailNext("chat.startStream", "not_allowed_token_type", 1000)
	h.StartBot(bottest.Config{Answers: true})
	ts := h.asked(alice, "How do I add a custom domain?")
	h.WaitFor("the posted answer, whole", func() bool {
		for _, m := range h.Slack.Thread(general, ts) {
			if m.BotID != "" && m.TS != ts && strings.Contains(bottest.Rendered(m), "Sources:") {
				return true
			}
		}
		return false
	})
	for _, m := range h.Slack.Thread(general, ts) {
		if m.BotID == "" || m.TS == ts {
			continue
		}
		if m.Streamed {
			t.Errorf("a streamed message despite the refusal: %+v", m)
		}
		bottest.WantContains(t, "the posted answer", bottest.Rendered(m), "According to Custom domains", "<https://docs.example.com/guides/custom-domains|Custom domains>")
		bottest.WantContains(t, "its blocks", string(m.Blocks), `"feedback_buttons"`)
	}
	if n := h.API.Questions(); n != 1 {
		t.Errorf("the assistant was asked %d times, want once", n)
	}
}
