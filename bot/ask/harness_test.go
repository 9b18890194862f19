package ask_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL, bottest.Parallel(8)) }

// harness is the end-to-end world of bottest with the answers on.
type harness struct{ *bottest.Harness }

const (
	general = bottest.General
	alice   = "U0ALICE"
	bob     = "U0BOB"
)

func newHarness(t *testing.T, apiOpts ...docsapitest.Option) *harness {
	t.Helper()
	return &harness{bottest.New(t, redisURL, apiOpts...)}
}

// startWithRequests starts the answers with a requests channel (Ask the
// docs team posts there) and editors (none: everyone).
func (h *harness) startWithRequests(editors ...string) {
	h.T.Helper()
	h.Slack.AddChannel(slacktest.Channel{ID: requests, Name: "docs-requests", BotMember: true})
	h.StartBot(bottest.Config{Answers: true, Editors: editors, Config: app.Config{Ask: ask.Config{RequestsChannel: requests}}})
}

// answers are the bot's streamed or posted answers in the thread under ts.
func (h *harness) answers(ts string) []slacktest.Message { return h.answersIn(general, ts) }

// answersIn are the bot's streamed or posted answers in the thread under
// ts of channel.
func (h *harness) answersIn(channel, ts string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.Slack.Thread(channel, ts) {
		if m.BotID != "" && m.TS != ts && (m.Streamed || strings.Contains(string(m.Blocks), "feedback")) {
			out = append(out, m)
		}
	}
	return out
}

// answered waits for the one finished answer under ts and returns it.
func (h *harness) answered(ts string) slacktest.Message {
	h.T.Helper()
	return h.answeredIn(general, ts)
}

// answeredIn waits for the one finished answer under ts of channel and
// returns it.
func (h *harness) answeredIn(channel, ts string) slacktest.Message {
	h.T.Helper()
	h.WaitFor("the answer under "+ts, func() bool {
		a := h.answersIn(channel, ts)
		return len(a) == 1 && !a[0].Streaming
	})
	return h.answersIn(channel, ts)[0]
}

// answeredAgain waits for the second finished answer under ts, to a reply
// in the thread, and returns it.
func (h *harness) answeredAgain(ts string) slacktest.Message {
	h.T.Helper()
	h.WaitFor("the second answer under "+ts, func() bool {
		a := h.answers(ts)
		return len(a) == 2 && !a[1].Streaming
	})
	return h.answers(ts)[1]
}

// asked runs /docs-ask with question and returns the ts of the message
// showing it, under which the answer goes.
func (h *harness) asked(user, question string) string {
	h.T.Helper()
	before := len(h.Roots(general))
	h.Command(user, general, "/docs-ask", question)
	h.WaitFor("the question shown", func() bool { return len(h.Roots(general)) > before })
	return h.Roots(general)[before].TS
}

// slacktestMessage is user's message text in #general.
func slacktestMessage(user, text string) slacktest.UserMessage {
	return slacktest.UserMessage{ChannelID: general, UserID: user, Text: "<@U0BOT> " + text}
}

// told reports whether user was told privately something containing text.
func (h *harness) told(user, text string) bool {
	if len(h.Privates(user, text)) > 0 {
		return true
	}
	for _, p := range h.Slack.ResponsePosts("") {
		if p.User == user && strings.Contains(p.Text+string(p.Blocks), text) {
			return true
		}
	}
	return false
}
