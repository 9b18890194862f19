package slacktest

import (
	"slices"
	"testing"

	"github.com/slack-go/slack"
)

// TestConversationsInfo answers whether a channel is shared with another
// organisation, hides a private channel the bot is not in, and asks the
// read scope of the channel's type, as Slack does.
func TestConversationsInfo(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	s.AddChannel(Channel{ID: "C0PARTNER", Name: "partner", BotMember: true, Shared: true})
	s.AddChannel(Channel{ID: "C0SECRET", Name: "secret", Private: true})
	api := botAPI(s)
	ctx := testContext(t)
	for _, tt := range []struct {
		channel, wantErr string
		shared           bool
	}{
		{channel: "C0GENERAL"},
		{channel: "C0PARTNER", shared: true},
		{channel: "C0SECRET", wantErr: "channel_not_found"},
		{channel: "C0NONE", wantErr: "channel_not_found"},
	} {
		c, err := api.GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: tt.channel})
		if got := slackErr(err); got != tt.wantErr {
			t.Errorf("conversations.info %s: error %q, want %q", tt.channel, got, tt.wantErr)
			continue
		}
		if err == nil && (c.ID != tt.channel || c.IsExtShared != tt.shared || c.IsShared != tt.shared) {
			t.Errorf("conversations.info %s = %+v, want shared %v", tt.channel, c, tt.shared)
		}
	}
	noScope := newTestServer(t, WithScopes("chat:write"))
	_, err := botAPI(noScope).GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: "C0GENERAL"})
	if got := slackErr(err); got != "missing_scope" {
		t.Errorf("conversations.info without channels:read: %q, want missing_scope", got)
	}
}

// TestUsersConversations lists a person's channels page by page: public
// ones they are in, private ones only where the bot is in too.
func TestUsersConversations(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	s.AddUser("U0BOB", "Bob")
	s.AddChannel(Channel{ID: "C0TEAM", Name: "team", BotMember: true, Private: true, Members: []string{"U0ALICE"}})
	s.AddChannel(Channel{ID: "C0HIDDEN", Name: "hidden", Private: true, Members: []string{"U0ALICE"}})
	s.AddChannel(Channel{ID: "C0BOBS", Name: "bobs", Members: []string{"U0BOB"}})
	api := botAPI(s)
	ctx := testContext(t)
	var got []string
	params := &slack.GetConversationsForUserParameters{UserID: "U0ALICE", Types: []string{"public_channel", "private_channel"}, Limit: 1}
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("users.conversations never ended its pages")
		}
		chans, next, err := api.GetConversationsForUserContext(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range chans {
			got = append(got, c.ID)
		}
		if next == "" {
			break
		}
		params.Cursor = next
	}
	if !slices.Contains(got, "C0GENERAL") || !slices.Contains(got, "C0TEAM") || slices.Contains(got, "C0HIDDEN") || slices.Contains(got, "C0BOBS") {
		t.Errorf("users.conversations of U0ALICE = %v, want C0GENERAL and C0TEAM, not C0HIDDEN nor C0BOBS", got)
	}
	noScope := newTestServer(t, WithScopes("chat:write", "channels:read"))
	_, _, err := botAPI(noScope).GetConversationsForUserContext(ctx, &slack.GetConversationsForUserParameters{UserID: "U0ALICE",
		Types: []string{"private_channel"}})
	if got := slackErr(err); got != "missing_scope" {
		t.Errorf("users.conversations of private channels without groups:read: %q, want missing_scope", got)
	}
}

// TestConversationsMembers lists a channel's people page by page, as Slack
// does: every member of the workspace in a channel that names nobody, the
// bot where it is in, a guest only where a channel names them; a private
// channel the bot is not in is channel_not_found, a public one is
// answered; a cursor or limit Slack would refuse is refused.
func TestConversationsMembers(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	s.AddGuest("U0GUEST", "Gus", false)
	s.AddExternalUser("U0EXT", "Eve", "T0OTHER")
	s.AddChannel(Channel{ID: "C0GUESTS", Name: "with-guests", BotMember: true, Members: []string{"U0ALICE", "U0GUEST"}})
	s.AddChannel(Channel{ID: "C0OUTSIDE", Name: "outside", Members: []string{"U0BOB"}})
	s.AddChannel(Channel{ID: "C0SECRET", Name: "secret", Private: true, Members: []string{"U0ALICE"}})
	api := botAPI(s)
	ctx := testContext(t)
	all := func(channel string, limit int) ([]string, int, error) {
		var got []string
		params := &slack.GetUsersInConversationParameters{ChannelID: channel, Limit: limit}
		for pages := 1; ; pages++ {
			if pages > 10 {
				t.Fatal("conversations.members never ended its pages")
			}
			ids, next, err := api.GetUsersInConversationContext(ctx, params)
			if err != nil {
				return nil, pages, err
			}
			got = append(got, ids...)
			if next == "" {
				return got, pages, nil
			}
			params.Cursor = next
		}
	}
	for _, tt := range []struct {
		channel, wantErr string
		limit, pages     int
		want             []string
	}{
		{channel: "C0GENERAL", limit: 1, pages: 3, want: []string{"U0ALICE", "U0BOB", s.cfg.botUserID}},
		{channel: "C0GENERAL", pages: 1, want: []string{"U0ALICE", "U0BOB", s.cfg.botUserID}},
		{channel: "C0GUESTS", limit: 2, pages: 2, want: []string{"U0ALICE", "U0GUEST", s.cfg.botUserID}},
		{channel: "C0OUTSIDE", pages: 1, want: []string{"U0BOB"}},
		{channel: "C0SECRET", wantErr: "channel_not_found"},
		{channel: "C0NONE", wantErr: "channel_not_found"},
	} {
		got, pages, err := all(tt.channel, tt.limit)
		if e := slackErr(err); e != tt.wantErr {
			t.Errorf("conversations.members %s: error %q, want %q", tt.channel, e, tt.wantErr)
			continue
		}
		slices.Sort(got)
		if want := slices.Sorted(slices.Values(tt.want)); err == nil && (!slices.Equal(got, want) || pages != tt.pages) {
			t.Errorf("conversations.members %s (limit %d) = %v in %d pages, want %v in %d", tt.channel, tt.limit, got, pages, want, tt.pages)
		}
	}
	for _, tt := range []struct {
		params  slack.GetUsersInConversationParameters
		wantErr string
	}{
		{slack.GetUsersInConversationParameters{ChannelID: "C0GENERAL", Cursor: "bm90IGEgY3Vyc29y"}, "invalid_cursor"},
		{slack.GetUsersInConversationParameters{ChannelID: "C0GENERAL", Limit: 1001}, "invalid_limit"},
	} {
		if _, _, err := api.GetUsersInConversationContext(ctx, &tt.params); slackErr(err) != tt.wantErr {
			t.Errorf("conversations.members %+v: error %q, want %q", tt.params, slackErr(err), tt.wantErr)
		}
	}
	noScope := newTestServer(t, WithScopes("chat:write"))
	_, _, err := botAPI(noScope).GetUsersInConversationContext(ctx, &slack.GetUsersInConversationParameters{ChannelID: "C0GENERAL"})
	if got := slackErr(err); got != "missing_scope" {
		t.Errorf("conversations.members without channels:read: %q, want missing_scope", got)
	}
}
