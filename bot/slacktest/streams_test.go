package slacktest

import (
	"strings"
	"testing"

	"github.com/slack-go/slack"
)

// TestStreams drives a streamed reply with the real slack-go client: it
// grows with each append, is a message like another once stopped, and then
// takes no more appends; a channel needs the recipient, a DM does not.
func TestStreams(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t)
	ctx := testContext(t)
	parent, err := s.Mention(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "how do I rotate keys?"})
	if err != nil {
		t.Fatal(err)
	}
	recipient := []slack.MsgOption{slack.MsgOptionRecipientUserID("U0ALICE"), slack.MsgOptionRecipientTeamID("T0TEST")}
	if _, _, err := api.StartStreamContext(ctx, "C0GENERAL", slack.MsgOptionTS(parent.TS), slack.MsgOptionMarkdownText("x")); slackErr(err) != "invalid_arguments" {
		t.Fatalf("a stream in a channel without its recipient: %v, want invalid_arguments", err)
	}
	_, ts, err := api.StartStreamContext(ctx, "C0GENERAL", append(recipient, slack.MsgOptionTS(parent.TS), slack.MsgOptionMarkdownText("To rotate"))...)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{" a key,", " open *Settings*."} {
		if _, _, err := api.AppendStreamContext(ctx, "C0GENERAL", ts, slack.MsgOptionMarkdownText(part)); err != nil {
			t.Fatal(err)
		}
	}
	m := s.streamed(t, "C0GENERAL", ts)
	if !m.Streaming || m.Text != "To rotate a key, open *Settings*." || m.Appends != 2 || m.ThreadTS != parent.TS {
		t.Fatalf("while streaming: %+v", m)
	}
	blocks := slack.MsgOptionBlocks(slack.NewContextBlock("sources", slack.NewTextBlockObject(slack.MarkdownType, "<https://docs.example.com/keys|Keys>", false, false)))
	if _, _, err := api.StopStreamContext(ctx, "C0GENERAL", ts, blocks); err != nil {
		t.Fatal(err)
	}
	if m := s.streamed(t, "C0GENERAL", ts); m.Streaming || !m.Streamed || !strings.Contains(string(m.Blocks), "docs.example.com/keys") {
		t.Fatalf("once stopped: %+v", m)
	}
	for _, call := range []func() error{
		func() error {
			_, _, err := api.AppendStreamContext(ctx, "C0GENERAL", ts, slack.MsgOptionMarkdownText("more"))
			return err
		},
		func() error { _, _, err := api.StopStreamContext(ctx, "C0GENERAL", ts); return err },
	} {
		if err := call(); slackErr(err) != "message_not_in_streaming_state" {
			t.Errorf("after the stop: %v, want message_not_in_streaming_state", err)
		}
	}
	if _, _, err := api.AppendStreamContext(ctx, "C0GENERAL", ts+"1", slack.MsgOptionMarkdownText("x")); slackErr(err) != "message_not_found" {
		t.Errorf("append to no message: %v", err)
	}
	if _, _, err := api.AppendStreamContext(ctx, "C0GENERAL", parent.TS, slack.MsgOptionMarkdownText("x")); slackErr(err) != "message_not_in_streaming_state" {
		t.Errorf("append to a person's message: %v", err)
	}
	if _, _, err := api.AppendStreamContext(ctx, "C0GENERAL", ts, slack.MsgOptionMarkdownText(strings.Repeat("a", MaxStreamTextRunes+1))); slackErr(err) == "" {
		t.Error("an append over the limit was taken")
	}

	dm, err := s.OpenDM("U0ALICE")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := api.StartStreamContext(ctx, dm, slack.MsgOptionMarkdownText("In a DM")); err != nil {
		t.Errorf("a stream in a DM without recipient: %v", err)
	}
}

// streamed returns the message channel/ts, failing the test when missing.
func (s *Server) streamed(t *testing.T, channel, ts string) Message {
	t.Helper()
	m, ok := s.Message(channel, ts)
	if !ok {
		t.Fatalf("no message %s in %s", ts, channel)
	}
	return m
}
