package slacktest

import (
	"strings"
	"testing"

	"github.com/slack-go/slack"
)

func TestUsersInfo(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	s.AddUser("U0CAROL", "Carol Jones")
	api := botAPI(s)
	ctx := testContext(t)
	s.AddGuest("U0GUEST", "Gus", false)
	s.AddGuest("U0SINGLE", "Sid", true)
	s.AddExternalUser("U0EXT", "Eve", "T0OTHER")
	tests := []struct {
		user, wantName, wantErr, wantTeam string
		bot, restricted, ultra            bool
	}{
		{user: "U0CAROL", wantName: "Carol Jones", wantTeam: "T0TEST"},
		{user: s.BotUserID(), bot: true, wantTeam: "T0TEST"},
		{user: "U0NOBODY", wantErr: "user_not_found"},
		{user: "U0GUEST", wantName: "Gus", wantTeam: "T0TEST", restricted: true},
		{user: "U0SINGLE", wantName: "Sid", wantTeam: "T0TEST", restricted: true, ultra: true},
		{user: "U0EXT", wantName: "Eve", wantTeam: "T0OTHER"},
	}
	for _, tt := range tests {
		u, err := api.GetUserInfoContext(ctx, tt.user)
		if got := slackErr(err); got != tt.wantErr {
			t.Errorf("users.info %s: error %q, want %q", tt.user, got, tt.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if u.ID != tt.user || u.IsBot != tt.bot || (tt.wantName != "" && (u.RealName != tt.wantName || u.Profile.DisplayName != tt.wantName)) {
			t.Errorf("users.info %s = %+v", tt.user, u)
		}
		if u.TeamID != tt.wantTeam || u.IsRestricted != tt.restricted || u.IsUltraRestricted != tt.ultra {
			t.Errorf("users.info %s: team %s, restricted %v, ultra %v; want %s, %v, %v",
				tt.user, u.TeamID, u.IsRestricted, u.IsUltraRestricted, tt.wantTeam, tt.restricted, tt.ultra)
		}
	}

	noScope := newTestServer(t, WithScopes("chat:write"))
	_, err := botAPI(noScope).GetUserInfoContext(ctx, "U0ALICE")
	if got := slackErr(err); got != "missing_scope" {
		t.Errorf("users.info without users:read: %q, want missing_scope", got)
	}
}

func TestGetPermalink(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t)
	ctx := testContext(t)
	parent, err := s.Mention(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "the docs miss a page"})
	if err != nil {
		t.Fatal(err)
	}
	_, reply, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("on it", false), slack.MsgOptionTS(parent.TS))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, channel, ts, want, wantErr string
	}{
		{"top-level", "C0GENERAL", parent.TS, "/archives/C0GENERAL/p" + strings.ReplaceAll(parent.TS, ".", ""), ""},
		{"reply", "C0GENERAL", reply, "?thread_ts=" + parent.TS + "&cid=C0GENERAL", ""},
		{"unknown message", "C0GENERAL", "1.000001", "", "message_not_found"},
		{"unknown channel", "C0NOPE", parent.TS, "", "channel_not_found"},
	}
	for _, tt := range tests {
		link, err := api.GetPermalinkContext(ctx, &slack.PermalinkParameters{Channel: tt.channel, Ts: tt.ts})
		if got := slackErr(err); got != tt.wantErr {
			t.Errorf("%s: error %q, want %q", tt.name, got, tt.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if !strings.HasPrefix(link, "https://") || !strings.Contains(link, tt.want) {
			t.Errorf("%s: permalink %q, want one containing %q", tt.name, link, tt.want)
		}
	}
}

// TestStandingAndMember: what a page of the workspace reads of a person
// (StandingOf) and of who is in a channel (Member), as users.info and
// users.conversations say it.
func TestStandingAndMember(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	s.AddGuest("U0GUEST", "Gus", false)
	s.AddExternalUser("U0EXT", "Eve", "T0OTHER")
	s.AddChannel(Channel{ID: "C0SHARED", Name: "shared", Shared: true, Members: []string{"U0ALICE", "U0EXT"}})
	s.AddChannel(Channel{ID: "C0GUESTS", Name: "with-guests", Members: []string{"U0ALICE", "U0GUEST"}})
	dm, err := s.OpenDM("U0ALICE")
	if err != nil {
		t.Fatal(err)
	}
	standings := []struct {
		user string
		want Standing
	}{
		{"U0ALICE", Standing{}},
		{"U0GUEST", Standing{Guest: "multi"}},
		{"U0EXT", Standing{Team: "T0OTHER"}},
		{"U0NOBODY", Standing{}},
	}
	for _, tt := range standings {
		if got := s.StandingOf(tt.user); got != tt.want {
			t.Errorf("StandingOf(%s) = %+v, want %+v", tt.user, got, tt.want)
		}
	}
	members := []struct {
		channel, user string
		want          bool
	}{
		{"C0GENERAL", "U0ALICE", true},
		{"C0GENERAL", "U0GUEST", false}, // a guest is where a channel names them
		{"C0GUESTS", "U0GUEST", true},
		{"C0GENERAL", "U0EXT", false},
		{"C0GENERAL", "U0NOBODY", false},
		{"C0SHARED", "U0EXT", true},
		{"C0SHARED", "U0ALICE", true},
		{"C0SHARED", "U0GUEST", false},
		{dm, "U0ALICE", true},
		{dm, "U0GUEST", false},
		{"C0NOWHERE", "U0ALICE", false},
	}
	for _, tt := range members {
		if got := s.Member(tt.channel, tt.user); got != tt.want {
			t.Errorf("Member(%s, %s) = %v, want %v", tt.channel, tt.user, got, tt.want)
		}
	}
}
