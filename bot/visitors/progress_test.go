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
// summary, posted the progress note and died, and lets another replica do
// the next attempt. A note left shown is deleted before the next answer,
// and no second note is posted: the person sees the answer and no
// "Counting visitors…" above it. A replica that died after clearing its
// note and answering leaves its answer alone, and no second note.
func TestProgressNoteOfACrashedAttempt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// answered: the dead replica deleted its note and answered.
		answered bool
		// notes is how many progress notes were posted in all; answers
		// how many answers the channel shows in the end.
		notes, answers int
	}{
		{name: "died with the note shown", notes: 1, answers: 1},
		{name: "died after the answer", answered: true, notes: 1, answers: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, _ := visitorsHarness(t, 613) // three pages of 250: a long export
			c := h.crashedSummary(tc.answered)

			// The next attempt, on a live replica, answers.
			h.StartBot(bottest.Config{Now: visitorsNow})
			h.WaitFor("the next attempt's answer", func() bool {
				for _, p := range h.summaries() {
					if strings.Contains(postText(p), "613 pages had visitors") {
						return true
					}
				}
				return false
			})
			h.Settle()
			if n := h.progressNotesShown(); n != 0 {
				t.Errorf("%d progress notes still shown after the answer, want none: %+v", n, h.Slack.Ephemerals(""))
			}
			if n := h.progressNotesPosted(); n != tc.notes {
				t.Errorf("%d progress notes posted, want %d", n, tc.notes)
			}
			if n := len(h.Roots(general)); n != tc.answers {
				t.Errorf("the channel shows %d answers, want %d: %+v", n, tc.answers, h.Roots(general))
			}
			if n := len(h.Slack.ResponsePosts(c.TriggerID)); n > 5 {
				t.Errorf("%d posts through the response_url, more than Slack takes", n)
			}
		})
	}
}

// crashedSummary plays a replica that received `/docs-visitors 30d`, took
// its work, posted the progress note and recorded it, then (answered)
// deleted the note, recorded that and posted an answer, and died: its
// lease runs out at once. It returns the command.
func (h *harness) crashedSummary(answered bool) slack.SlashCommand {
	h.T.Helper()
	t := h.T
	st := h.OpenStore()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// Its socket takes the command and acks it.
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

	// Its work: queued, taken, the note posted and recorded.
	payload, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if queued, err := st.Inbox().Enqueue(ctx, store.Work{Key: "cmd:" + c.TriggerID, Kind: visitors.WorkVisitors, Payload: payload}, time.Hour); err != nil || !queued {
		t.Fatalf("Enqueue = %v, %v", queued, err)
	}
	taken, err := st.Inbox().ClaimWork(ctx, 1, time.Millisecond)
	if err != nil || len(taken) != 1 {
		t.Fatalf("ClaimWork = %v, %v", taken, err)
	}
	respond := func(what string, msg *slack.WebhookMessage) {
		if err := slack.PostWebhookContext(ctx, c.ResponseURL, msg); err != nil {
			t.Fatalf("the dead replica %s: %v", what, err)
		}
	}
	mark := func(state string) {
		if err := st.Inbox().Mark(ctx, taken[0], 0, map[string]string{visitors.MarkNote: state}); err != nil {
			t.Fatalf("Mark: %v", err)
		}
	}
	respond("posting its note", &slack.WebhookMessage{ResponseType: slack.ResponseTypeEphemeral, Text: "Counting visitors for Oct 9 – Nov 7, 2025…"})
	mark(visitors.NoteShown)
	if n := h.progressNotesShown(); n != 1 {
		t.Fatalf("%d progress notes shown, want the dead replica's", n)
	}
	if answered {
		respond("deleting its note", &slack.WebhookMessage{DeleteOriginal: true})
		mark(visitors.NoteCleared)
		respond("answering", &slack.WebhookMessage{ResponseType: slack.ResponseTypeInChannel, Text: "The dead replica's answer."})
	}
	return c
}
