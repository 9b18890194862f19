package agent

import (
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// TestIsRoot: a start's earlier root message is one of docsbot's own whose
// metadata names the work; another app's message naming it, or docsbot's
// naming other work, is not (a forged one could name a job to link).
func TestIsRoot(t *testing.T) {
	t.Parallel()
	self := bot.Identity{UserID: "U0BOT", BotID: "B0BOT"}
	w := &bot.Work{Taken: store.Taken{Work: store.Work{Key: "cmd:1"}}}
	root := func(user, botID, work string) slack.Message {
		m := slack.Message{}
		m.User, m.BotID = user, botID
		m.Metadata = slack.SlackMetadata{EventType: RootEvent, EventPayload: map[string]any{"work": work, "job": "job_1"}}
		return m
	}
	other := root("U0BOT", "B0BOT", "cmd:1")
	other.Metadata.EventType = FinishedEvent
	tests := []struct {
		name string
		m    slack.Message
		self bot.Identity
		want bool
	}{
		{"docsbot's, by its user", root("U0BOT", "", "cmd:1"), self, true},
		{"docsbot's, by its bot id", root("", "B0BOT", "cmd:1"), self, true},
		{"docsbot's, naming other work", root("U0BOT", "B0BOT", "cmd:2"), self, false},
		{"another app's naming the work", root("U0OTHER", "B0OTHER", "cmd:1"), self, false},
		{"docsbot's, another kind of metadata", other, self, false},
		{"a message with no author, docsbot's identity unknown", root("", "", "cmd:1"), bot.Identity{}, false},
	}
	for _, tt := range tests {
		if got := isRoot(tt.m, tt.self, w); got != tt.want {
			t.Errorf("%s: isRoot = %v, want %v", tt.name, got, tt.want)
		}
	}
}
