package pane_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL) }

const (
	general = bottest.General
	alice   = "U0ALICE"
	bob     = "U0BOB"
)

// harness is the end-to-end world of bottest; without ai, the bot token
// lacks the AI surface's scopes (an app installed before the manifest
// asked for them).
type harness struct{ *bottest.Harness }

func newHarness(t *testing.T, ai bool, apiOpts ...docsapitest.Option) *harness {
	t.Helper()
	var opts []slacktest.Option
	if !ai {
		opts = append(opts, slacktest.WithoutAIScopes())
	}
	return &harness{bottest.NewWith(t, redisURL, opts, apiOpts...)}
}

// session waits for the pane's session of the thread (Slack's agent
// session) to have status.
func (h *harness) session(th slacktest.AssistantThread, status string) {
	h.T.Helper()
	h.WaitFor("the pane's session "+status, func() bool {
		s, ok := h.Slack.AgentSession(th.Channel, th.ThreadTS)
		return ok && s.Status == status
	})
}

// open is user opening the pane while looking at channel.
func (h *harness) open(user, channel string) slacktest.AssistantThread {
	h.T.Helper()
	th, err := h.Slack.OpenAssistantThread(h.T.Context(), user, channel)
	if err != nil {
		h.T.Fatal(err)
	}
	return th
}

// prompts waits for the prompts of user's DM and returns their titles and
// messages.
func (h *harness) prompts(dm string, n int) (titles, messages []string) {
	h.T.Helper()
	h.WaitFor("the suggested prompts", func() bool {
		sp, ok := h.Slack.SuggestedPrompts(dm, "")
		return ok && len(sp.Prompts) == n
	})
	sp, _ := h.Slack.SuggestedPrompts(dm, "")
	for _, p := range sp.Prompts {
		titles, messages = append(titles, p.Title), append(messages, p.Message)
	}
	return titles, messages
}

// botReplies are the bot's messages in the thread under ts of channel.
func (h *harness) botReplies(channel, ts string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.Slack.Thread(channel, ts) {
		if m.BotID != "" && m.TS != ts {
			out = append(out, m)
		}
	}
	return out
}

// replied waits for a reply of the bot in the thread containing text.
func (h *harness) replied(channel, ts, text string) slacktest.Message {
	h.T.Helper()
	var got slacktest.Message
	h.WaitFor("a reply saying "+text, func() bool {
		for _, m := range h.botReplies(channel, ts) {
			if strings.Contains(m.Text+string(m.Blocks), text) && !m.Streaming {
				got = m
				return true
			}
		}
		return false
	})
	return got
}
