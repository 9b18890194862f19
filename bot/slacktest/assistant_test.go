package slacktest

import (
	"testing"

	"github.com/slack-go/slack"
)

func TestThreadStatus(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t)
	ctx := testContext(t)
	parent, err := s.Mention(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "fix the quickstart"})
	if err != nil {
		t.Fatal(err)
	}
	set := func(status string) error {
		return api.SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{ChannelID: "C0GENERAL", ThreadTS: parent.TS, Status: status})
	}
	if err := set("is reading the docs…"); err != nil {
		t.Fatal(err)
	}
	if got := s.ThreadStatus("C0GENERAL", parent.TS); got != "is reading the docs…" {
		t.Fatalf("status = %q", got)
	}
	// The bot's post in the thread clears it, as on Slack.
	if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Done", false), slack.MsgOptionTS(parent.TS)); err != nil {
		t.Fatal(err)
	}
	if got := s.ThreadStatus("C0GENERAL", parent.TS); got != "" {
		t.Errorf("status after the bot posted in the thread = %q, want none", got)
	}
	if err := set("is writing…"); err != nil {
		t.Fatal(err)
	}
	if err := set(""); err != nil || s.ThreadStatus("C0GENERAL", parent.TS) != "" {
		t.Errorf("an empty status did not clear it: %v", err)
	}
	err = api.SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{ChannelID: "C0GENERAL", ThreadTS: "1.000001", Status: "x"})
	if got := slackErr(err); got != "thread_not_found" {
		t.Errorf("status in an unknown thread: %q, want thread_not_found", got)
	}
}
