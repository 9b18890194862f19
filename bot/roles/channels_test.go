package roles_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// slackRooms are Rooms reading channels with the real slack-go client from
// the fake Slack s, and people through gate.
func slackRooms(s *slacktest.Server, gate *roles.Gate) *roles.Rooms {
	client := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL))
	return roles.NewRooms(roles.RoomSource{
		Info: func(ctx context.Context, channel string) (roles.Room, error) {
			c, err := client.GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: channel})
			if err != nil {
				return roles.Room{}, err
			}
			return roles.Room{Shared: c.IsExtShared}, nil
		},
		Members: func(ctx context.Context, channel, cursor string, limit int) ([]string, string, error) {
			return client.GetUsersInConversationContext(ctx, &slack.GetUsersInConversationParameters{ChannelID: channel, Cursor: cursor, Limit: limit})
		},
		People: gate,
		Home:   func(context.Context) roles.Org { return home },
	})
}

// TestRooms reads who is in each channel as Slack says: a channel of
// members only is Open; one with a guest, or with a person of another
// organisation though not marked shared, has Guests; a Slack Connect
// channel is Shared, its people not read; one with more people than
// MaxRoomPeople is Crowded, none of them asked about; a channel whose
// people cannot be read, or one of whose people Slack cannot say about, is
// an error.
func TestRooms(t *testing.T) {
	t.Parallel()
	s := slacktest.NewServer()
	t.Cleanup(s.Close)
	s.AddGuest("U0GUEST", "Gus", true)
	s.AddExternalUser("U0EXT", "Eve", "T0OTHER")
	s.AddChannel(slacktest.Channel{ID: "C0GUESTS", Name: "with-guests", BotMember: true, Members: []string{"U0ALICE", "U0GUEST"}})
	s.AddChannel(slacktest.Channel{ID: "C0CONNECT", Name: "connect", BotMember: true, Members: []string{"U0ALICE", "U0EXT"}})
	s.AddChannel(slacktest.Channel{ID: "C0SHARED", Name: "shared", BotMember: true, Shared: true, Members: []string{"U0ALICE", "U0EXT"}})
	s.AddUser("U0NEW", "Nell")
	s.AddChannel(slacktest.Channel{ID: "C0UNKNOWN", Name: "unknown", Members: []string{"U0NEW"}})
	crowd := make([]string, roles.MaxRoomPeople+1)
	for i := range crowd {
		crowd[i] = fmt.Sprintf("U%07d", i)
		s.AddUser(crowd[i], crowd[i])
	}
	s.AddChannel(slacktest.Channel{ID: "C0CROWD", Name: "crowd", BotMember: true, Members: crowd})
	s.AddChannel(slacktest.Channel{ID: "C0FAILS", Name: "fails", BotMember: true, Members: []string{"U0ALICE"}})
	s.FailNext("conversations.members", "fetch_members_failed", 1)
	rooms := slackRooms(s, slackGate(s))
	_, err := rooms.Room(t.Context(), "C0FAILS")
	var se slack.SlackErrorResponse
	if !errors.As(err, &se) || se.Err != "fetch_members_failed" {
		t.Errorf("a channel whose people cannot be read: err %v, want fetch_members_failed", err)
	}
	for _, tt := range []struct {
		channel  string
		want     roles.Room
		unknown  bool // users.info fails
		withoutM bool // no conversations.members call
	}{
		{channel: "C0GUESTS", want: roles.Room{Guests: true}},
		{channel: "C0CONNECT", want: roles.Room{Guests: true}},
		{channel: "C0SHARED", want: roles.Room{Shared: true}, withoutM: true},
		{channel: "C0CROWD", want: roles.Room{Crowded: true}},
		{channel: "C0UNKNOWN", unknown: true},
	} {
		t.Run(tt.channel, func(t *testing.T) {
			before := len(s.Calls("conversations.members"))
			users := len(s.Calls("users.info"))
			if tt.unknown {
				s.FailNext("users.info", "fatal_error", 1)
			}
			got, err := rooms.Room(t.Context(), tt.channel)
			if tt.unknown {
				if !errors.As(err, &se) || se.Err != "fatal_error" {
					t.Fatalf("Room(%s) = %+v, %v; want the error of users.info", tt.channel, got, err)
				}
				return
			}
			if err != nil || got != tt.want || got.Open() {
				t.Fatalf("Room(%s) = %+v, %v; want %+v", tt.channel, got, err, tt.want)
			}
			if n := len(s.Calls("conversations.members")) - before; tt.withoutM && n != 0 {
				t.Errorf("%d conversations.members calls for a shared channel, want none", n)
			}
			if tt.want.Crowded && len(s.Calls("users.info")) != users {
				t.Errorf("%d users.info calls for a crowded channel, want none", len(s.Calls("users.info"))-users)
			}
		})
	}
}

// TestRoomsOfABigChannel: a channel of members only, bigger than a page of
// conversations.members, is read page by page and each person asked about
// once; asked again within DefaultRoomTTL it costs no call, and another
// channel of the same people costs its pages alone, no users.info.
func TestRoomsOfABigChannel(t *testing.T) {
	t.Parallel()
	s := slacktest.NewServer()
	t.Cleanup(s.Close)
	people := make([]string, roles.MaxRoomPeople-1) // and the bot
	for i := range people {
		people[i] = fmt.Sprintf("U%07d", i)
		s.AddUser(people[i], people[i])
	}
	s.AddChannel(slacktest.Channel{ID: "C0BIG", Name: "big", BotMember: true, Members: people})
	s.AddChannel(slacktest.Channel{ID: "C0BIG2", Name: "big-too", Members: people})
	rooms := slackRooms(s, slackGate(s))
	for range 3 {
		if r, err := rooms.Room(t.Context(), "C0BIG"); err != nil || !r.Open() {
			t.Fatalf("Room(C0BIG) = %+v, %v; want a channel of members only", r, err)
		}
	}
	pages := (roles.MaxRoomPeople + 199) / 200 // 200 a page
	if n := len(s.Calls("conversations.members")); n != pages {
		t.Errorf("%d conversations.members calls, want %d (its pages, once)", n, pages)
	}
	if n := len(s.Calls("users.info")); n != len(people)+1 {
		t.Errorf("%d users.info calls, want %d (each person once)", n, len(people)+1)
	}
	if r, err := rooms.Room(t.Context(), "C0BIG2"); err != nil || !r.Open() {
		t.Fatalf("Room(C0BIG2) = %+v, %v; want a channel of members only", r, err)
	}
	if n := len(s.Calls("users.info")); n != len(people)+1 {
		t.Errorf("%d users.info calls after a second channel of the same people, want none more", n-len(people)-1)
	}
}
