package ask_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// zwsp is the zero-width space bot/mrkdwn disarms markup and addresses
// with.
const zwsp = "\u200b"

// pingMarkup is Slack markup that would notify or link: a special, user,
// channel or group mention, or a link, opened by a '<' with nothing
// between. bareMention is a special mention Slack might read without
// markup.
var (
	pingMarkup  = regexp.MustCompile(`<[!@#]|<(?i:https?|mailto):`)
	bareMention = regexp.MustCompile(`(?i)@(here|channel|everyone)`)
	// evilLink is an address of the phishing site a linker would find.
	evilLink = regexp.MustCompile(`(?i)(https?://|www\.)evil\.example`)
)

// wantNoPing fails when text (markdown_text of a stream) would notify
// anyone or open Slack markup.
func wantNoPing(t *testing.T, what, text string) {
	t.Helper()
	if loc := pingMarkup.FindStringIndex(text); loc != nil {
		t.Errorf("%s opens Slack markup at %d: %q", what, loc[0], text[max(loc[0]-20, 0):min(loc[1]+20, len(text))])
	}
	if m := bareMention.FindString(text); m != "" {
		t.Errorf("%s holds a bare %s", what, m)
	}
}

// visible is text as it reads, without the zero-width spaces.
func visible(text string) string { return strings.ReplaceAll(text, zwsp, "") }

// dangerous is what an answer may try: every kind of mention, in pieces
// that split them.
const dangerous = "<!here> and <@U0BOB>, <!subteam^S0TEAM|docs-team> and @here @channel @everyone."

// TestAnswerPingsNobodyWhateverItsPieces: an answer that splits <!here>,
// <@U…>, <!subteam^…> and @here over the assistant's deltas shows no
// mention, in the pieces streamed as it grows (flush), in the pieces of
// its end (finish: the first text shown, the rest, longer than a piece,
// at the end, with a '<' where a piece of 5,500 characters would end), and
// in the message posted and edited where Slack refuses streams.
func TestAnswerPingsNobodyWhateverItsPieces(t *testing.T) {
	t.Parallel()
	t.Run("as it grows", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		pace := make(chan struct{})
		deltas := []string{"Ping <", "!here> now and <", "@U0BOB> then <", "!subteam^S0TEAM|team> and @", "here and @chan", "nel done. "}
		h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Pace: pace, Deltas: deltas})
		h.StartBot(bottest.Config{Answers: true, Config: app.Config{Ask: ask.Config{Interval: time.Millisecond}}})
		ts := h.asked(alice, "How do I ping everyone?")
		// Each delta is released once what came before shows: each
		// shows in pieces of its own.
		for i, want := range []string{"Ping ", "now and ", "then ", "team> and ", "here and ", ""} {
			h.WaitFor("the text up to delta "+string(rune('1'+i)), func() bool {
				a := h.answers(ts)
				return len(a) == 1 && strings.HasSuffix(visible(a[0].Text), want)
			})
			if i < len(deltas)-1 {
				pace <- struct{}{}
			}
		}
		m := h.answered(ts)
		if m.Appends < 3 {
			t.Errorf("the answer was streamed in %d appends; want one a delta", m.Appends)
		}
		wantNoPing(t, "the streamed answer", m.Text)
		bottest.WantContains(t, "the answer as it reads", visible(m.Text), "Ping <!here> now and <@U0BOB> then <!subteam^S0TEAM|team> and @here and @channel done.")
	})
	t.Run("at its end", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		filler := strings.Repeat("word ", 1099) + "word" // 5,499 characters: a piece of 5,500 ends on the '<'
		h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Deltas: []string{"Hi ", filler + dangerous + " " + filler + "@" + "here <"}})
		h.StartBot(bottest.Config{Answers: true, Config: app.Config{Ask: ask.Config{Interval: time.Hour}}}) // only the first text shows before the end
		ts := h.asked(alice, "How do I ping everyone?")
		m := h.answered(ts)
		if m.Appends < 2 {
			t.Errorf("the end came in %d appends; want the rest in pieces", m.Appends)
		}
		wantNoPing(t, "the streamed answer", m.Text)
		bottest.WantContains(t, "the answer as it reads", visible(m.Text), dangerous)
	})
	t.Run("posted and edited", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		h.Slack.FailNext("chat.startStream", "not_allowed_token_type", 1000)
		h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Deltas: []string{"Ping <", "!here> and <@U0BOB>, <!subteam^S0TEAM> and @", "here."}})
		h.StartBot(bottest.Config{Answers: true})
		ts := h.asked(alice, "How do I ping everyone?")
		m := h.answered(ts)
		if m.Streamed {
			t.Fatalf("a streamed answer despite the refusal")
		}
		for what, text := range map[string]string{"its text": m.Text, "its blocks": bottest.Rendered(m)} {
			if strings.Contains(text, "<!") || strings.Contains(text, "<@") || bareMention.MatchString(text) {
				t.Errorf("the posted answer's %s pings: %q", what, text)
			}
		}
		bottest.WantContains(t, "the posted answer", m.Text, "&lt;!here&gt;", "&lt;@U0BOB&gt;", "@"+zwsp+"here")
	})
}

