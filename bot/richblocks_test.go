package bot

import (
	"errors"
	"log/slog"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// planState is a Rich of one state: its text, under a plan where Slack
// takes plans.
func planState(text string) Rich {
	return Rich{Kind: RichPlan,
		With:    []slack.MsgOption{slack.MsgOptionText(text, false), slack.MsgOptionBlocks(slack.NewPlanBlock(text))},
		Without: []slack.MsgOption{slack.MsgOptionText(text, false)}}
}

// TestRichRefusedOnce: where Slack refuses plans, Post, EditNow and Edit
// send a Rich without its plan, each replica meeting the refusal once (a
// second replica's Edit meets it too, then edits without); a Rich with no
// form without is then not posted (ErrRichRefused).
func TestRichRefusedOnce(t *testing.T) {
	s := slacktest.NewServer()
	t.Cleanup(s.Close)
	s.RefuseBlockType("plan")
	replica := func() *Bot {
		return New(Config{Logger: slog.New(slog.DiscardHandler)}, slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL)), WorkStore{})
	}
	b, other := replica(), replica()
	ts, err := b.Post(t.Context(), "C0GENERAL", planState("state 1"))
	if err != nil {
		t.Fatalf("Post: %v", err)
	}
	if err := b.EditNow(t.Context(), "C0GENERAL", ts, planState("state 2")); err != nil {
		t.Fatalf("EditNow: %v", err)
	}
	b.Edit(t.Context(), "C0GENERAL", ts, planState("state 3"), b.log)
	b.work.closeAndWait(0)
	other.Edit(t.Context(), "C0GENERAL", ts, planState("state 4"), other.log)
	other.work.closeAndWait(0)

	var sent []string
	refused := 0
	for _, c := range s.Calls("") {
		if c.Method != "chat.postMessage" && c.Method != "chat.update" {
			continue
		}
		if c.Error == "invalid_blocks" {
			refused++
			continue
		}
		if c.Params["blocks"] != "" {
			t.Errorf("%s sent blocks %s where Slack refuses plans", c.Method, c.Params["blocks"])
		}
		sent = append(sent, c.Params["text"])
	}
	if refused != 2 || len(sent) != 4 || sent[0] != "state 1" || sent[3] != "state 4" {
		t.Errorf("%d refusals and %q sent, want 2 (one a replica) and the 4 states", refused, sent)
	}
	if m, ok := s.Message("C0GENERAL", ts); !ok || m.Text != "state 4" {
		t.Errorf("message shows %q, want the latest state", m.Text)
	}

	chart := Rich{Kind: RichPlan, With: planState("a chart").With}
	if _, err := b.Post(t.Context(), "C0GENERAL", chart); !errors.Is(err, ErrRichRefused) {
		t.Errorf("Post of a Rich with no form without, refused lately: %v, want ErrRichRefused", err)
	}
	if _, err := other.Post(t.Context(), "C0GENERAL", Plain{slack.MsgOptionText("plain", false)}); err != nil {
		t.Errorf("Post of a Plain message: %v", err)
	}
}
