package visitors_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/store"
)

// TestProgressNoteOfACrashedAttempt plays a replica that took a long
// summary, posted the progress note and died: the next attempt, on another
// replica, deletes that note before its answer and posts no second one, so
// that the person sees the answer and no "Counting visitors…" above it.
func TestProgressNoteOfACrashedAttempt(t *testing.T) {
	t.Parallel()
	h, _ := visitorsHarness(t, 613) // three pages of 250: a long export
	st := h.OpenStore()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// The dead replica: its socket takes the command and acks it...
	var (
		mu  sync.Mutex
		cmd *slack.SlashCommand
	)
	stop, err := h.Slack.AckAll(ctx, func(e socketmode.Event) {
		if c, ok := e.Data.(slack.SlashCommand); ok {
			mu.Lock()
			cmd = &c
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Slack.SendSlashCommand(ctx, slacktest.SlashCommand{Command: visitors.Command, Text: "30d", UserID: alice, ChannelID: general}); err != nil {
		t.Fatal(err)
	}
	h.WaitFor("the dead replica to receive the command", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return cmd != nil
	})
	stop()
	mu.Lock()
	c := *cmd
	mu.Unlock()

	// ...queues and takes its work, posts the progress note, records it,
	// and dies before answering (its lease runs out at once).
	payload, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if queued, err := st.Enqueue(ctx, store.Work{Key: "cmd:" + c.TriggerID, Kind: visitors.WorkVisitors, Payload: payload}, time.Hour); err != nil || !queued {
		t.Fatalf("Enqueue = %v, %v", queued, err)
	}
	taken, err := st.ClaimWork(ctx, 1, time.Millisecond)
	if err != nil || len(taken) != 1 {
		t.Fatalf("ClaimWork = %v, %v", taken, err)
	}
	note := &slack.WebhookMessage{ResponseType: slack.ResponseTypeEphemeral, Text: "Counting visitors for Oct 9 – Nov 7, 2025…"}
	if err := slack.PostWebhookContext(ctx, c.ResponseURL, note); err != nil {
		t.Fatalf("posting the dead replica's note: %v", err)
	}
	if err := st.Mark(ctx, taken[0], 0, map[string]string{visitors.MarkNote: visitors.NoteShown}); err != nil {
		t.Fatalf("Mark: %v", err)
	}
	if n := h.progressNotesShown(); n != 1 {
		t.Fatalf("%d progress notes shown before the next attempt, want the dead replica's", n)
	}

	// The next attempt, on a live replica, answers.
	h.StartBot(bottest.Config{Now: visitorsNow})
	sum := h.waitSummaries(1)
	h.Settle()
	if !strings.Contains(postText(sum), "613 pages had visitors") {
		t.Errorf("the answer:\n%s", postText(sum))
	}
	if n := h.progressNotesShown(); n != 0 {
		t.Errorf("%d progress notes still shown after the answer, want none: %+v", n, h.Slack.Ephemerals(""))
	}
	if n := h.progressNotesPosted(); n != 1 {
		t.Errorf("%d progress notes posted, want only the dead replica's", n)
	}
	if len(h.summaries()) != 1 {
		t.Errorf("%d answers, want 1", len(h.summaries()))
	}
}
