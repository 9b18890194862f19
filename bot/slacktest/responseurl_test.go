package slacktest

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

// runCommand runs a slash command against a client that acks it and returns
// the payload the client parsed.
func runCommand(t *testing.T, s *Server, c SlashCommand) slack.SlashCommand {
	t.Helper()
	var cmds recorder[slack.SlashCommand]
	ackEverything(t, s, func(e socketmode.Event) {
		if e.Type == socketmode.EventTypeSlashCommand {
			cmds.add(e.Data.(slack.SlashCommand))
		}
	})
	if _, err := s.SlashCommand(testContext(t), c); err != nil {
		t.Fatal(err)
	}
	return waitLen(t, &cmds, 1)[0]
}

func statusOf(err error) int {
	var sc slack.StatusCodeError
	if errors.As(err, &sc) {
		return sc.Code
	}
	if err != nil {
		return -1
	}
	return http.StatusOK
}

func TestResponseURL(t *testing.T) {
	t.Parallel()
	type step struct {
		msg        slack.WebhookMessage
		wantStatus int
	}
	tests := []struct {
		name          string
		ttl           time.Duration
		steps         []step
		wantMessages  []string // texts in the channel
		wantEphemeral []string // texts shown to the user
		wantErrors    []string // ResponsePost.Error per step
	}{
		{
			name:          "in_channel and ephemeral",
			ttl:           time.Hour,
			steps:         []step{{slack.WebhookMessage{Text: "for everyone", ResponseType: "in_channel"}, 200}, {slack.WebhookMessage{Text: "just you"}, 200}},
			wantMessages:  []string{"for everyone"},
			wantEphemeral: []string{"just you"},
			wantErrors:    []string{"", ""},
		},
		{
			name:          "replace and delete the original",
			ttl:           time.Hour,
			steps:         []step{{slack.WebhookMessage{Text: "v1", ResponseType: "in_channel"}, 200}, {slack.WebhookMessage{Text: "v2", ReplaceOriginal: true}, 200}, {slack.WebhookMessage{Text: "eph"}, 200}, {slack.WebhookMessage{DeleteOriginal: true}, 200}},
			wantMessages:  []string{"v2"},
			wantEphemeral: nil,
			wantErrors:    []string{"", "", "", ""},
		},
		{
			name: "five posts then used_url",
			ttl:  time.Hour,
			steps: []step{
				{slack.WebhookMessage{Text: "1"}, 200}, {slack.WebhookMessage{Text: "2"}, 200}, {slack.WebhookMessage{Text: "3"}, 200},
				{slack.WebhookMessage{Text: "4"}, 200}, {slack.WebhookMessage{Text: "5"}, 200}, {slack.WebhookMessage{Text: "6"}, 404},
			},
			wantEphemeral: []string{"1", "2", "3", "4", "5"},
			wantErrors:    []string{"", "", "", "", "", "used_url"},
		},
		{
			name:       "expired",
			ttl:        time.Nanosecond,
			steps:      []step{{slack.WebhookMessage{Text: "late"}, 404}},
			wantErrors: []string{"expired_url"},
		},
		{
			name:       "nothing to say",
			ttl:        time.Hour,
			steps:      []step{{slack.WebhookMessage{}, 400}},
			wantErrors: []string{"no_text"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t, WithResponseURLLimits(5, tc.ttl))
			// The bot has not joined the channel: response_url works anyway.
			s.AddChannel(Channel{ID: "C0RANDOM", Name: "random"})
			cmd := runCommand(t, s, SlashCommand{Command: "/docs-visitors", Text: "7d", UserID: "U0BOB", ChannelID: "C0RANDOM"})
			for i, st := range tc.steps {
				err := slack.PostWebhookContext(testContext(t), cmd.ResponseURL, &st.msg)
				if got := statusOf(err); got != st.wantStatus {
					t.Errorf("step %d: status %d (%v), want %d", i, got, err, st.wantStatus)
				}
			}
			var msgs, eph, errs []string
			for _, m := range s.Messages("C0RANDOM") {
				msgs = append(msgs, m.Text)
			}
			for _, m := range s.Ephemerals("U0BOB") {
				eph = append(eph, m.Text)
			}
			for _, p := range s.ResponsePosts(cmd.TriggerID) {
				errs = append(errs, p.Error)
			}
			if !slices.Equal(msgs, tc.wantMessages) || !slices.Equal(eph, tc.wantEphemeral) || !slices.Equal(errs, tc.wantErrors) {
				t.Errorf("channel %q ephemeral %q errors %q; want %q %q %q", msgs, eph, errs, tc.wantMessages, tc.wantEphemeral, tc.wantErrors)
			}
		})
	}
}

// TestResponseURLThroughChatAPI posts with slack-go's MsgOptionResponseURL, which
// parses the answer by content type.
func TestResponseURLThroughChatAPI(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	cmd := runCommand(t, s, SlashCommand{Command: "/docs-agent", Text: "x", UserID: "U0ALICE", ChannelID: "C0GENERAL"})
	_, _, err := botAPI(s).PostMessageContext(testContext(t), cmd.ChannelID, slack.MsgOptionResponseURL(cmd.ResponseURL, slack.ResponseTypeEphemeral), slack.MsgOptionText("queued", false))
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Ephemerals("U0ALICE"); len(e) != 1 || e[0].Text != "queued" {
		t.Errorf("ephemerals %+v", e)
	}
}

func TestWaitForAndChanges(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	ch, stop := s.Changes()
	defer stop()
	s.AddUser("U0CAROL", "carol")
	select {
	case <-ch:
	case <-testContext(t).Done():
		t.Fatal("no change notification")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := s.WaitFor(ctx, func() bool { return len(s.Users()) > 10 }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitFor on a false condition = %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- s.WaitFor(testContext(t), func() bool { return len(s.Channels()) == 2 }) }()
	s.AddChannel(Channel{ID: "C0NEW", Name: "new", BotMember: true})
	if err := <-done; err != nil {
		t.Errorf("WaitFor = %v", err)
	}
}
