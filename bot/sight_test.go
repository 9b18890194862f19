package bot_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestSightByPersonAndChannel walks the table of sights (bot/sight.go) with real
// users.info, conversations.info and conversations.members answers from the
// fake Slack: members see readers' words, guests and people of another
// organisation do not, a channel shared with another organisation, or with
// a guest or a person of another organisation in it, is answered
// privately and a digest there has no words, and Slack failing to say is
// never taken as "a member" or "members only".
func TestSightByPersonAndChannel(t *testing.T) {
	t.Parallel()
	const (
		shared   = "C0SHARED"
		guests   = "C0GUESTS"  // the workspace's own, with a guest in it
		connect  = "C0CONNECT" // the workspace's own, with a person of another organisation in it
		fails    = "C0FAILS"
		guest    = "U0GUEST"
		external = "U0EXT"
	)
	h := bottest.New(t, redisURL)
	h.Slack.AddChannel(slacktest.Channel{ID: shared, Name: "with-partner", BotMember: true, Shared: true})
	h.Slack.AddGuest(guest, "Gus Guest", false)
	h.Slack.AddExternalUser(external, "Ext Person", "T0OTHER")
	h.Slack.AddChannel(slacktest.Channel{ID: guests, Name: "with-gus", BotMember: true, Members: []string{alice, guest}})
	h.Slack.AddChannel(slacktest.Channel{ID: connect, Name: "with-ext", BotMember: true, Members: []string{alice, external}})
	h.Slack.AddChannel(slacktest.Channel{ID: fails, Name: "unread", BotMember: true})
	b := h.StartBot(bottest.Config{}).Bot
	dm, err := h.Slack.OpenDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, user, channel string
		want                bot.Sight
		room                string // in Room
	}{
		{name: "member in the workspace's channel", user: alice, channel: general, want: bot.Sight{Words: true}},
		{name: "member in a DM", user: alice, channel: dm, want: bot.Sight{Words: true}},
		{name: "member with no channel (the Home)", user: alice, want: bot.Sight{Words: true}},
		{name: "member in a shared channel", user: alice, channel: shared, want: bot.Sight{Words: true, Private: true}, room: "shared with another organisation"},
		{name: "member in a channel with a guest", user: alice, channel: guests, want: bot.Sight{Words: true, Private: true}, room: "has guests"},
		{name: "member in a channel with another organisation's person", user: alice, channel: connect, want: bot.Sight{Words: true, Private: true}, room: "has guests"},
		{name: "guest in the channel with them", user: guest, channel: guests, want: bot.Sight{Private: true, Outsider: true}, room: "has guests"},
		{name: "guest", user: guest, channel: general, want: bot.Sight{Outsider: true}},
		{name: "guest in a shared channel", user: guest, channel: shared, want: bot.Sight{Private: true, Outsider: true}, room: "shared with another organisation"},
		{name: "another organisation", user: external, channel: shared, want: bot.Sight{Private: true, Outsider: true}, room: "shared with another organisation"},
		{name: "Slack cannot say who", user: "U0NOBODY", channel: general, want: bot.Sight{}},
		{name: "Slack cannot say who, in a shared channel", user: "U0NOBODY", channel: shared, want: bot.Sight{Private: true}, room: "shared with another organisation"},
		{name: "Slack cannot say whether shared", user: alice, channel: "C0UNKNOWN", want: bot.Sight{Words: true, Private: true}, room: "could not be checked"},
		{name: "a digest in the workspace's channel", channel: general, want: bot.Sight{Words: true}},
		{name: "a digest in a shared channel", channel: shared, want: bot.Sight{}, room: "shared with another organisation"},
		{name: "a digest in a channel with a guest", channel: guests, want: bot.Sight{}, room: "has guests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := b.Sight(t.Context(), tc.user, tc.channel)
			if got.Words != tc.want.Words || got.Private != tc.want.Private {
				t.Errorf("Sight(%q, %q) = %+v, want Words %v, Private %v", tc.user, tc.channel, got, tc.want.Words, tc.want.Private)
			}
			if got.Outsider != tc.want.Outsider {
				t.Errorf("Sight(%q, %q).Outsider = %v, want %v", tc.user, tc.channel, got.Outsider, tc.want.Outsider)
			}
			if (got.Why == "") != got.Words {
				t.Errorf("Sight(%q, %q).Why = %q: a reason is given exactly when the words are left out", tc.user, tc.channel, got.Why)
			}
			if (got.Room == "") != (tc.room == "") || !strings.Contains(got.Room, tc.room) {
				t.Errorf("Sight(%q, %q).Room = %q, want %q in it", tc.user, tc.channel, got.Room, tc.room)
			}
			if tc.user == "" && tc.room != "" && !strings.Contains(got.Why, tc.room) {
				t.Errorf("Sight(%q, %q).Why = %q: a digest's line does not say why (%q)", tc.user, tc.channel, got.Why, tc.room)
			}
		})
	}
	// Slack cannot say who is in the channel: not a channel of members.
	h.Slack.FailNext("conversations.members", "fetch_members_failed", 1)
	if got := b.Sight(t.Context(), "", fails); got.Words || !strings.Contains(got.Room, "could not be checked") {
		t.Errorf("a digest where conversations.members fails: %+v, want no words and why", got)
	}
}

// TestChannelsOf lists the channels a person is in as users.conversations
// says: the workspace's public channels, the private ones
// docsbot is in with them, never one they are not in.
func TestChannelsOf(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.Slack.AddChannel(slacktest.Channel{ID: "C0TEAM", Name: "team", BotMember: true, Private: true, Members: []string{alice}})
	h.Slack.AddChannel(slacktest.Channel{ID: "C0OTHERS", Name: "others", BotMember: true, Private: true, Members: []string{"U0BOB"}})
	h.Slack.AddChannel(slacktest.Channel{ID: "C0HIDDEN", Name: "hidden", Private: true, Members: []string{alice}})
	h.Slack.AddChannel(slacktest.Channel{ID: "C0SMALL", Name: "small", BotMember: true, Members: []string{"U0BOB"}})
	b := h.StartBot(bottest.Config{}).Bot
	got, err := bot.ChannelsOf(t.Context(), b.SlackIn(t.Context()), alice)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{general, "C0TEAM"}
	for _, c := range h.Slack.Channels() {
		if !c.Private && c.IMUser == "" && c.Members == nil && !slices.Contains(want, c.ID) {
			want = append(want, c.ID) // the world's other public channels, which everyone is in
		}
	}
	if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, slices.Sorted(slices.Values(want))) {
		t.Errorf("ChannelsOf(alice) = %v, want %v", keys, slices.Sorted(slices.Values(want)))
	}
}
