package sandbox

import (
	"context"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
)

// TestSandboxHelpChannel: the sandbox's #help answers a question without a
// mention, in its thread, with its sources and Ask an expert (the docs
// team); chatter there gets nothing.
func TestSandboxHelpChannel(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	p.send(helpChannel, "good morning everyone, the coffee is ready", "")
	q := p.send(helpChannel, "How do I rotate an API key?", "")
	p.waitFor("the answer in the question's thread", func(st slackweb.State) bool {
		for _, m := range channel(st, helpChannel).Messages {
			if m.TS != q.TS {
				continue
			}
			for _, r := range m.Replies {
				if r.BotID != "" && !r.Streaming && strings.Contains(string(r.Blocks), "Sources:") &&
					strings.Contains(string(r.Blocks), "Ask an expert") {
					return true
				}
			}
		}
		return false
	})
	for _, m := range channel(p.state(), helpChannel).Messages {
		if m.TS != q.TS && m.ReplyCount > 0 {
			t.Errorf("chatter in #help got replies: %+v", m)
		}
	}
}

// TestSandboxPrivateHelpChannel: the sandbox's #help-private answers a
// question to the asker alone, with Share in channel; pressing it on the
// page posts the answer in the question's thread for everyone.
func TestSandboxPrivateHelpChannel(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	q := p.send(privateHelpChannel, "How do I rotate an API key?", "")
	var private slackweb.MessageView
	p.waitFor("the answer shown to the asker alone, with Share in channel", func(st slackweb.State) bool {
		for _, m := range st.Ephemerals {
			if m.Channel == privateHelpChannel && strings.Contains(string(m.Blocks), bot.ActionShareAnswer) &&
				strings.Contains(m.Text+string(m.Blocks), "According to Authentication") {
				private = m
				return true
			}
		}
		return false
	})
	for _, m := range channel(p.state(), privateHelpChannel).Messages {
		if m.ReplyCount > 0 {
			t.Errorf("the question got replies in the channel before it was shared: %+v", m)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), sandboxWait)
	defer cancel()
	if out, status, err := (slackweb.Client{URL: sb.url}).Act(ctx, slackweb.ActionRequest{Channel: private.Channel, TS: private.TS, ActionID: bot.ActionShareAnswer}); err != nil || !out.OK {
		t.Fatalf("pressing Share in channel: %d %+v %v", status, out, err)
	}
	p.waitFor("the answer shared in the question's thread", func(st slackweb.State) bool {
		for _, m := range channel(st, privateHelpChannel).Messages {
			if m.TS != q.TS {
				continue
			}
			for _, r := range m.Replies {
				if r.BotID != "" && strings.Contains(r.Text, "shared docsbot's answer") && strings.Contains(r.Text, "According to Authentication") {
					return true
				}
			}
		}
		return false
	})
}
