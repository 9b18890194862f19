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