// linky is an answer that links everywhere: the docs (a relative path), a
// host of DOCSBOT_LINK_DOMAINS, and a phishing site by every way markdown
// has (a link, a bare address, an autolink, an image, a suggestion).
var linky = []string{
	"See [Keys](/guides/keys) and [Status](https://status.example.org/now). ",
	"Log in at [Login](https://evil.example/login), or https://evil.example/reset, or <https://evil.example/auto>. ",
	"![logo](https://evil.example/logo.png) and [Docs](https://docs.example.com/x) end.\n\n",
	"```suggestions\n(Reset password)[https://evil.example/reset]\n(Rate limits)[/api-reference/rate-limits]\n```",
}

// linkySources are the source-url chunks of the answer: a phishing page
// and a docs page.
var linkySources = []docsapitest.SourceURL{{URL: "https://evil.example/src", Title: "Evil source"}, {URL: "https://docs.example.com/quickstart", Title: "Quickstart"},
	{URL: "https://evil.example/t", Title: "Go to https://evil.example/titled"}, {URL: "https://docs.example.com/k", Title: "Keys at www.evil.example"}}

// TestAnswerLinksOnlyToTheDocs: in an answer, links to the docs site (a
// relative path resolved on it) and to DOCSBOT_LINK_DOMAINS stay links;
// any other address (an inline link, a bare address, an autolink, an
// image, a source, a suggestion) shows as code, host first, and is
// linkable nowhere: in the stream, in its Sources and See also, and in the
// message posted and edited where Slack refuses streams.
func TestAnswerLinksOnlyToTheDocs(t *testing.T) {
	t.Parallel()
	for _, fallback := range []bool{false, true} {
		name := "streamed"
		if fallback {
			name = "posted and edited"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if fallback {
				h.Slack.FailNext("chat.startStream", "not_allowed_token_type", 1000)
			}
			h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Deltas: linky, SourceURLs: linkySources})
			h.StartBot(bottest.Config{Answers: true, Config: app.Config{Ask: ask.Config{LinkDomains: []string{"example.org"}}}})
			m := h.answered(h.asked(alice, "How do I log in?"))
			blocks := bottest.Rendered(m)
			for what, text := range map[string]string{"text": m.Text, "blocks": blocks} {
				if loc := evilLink.FindStringIndex(text); loc != nil {
					t.Errorf("the answer's %s links to the phishing site: %q", what, text[max(loc[0]-30, 0):min(loc[1]+30, len(text))])
				}
			}
			shown := func(u string) string { return "`" + strings.Replace(u, "://", ":"+zwsp+"//", 1) + "`" }
			text := m.Text
			if fallback {
				bottest.WantContains(t, "the posted answer", text, "<https://docs.example.com/guides/keys|Keys>", "<https://status.example.org/now|Status>",
					"<https://docs.example.com/x|Docs>")
			} else {
				bottest.WantContains(t, "the streamed answer", text, "[Keys](https://docs.example.com/guides/keys)", "[Status](https://status.example.org/now)",
					"[Docs](https://docs.example.com/x)")
			}
			bottest.WantContains(t, "the answer", text, "Login "+shown("https://evil.example/login"), shown("https://evil.example/reset"),
				shown("https://evil.example/auto"), "logo "+shown("https://evil.example/logo.png"))
			bottest.WantContains(t, "the answer's sources and suggestions", blocks, "Evil source "+shown("https://evil.example/src"),
				"<https://docs.example.com/quickstart|Quickstart>", "Reset password "+shown("https://evil.example/reset"),
				"<https://docs.example.com/api-reference/rate-limits|Rate limits>", "Go to "+shown("https://evil.example/titled")+" "+shown("https://evil.example/t"),
				"<https://docs.example.com/k|Keys at www"+zwsp+".evil.example>")
		})
	}
}

