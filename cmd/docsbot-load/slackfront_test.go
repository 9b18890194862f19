package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestSlackFrontCarriesOutAbandonedCalls checks that a post whose sender
// hung up once it reached Slack is posted all the same, as Slack does.
func TestSlackFrontCarriesOutAbandonedCalls(t *testing.T) {
	t.Parallel()
	sl := slacktest.NewServer()
	t.Cleanup(sl.Close)
	arrived := make(chan string, 10)
	front, err := newSlackFront(sl.APIURL, 300*time.Millisecond, 0, func(method string) { arrived <- method })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(front.close)
	client := slack.New(sl.BotToken(), slack.OptionAPIURL(front.APIURL))

	ctx, cancel := context.WithCancel(t.Context())
	sent := make(chan error, 1)
	go func() {
		_, _, err := client.PostMessageContext(ctx, loadChannel, slack.MsgOptionText("posted after the hang-up", false))
		sent <- err
	}()
	if m := <-arrived; m != "chat.postMessage" {
		t.Fatalf("%s reached Slack, want chat.postMessage", m)
	}
	cancel() // the sender hangs up while Slack holds its post
	if err := <-sent; !errors.Is(err, context.Canceled) {
		t.Fatalf("the sender's call ended with %v, want context.Canceled", err)
	}
	wctx, wcancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer wcancel()
	if err := sl.WaitFor(wctx, func() bool { return len(sl.Messages(loadChannel)) > 0 }); err != nil {
		t.Fatalf("the post abandoned by its sender never landed: %v", err)
	}
	if ms := sl.Messages(loadChannel); len(ms) != 1 || ms[0].Text != "posted after the hang-up" {
		t.Errorf("posted %+v, want the one post", ms)
	}

	// Reads go through the front as well.
	h, err := client.GetConversationHistoryContext(t.Context(), &slack.GetConversationHistoryParameters{ChannelID: loadChannel})
	if err != nil || len(h.Messages) != 1 {
		t.Errorf("reading through the front: %v, %d messages", err, len(h.Messages))
	}
	if m := <-arrived; m != "conversations.history" {
		t.Errorf("%s reached Slack, want conversations.history", m)
	}
}

// TestUncertainStart checks that an uncertain start is read from the status
// line of a root message's blocks, not from its other text.
func TestUncertainStart(t *testing.T) {
	t.Parallel()
	root := func(status string) slacktest.Message {
		return slacktest.Message{Text: "Docs agent job for <@U0ALICE>: cannot tell whether", Blocks: []byte(`[
			{"type":"section","text":{"type":"mrkdwn","text":"*<@U0ALICE> asked the docs agent:*\n> docsbot cannot tell whether"}},
			{"type":"context","elements":[{"type":"mrkdwn","text":` + status + `}]}]`)}
	}
	tests := []struct {
		status string
		want   bool
	}{
		{`":grey_question: docsbot cannot tell whether the agent started: docsbot stopped while the docs API was starting it. Check the agent jobs in your docs dashboard."`, true},
		{`":arrows_counterclockwise: Working · under a minute · job ` + "`job_1`" + `"`, false},
		{`":warning: Not started: the docs API refused the job."`, false},
	}
	for _, tt := range tests {
		if got := uncertainStart(root(tt.status)); got != tt.want {
			t.Errorf("status %s: uncertain %t, want %t", tt.status, got, tt.want)
		}
	}
}
