package helpchannels

import (
	"testing"

	"github.com/slack-go/slack"
)

// TestAnsweredBy: a thread counts as answered by a person when someone
// other than the asker, not a bot, replied in it.
func TestAnsweredBy(t *testing.T) {
	t.Parallel()
	msg := func(ts, user, botID, subtype string) slack.Message {
		return slack.Message{Msg: slack.Msg{Timestamp: ts, User: user, BotID: botID, SubType: subtype}}
	}
	root := msg("1.0", "U0ASKER", "", "")
	tests := []struct {
		name string
		msgs []slack.Message
		want bool
	}{
		{"no replies", []slack.Message{root}, false},
		{"the asker's own reply", []slack.Message{root, msg("2.0", "U0ASKER", "", "")}, false},
		{"a bot's reply", []slack.Message{root, msg("2.0", "U0OTHERBOT", "B0OTHER", "bot_message")}, false},
		{"someone joining", []slack.Message{root, msg("2.0", "U0BOB", "", "channel_join")}, false},
		{"a person's reply", []slack.Message{root, msg("2.0", "U0ASKER", "", ""), msg("3.0", "U0BOB", "", "")}, true},
		{"a broadcast reply", []slack.Message{root, msg("2.0", "U0BOB", "", "thread_broadcast")}, true},
	}
	for _, tt := range tests {
		if got := answeredBy(tt.msgs, "1.0", "U0ASKER"); got != tt.want {
			t.Errorf("%s: answeredBy = %v, want %v", tt.name, got, tt.want)
		}
	}
}
