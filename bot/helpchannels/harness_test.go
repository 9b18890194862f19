package helpchannels_test

import (
	"context"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL) }

const (
	general = bottest.General
	help    = "C0HELP"
	alice   = "U0ALICE" // an editor where editors are set
	bob     = "U0BOB"
)

// harness is the end-to-end world of bottest with a #help channel.
type harness struct{ *bottest.Harness }

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{bottest.New(t, redisURL)}
	h.Slack.AddChannel(slacktest.Channel{ID: help, Name: "help", BotMember: true})
	h.Slack.AddUser(alice, "alice")
	h.Slack.AddUser(bob, "bob")
	return h
}

// post posts a person's top-level message in channel and returns its ts.
func (h *harness) post(user, channel, text string) string {
	h.T.Helper()
	ts, _ := h.Reply(user, channel, "", text)
	return ts
}

// answerIn waits for the bot's finished answer in the thread under ts of
// channel and returns it.
func (h *harness) answerIn(channel, ts string) slacktest.Message {
	h.T.Helper()
	var got slacktest.Message
	h.WaitFor("the answer under "+ts, func() bool {
		for _, m := range h.Slack.Thread(channel, ts) {
			if m.BotID != "" && m.TS != ts && !m.Streaming && strings.Contains(string(m.Blocks), "Sources") {
				got = m
				return true
			}
		}
		return false
	})
	return got
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

// audited are the audit trail's records of action, once the inbox is
// idle: a piece of work's records are written with its Done (bot.AuditTrail),
// after the reply the test saw, so they are read only when no work is left.
func (h *harness) audited(action string) []store.AuditRecord {
	h.T.Helper()
	h.Idle()
	st := h.OpenStore()
	var out []store.AuditRecord
	err := st.AuditLog(store.AuditOptions{}).Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
		if r.Action == action {
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return out
}
