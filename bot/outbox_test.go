package bot

import (
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// slowEdits is a bot on a fake Slack whose chat.update takes 300ms, and a
// message of the bot's ("state 0") to edit.
func slowEdits(t *testing.T) (*slacktest.Server, *Bot, string) {
	t.Helper()
	s := slacktest.NewServer()
	t.Cleanup(s.Close)
	s.SetAPILatency("chat.update", 300*time.Millisecond)
	client := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL))
	b := New(Config{Logger: slog.New(slog.DiscardHandler)}, client, nil)
	_, ts, err := client.PostMessageContext(t.Context(), "C0GENERAL", slack.MsgOptionText("state 0", false))
	if err != nil {
		t.Fatal(err)
	}
	return s, b, ts
}

// TestEditsCoalesce asks for ten edits of one message while the first is in
// flight: only the first and the last reach Slack.
func TestEditsCoalesce(t *testing.T) {
	s, b, ts := slowEdits(t)
	for i := 1; i <= 10; i++ {
		b.Edit(t.Context(), "C0GENERAL", ts, []slack.MsgOption{slack.MsgOptionText(fmt.Sprintf("state %d", i), false)}, b.log)
	}
	b.work.closeAndWait(0)
	calls := s.Calls("chat.update")
	if len(calls) != 2 || calls[0].Params["text"] != "state 1" || calls[1].Params["text"] != "state 10" {
		var texts []string
		for _, c := range calls {
			texts = append(texts, c.Params["text"])
		}
		t.Fatalf("chat.update calls %q, want just state 1 and state 10", texts)
	}
	if m, ok := s.Message("C0GENERAL", ts); !ok || m.Text != "state 10" {
		t.Fatalf("message shows %q, want the latest state", m.Text)
	}
}

// TestEditNowDropsTheWaitingEdit asks for a background edit while another is
// in flight, then edits the message at once: the waiting edit, older than
// the one made at once, never reaches Slack.
func TestEditNowDropsTheWaitingEdit(t *testing.T) {
	s, b, ts := slowEdits(t)
	for i := 1; i <= 2; i++ {
		b.Edit(t.Context(), "C0GENERAL", ts, []slack.MsgOption{slack.MsgOptionText(fmt.Sprintf("state %d", i), false)}, b.log)
	}
	if err := b.EditNow(t.Context(), "C0GENERAL", ts, slack.MsgOptionText("final", false)); err != nil {
		t.Fatalf("EditNow: %v", err)
	}
	b.work.closeAndWait(0)
	var texts []string
	for _, c := range s.Calls("chat.update") {
		texts = append(texts, c.Params["text"])
	}
	if len(texts) != 2 || texts[0] != "state 1" || texts[1] != "final" {
		t.Fatalf("chat.update calls %q, want state 1 (in flight) and final, not the waiting state 2", texts)
	}
}
