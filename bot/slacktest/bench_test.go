package slacktest

import (
	"context"
	"testing"

	"github.com/slack-go/slack"
)

// BenchmarkSlashCommandRoundTrip measures envelope out, ack back, through
// slack-go's Socket Mode client over a real WebSocket.
func BenchmarkSlashCommandRoundTrip(b *testing.B) {
	s := newTestServer(b)
	ctx := context.Background()
	ackEverything(b, s, nil)
	if err := s.WaitConnections(ctx, 1); err != nil {
		b.Fatal(err)
	}
	c := SlashCommand{Command: "/docs-agent", Text: "bench", UserID: "U0ALICE", ChannelID: "C0GENERAL"}
	for b.Loop() {
		if _, err := s.SlashCommand(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPostMessage measures chat.postMessage through slack-go's Web API client.
func BenchmarkPostMessage(b *testing.B) {
	s := newTestServer(b, WithEchoBotMessages(false))
	api := botAPI(s)
	ctx := context.Background()
	for b.Loop() {
		if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("bench", false)); err != nil {
			b.Fatal(err)
		}
	}
}
