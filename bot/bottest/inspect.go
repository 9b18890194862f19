package bottest

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// Roots returns the bot's top-level messages in a channel.
func (h *Harness) Roots(channel string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.Slack.Messages(channel) {
		if m.BotID != "" {
			out = append(out, m)
		}
	}
	return out
}

// Finishes returns the bot's result messages in a thread.
func (h *Harness) Finishes(channel, ts string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.Slack.Thread(channel, ts) {
		if m.TS != ts && m.BotID != "" && strings.Contains(string(m.Metadata), agent.FinishedEvent) {
			out = append(out, m)
		}
	}
	return out
}

// Rendered is what a message shows: its blocks' texts (decoded from JSON),
// or its text when it has no blocks.
func Rendered(m slacktest.Message) string {
	if len(m.Blocks) == 0 {
		return m.Text
	}
	var v any
	if err := json.Unmarshal(m.Blocks, &v); err != nil {
		return m.Text
	}
	var texts []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if t, ok := x["text"].(string); ok {
				texts = append(texts, t)
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	return strings.Join(texts, "\n")
}

// Privates returns the messages shown to user alone (slacktest's
// Ephemerals; "" for everyone's) whose text contains text, oldest first.
func (h *Harness) Privates(user, text string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.Slack.Ephemerals(user) {
		if strings.Contains(m.Text, text) {
			out = append(out, m)
		}
	}
	return out
}

// WaitPrivate waits until user is shown, alone, a message whose text
// contains text, and returns the first such.
func (h *Harness) WaitPrivate(user, text string) slacktest.Message {
	h.T.Helper()
	var got []slacktest.Message
	h.WaitFor("a private message to "+user+" with "+strconv.Quote(text), func() bool {
		got = h.Privates(user, text)
		return len(got) > 0
	})
	return got[0]
}
