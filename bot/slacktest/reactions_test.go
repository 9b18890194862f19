package slacktest

import (
	"slices"
	"testing"

	"github.com/slack-go/slack"
)

func TestReactions(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	ackEverything(t, s, nil)
	ts, _, err := s.PostUserMessage(testContext(t), UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "follow-up"})
	if err != nil {
		t.Fatal(err)
	}
	api := botAPI(s)
	item := slack.NewRefToMessage("C0GENERAL", ts)
	add := func() error { return api.AddReactionContext(testContext(t), "eyes", item) }
	remove := func() error { return api.RemoveReactionContext(testContext(t), "eyes", item) }
	tests := []struct {
		name    string
		call    func() error
		wantErr string
		wantOn  bool
	}{
		{"add", add, "", true},
		{"add again", add, "already_reacted", true},
		{"remove", remove, "", false},
		{"remove again", remove, "no_reaction", false},
		{"unknown message", func() error {
			return api.RemoveReactionContext(testContext(t), "eyes", slack.NewRefToMessage("C0GENERAL", "1.000001"))
		}, "message_not_found", false},
	}
	for _, tc := range tests {
		if got := slackErr(tc.call()); got != tc.wantErr {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.wantErr)
		}
		m, _ := s.Message("C0GENERAL", ts)
		if on := slices.Contains(m.Reactions, "eyes"); on != tc.wantOn {
			t.Errorf("%s: reactions %v, want eyes on = %v", tc.name, m.Reactions, tc.wantOn)
		}
	}
}