// assistantMessages are the texts of the messages of the n-th question the
// assistant was sent (from 0), as it received them.
func (h *harness) assistantMessages(n int) []string {
	h.T.Helper()
	var reqs []docsapitest.Request
	for _, r := range h.API.Requests() {
		if r.Endpoint == docsapitest.EndpointAssistant {
			reqs = append(reqs, r)
		}
	}
	if n >= len(reqs) {
		h.T.Fatalf("the assistant got %d requests, want a %dth", len(reqs), n+1)
	}
	var body struct {
		Messages []struct {
			Parts []struct{ Text string } `json:"parts"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(reqs[n].Body), &body); err != nil {
		h.T.Fatalf("the assistant's request: %v", err)
	}
	var out []string
	for _, m := range body.Messages {
		var text []string
		for _, p := range m.Parts {
			text = append(text, p.Text)
		}
		out = append(out, strings.Join(text, ""))
	}
	return out
}

// TestAskCutsWhatTheAssistantIsSent: a DM of 40,000 characters reaches the
// assistant cut to 4,000, and its answer says so; the history sent with
// the next question (after an answer of 30,000 characters) is at most
// 8,000 characters.
func TestAskCutsWhatTheAssistantIsSent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	long := strings.Repeat("answer words ", 2300) // 29,900 characters
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Times: 1, Deltas: []string{long}})
	h.StartBot(bottest.Config{Answers: true})
	dm, err := h.Slack.OpenDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	question := "ask " + strings.Repeat("how do keys rotate ", 2200)[:39996] // 40,000 characters
	ts, _, err := h.Slack.PostUserMessage(t.Context(), slacktest.UserMessage{ChannelID: dm, UserID: alice, Text: question})
	if err != nil {
		t.Fatal(err)
	}
	h.WaitFor("the answer in the DM", func() bool { a := h.answersIn(dm, ts); return len(a) == 1 && !a[0].Streaming })
	sent := h.assistantMessages(0)
	if n := utf8.RuneCountInString(sent[len(sent)-1]); n > ask.QuestionMax || n < ask.QuestionMax-10 {
		t.Errorf("the assistant got a question of %d characters, want %d at most (and about as many)", n, ask.QuestionMax)
	}
	bottest.WantContains(t, "the answer", h.answersIn(dm, ts)[0].Text, "longer than the 4,000 characters")

	h.Reply(alice, dm, ts, "And where are the keys kept?")
	h.WaitFor("the second answer in the DM", func() bool { a := h.answersIn(dm, ts); return len(a) == 2 && !a[1].Streaming })
	sent = h.assistantMessages(1)
	history := 0
	for _, m := range sent[:len(sent)-1] {
		history += utf8.RuneCountInString(m)
	}
	if len(sent) < 2 || history > ask.HistoryMax || history == 0 {
		t.Errorf("the history sent was %d messages of %d characters, want some, at most %d", len(sent)-1, history, ask.HistoryMax)
	}
}

// TestAskStopsReadingAnAnswer: an answer longer than 64 KiB, or slower than
// the stream's time (5 minutes; shorter here), stops being read: what came
// shows, saying it was cut, and the work ends: the assistant is asked once.
func TestAskStopsReadingAnAnswer(t *testing.T) {
	t.Parallel()
	t.Run("too long", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		var deltas []string
		for range 70 {
			deltas = append(deltas, strings.Repeat("lorem ipsum ", 85)) // 1,020 bytes
		}
		h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Deltas: deltas})
		h.StartBot(bottest.Config{Answers: true})
		m := h.answered(h.asked(alice, "Tell me everything"))
		bottest.WantContains(t, "the answer", m.Text, "lorem ipsum", "longer than docsbot reads of one answer (64 KiB)")
		h.Idle()
		if n := h.API.Count(docsapitest.EndpointAssistant); n != 1 {
			t.Errorf("the assistant was asked %d times, want once", n)
		}
	})
	t.Run("too slow", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Pace: make(chan struct{})}) // never goes past its first delta
		h.StartBot(bottest.Config{Answers: true, Config: app.Config{Ask: ask.Config{StreamTime: 200 * time.Millisecond}}})
		m := h.answered(h.asked(alice, "How do I rotate an API key?"))
		bottest.WantContains(t, "the answer", m.Text, "According", "took longer than")
		bottest.WantContains(t, "its blocks", string(m.Blocks), `"ask.again"`)
		h.Idle()
		if n := h.API.Count(docsapitest.EndpointAssistant); n != 1 {
			t.Errorf("the assistant was asked %d times, want once", n)
		}
	})
}

// TestAskWorkspaceBudget: the workspace's questions an hour are one budget
// for every replica: past it (3 here) a question is refused, privately,
// saying when to ask again, and the assistant is not asked, though the
// person's own share is not spent.
func TestAskWorkspaceBudget(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cfg := bottest.Config{Answers: true, Config: app.Config{Ask: ask.Config{Budget: 3, PerUser: 10}}}
	h.StartBot(cfg)
	h.StartBot(cfg)
	for _, q := range []struct{ user, text string }{{alice, "How do I install the CLI?"}, {bob, "Where are the rate limits?"}, {alice, "How do webhooks get signed?"}} {
		h.answered(h.asked(q.user, q.text))
	}
	h.Command(bob, general, "/docs-ask", "How do I add a custom domain?")
	h.WaitFor("bob told the workspace's questions are spent", func() bool {
		return h.told(bob, "This workspace asked the docs 3 questions in the last hour") && h.told(bob, "You can ask again in")
	})
	h.Idle()
	if n := h.API.Questions(); n != 3 {
		t.Errorf("the assistant was asked %d times, want 3 (the 4th refused)", n)
	}
}

// TestAskOthersRepliesCostNothing: in a channel, another person's reply in
// an answer's thread ("thanks") is no question: no assistant call, no
// share, nothing posted; their mention there is a question of theirs, and
// the asker's reply goes on with the conversation.
func TestAskOthersRepliesCostNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Ask: ask.Config{PerUser: 1}}})
	ts := h.asked(alice, "How do I set up webhooks?")
	h.answered(ts)
	h.Reply(bob, general, ts, "thanks, that helped!")
	h.Idle()
	if n, a := h.API.Questions(), len(h.answers(ts)); n != 1 || a != 1 {
		t.Errorf("after bob's thanks: %d questions, %d answers; want 1 and 1", n, a)
	}
	if len(h.Privates(bob, "")) != 0 {
		t.Errorf("bob was told something about his thanks: %+v", h.Privates(bob, ""))
	}
	// bob's share (1 an hour) is whole: his mention in the thread is his
	// question, answered.
	if _, err := h.Slack.Mention(t.Context(), slacktest.UserMessage{ChannelID: general, UserID: bob, ThreadTS: ts, Text: "how are they signed?"}); err != nil {
		t.Fatal(err)
	}
	h.answeredAgain(ts)
	h.Reply(alice, general, ts, "thanks!")
	h.Idle()
	// alice's reply goes on with her conversation: her share (1) is spent,
	// so she is told when she can ask again, and the assistant is not asked.
	h.WaitFor("alice told her share is spent", func() bool { return h.told(alice, "You asked 1 question in the last hour") })
	if n := h.API.Questions(); n != 2 {
		t.Errorf("the assistant was asked %d times, want 2", n)
	}
}

// TestAskFeedbackCountsOnce: 👍 pressed twice by one person counts once
// (the audit trail has one record) and the second press says so.
func TestAskFeedbackCountsOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	answer := h.answered(h.asked(alice, "How do I install the CLI?"))
	h.press(alice, answer, ask.ActionFeedback, "good")
	h.WaitFor("alice thanked", func() bool { return h.told(alice, "Thanks: this helps") })
	h.press(alice, answer, ask.ActionFeedback, "good")
	h.WaitFor("alice told it was counted", func() bool { return h.told(alice, "counted already") })
	h.press(bob, answer, ask.ActionFeedback, "bad")
	h.WaitFor("bob thanked", func() bool { return h.told(bob, "Thanks for saying so") })
	h.Idle() // a press's audit record is written with the end of its work
	counted := map[string]int{}
	err := h.OpenStore().AuditLog(store.AuditOptions{}).Each(t.Context(), store.AuditQuery{}, func(r store.AuditRecord) error {
		if r.Action == ask.AuditAnswerFeedback {
			counted[r.User]++
		}
		return nil
	})
	if err != nil || counted[alice] != 1 || counted[bob] != 1 {
		t.Errorf("feedback counted %v (%v), want once for alice and once for bob", counted, err)
	}
}

// TestAskTeamOnce: "Ask the docs team" pressed twice posts the question
// once; the second press is told it was sent.
func TestAskTeamOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startWithRequests(alice)
	answer := h.answered(h.asked(bob, "Where are the audit logs?"))
	h.press(bob, answer, ask.ActionFallsShort, "")
	offer := h.WaitButtons(bob, ask.ActionAskTeam)
	h.press(bob, offer, ask.ActionAskTeam, "")
	h.WaitFor("bob told it was sent", func() bool { return h.told(bob, "Sent to the docs team") })
	h.press(bob, offer, ask.ActionAskTeam, "")
	h.WaitFor("bob told it was sent already", func() bool { return h.told(bob, "sent this question to the docs team already") })
	h.Idle()
	if n := len(h.Roots(requests)); n != 1 {
		t.Errorf("%d posts in the requests channel, want 1", n)
	}
}

// TestAskShareTakenOnceAcrossAttempts: a replica that took a question's
// share of the hour (the person's and the workspace's, in one step named
// by the work: doc.go) and died before marking it leaves the next attempt
// to take it again under the same name: granted, not counted twice. With a
// workspace budget of 1, the question is still answered.
func TestAskShareTakenOnceAcrossAttempts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ts := h.PostNoAck(alice, general, "", "where is the quickstart?")
	const key = "ask:died-after-its-take"
	taken, err := h.OpenStore().Limits().Draw(t.Context(), store.Draw{Budget: store.Budget{Name: "ask", Limit: 1, Window: time.Hour},
		Who: "T0TEST:" + alice, Share: 5, ID: "q:" + key}, 1)
	if err != nil || !taken.OK() {
		t.Fatalf("the dead replica's take: %+v, %v", taken, err)
	}
	h.DeadReplicaWork(key, bot.WorkAsk, bot.Question{Team: "T0TEST", Channel: general, User: alice, TS: ts, Text: "where is the quickstart?", Via: bot.ViaMention}, nil)
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Bot: bot.Config{LandingWindow: time.Millisecond}, Ask: ask.Config{Budget: 1, PerUser: 5}}})
	h.answered(ts)
	if n := h.API.Questions(); n != 1 {
		t.Errorf("the assistant was asked %d times, want once", n)
	}
	h.Command(bob, general, "/docs-ask", "How do I install the CLI?")
	h.WaitFor("bob refused: the workspace's one question is spent", func() bool { return h.told(bob, "This workspace asked the docs 1 question in") })
}
