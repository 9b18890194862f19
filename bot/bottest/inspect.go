package bottest

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
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

// WantRequests checks how many requests to endpoint the harness's API
// server took; why, when set, says why that many.
func (h *Harness) WantRequests(endpoint docsapitest.Endpoint, n int, why string) {
	h.T.Helper()
	if got := h.API.Count(endpoint); got != n {
		if why != "" {
			why = ": " + why
		}
		h.T.Errorf("%d %s requests to the docs API, want %d%s", got, endpoint, n, why)
	}
}

// WaitModal waits until user has a modal of callbackID open and returns it.
func (h *Harness) WaitModal(user, callbackID string) slacktest.View {
	h.T.Helper()
	var v slacktest.View
	h.WaitFor("the modal "+callbackID+" open for "+user, func() bool {
		for _, m := range h.Slack.OpenModals(user) {
			if m.CallbackID == callbackID {
				v = m
				return true
			}
		}
		return false
	})
	return v
}

// WaitButtons waits until user is shown, alone, a message whose blocks hold
// actionID (a question with its buttons), and returns the first such.
func (h *Harness) WaitButtons(user, actionID string) slacktest.Message {
	h.T.Helper()
	var q slacktest.Message
	h.WaitFor("the buttons "+actionID+" shown to "+user, func() bool {
		for _, m := range h.Slack.Ephemerals(user) {
			if strings.Contains(string(m.Blocks), actionID) {
				q = m
				return true
			}
		}
		return false
	})
	return q
}

// WantContains checks that text, what it is being what (a summary, a
// Home), contains each of wants.
func WantContains(t testing.TB, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}
