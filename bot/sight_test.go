package bot_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestSightByPersonAndChannel walks the table of sights (bot/sight.go) with real
// users.info and conversations.info answers from the fake Slack: members
// see readers' words, guests and people of another organisation do not, a
// channel shared with another organisation is answered privately, and
// Slack failing to say is never taken as "a member" or "not shared".
func TestSightByPersonAndChannel(t *testing.T) {
	t.Parallel()
	const (
		shared   = "C0SHARED"
		guest    = "U0GUEST"
		external = "U0EXT"
	)
	h := bottest.New(t, redisURL)
	h.Slack.AddChannel(slacktest.Channel{ID: shared, Name: "with-partner", BotMember: true, Shared: true})
	h.Slack.AddGuest(guest, "Gus Guest", false)
	h.Slack.AddExternalUser(external, "Ext Person", "T0OTHER")
	b := h.StartBot(bottest.Config{}).Bot
	dm, err := h.Slack.OpenDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, user, channel string
		want                bot.Sight
	}{
		{name: "member in the workspace's channel", user: alice, channel: general, want: bot.Sight{Words: true}},
		{name: "member in a DM", user: alice, channel: dm, want: bot.Sight{Words: true}},
		{name: "member with no channel (the Home)", user: alice, want: bot.Sight{Words: true}},
		{name: "member in a shared channel", user: alice, channel: shared, want: bot.Sight{Words: true, Private: true}},
		{name: "guest", user: guest, channel: general, want: bot.Sight{Outsider: true}},
		{name: "guest in a shared channel", user: guest, channel: shared, want: bot.Sight{Private: true, Outsider: true}},
		{name: "another organisation", user: external, channel: shared, want: bot.Sight{Private: true, Outsider: true}},
		{name: "Slack cannot say who", user: "U0NOBODY", channel: general, want: bot.Sight{}},
		{name: "Slack cannot say who, in a shared channel", user: "U0NOBODY", channel: shared, want: bot.Sight{Private: true}},
		{name: "Slack cannot say whether shared", user: alice, channel: "C0UNKNOWN", want: bot.Sight{Words: true, Private: true}},
		{name: "a digest in the workspace's channel", channel: general, want: bot.Sight{Words: true}},
		{name: "a digest in a shared channel", channel: shared, want: bot.Sight{}},
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
		})
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
