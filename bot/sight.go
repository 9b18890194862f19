package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/roles"
)

// Sight is what a person is shown of the words docs visitors and the docs
// assistant wrote (feedback comments, searches, visitors' questions, the
// assistant's replies), and where: the one decision behind the "Who sees
// what" table of docs/architecture.md, made by the table of sights.
type Sight struct {
	// Words says the words may be shown: otherwise only counts and paths.
	Words bool
	// Private says the answer goes to the person alone, not in the channel:
	// someone who is not a member of the organisation reads the channel
	// (Room says who).
	Private bool
	// Why says, when Words is false, why the words are left out: a line
	// for the message, in docsbot's words ("" with Words).
	Why string
	// Outsider says the person is a guest or of another organisation, and
	// Member that Slack said they are a member of the organisation (neither
	// is set when Slack could not say, nor for nobody).
	Outsider, Member bool
	// Connect says the channel is shared with another organisation (Slack
	// Connect), or Slack could not say: its people are not all of this
	// workspace's, and a user group of it means nothing there.
	Connect bool
	// Room says, when the channel is read by others than members of the
	// organisation (Private, or a post nobody asked for without Words),
	// who: what the channel is, such as "is shared with another
	// organisation", for a feature's sentence ("This channel " + Room +
	// ", so ..."). "" for a channel of members only.
	Room string
}

// Why the words are left out (Sight.Why).
const (
	sightGuest = "Readers' comments, searches and questions are shown to members of the organisation only: you see the counts and the pages."
	sightCheck = "docsbot could not check your account with Slack just now, so readers' comments, searches and questions are left out: " +
		"you see the counts and the pages. Ask again in a minute."
	// sightShared follows the channel's Room in the Why of a post nobody
	// asked for.
	sightShared = ", so readers' comments, searches and questions are left out here: " +
		"ask `/docs-health` yourself to see them privately."
)

// Who reads a channel besides members of the organisation (Sight.Room).
const (
	roomShared = "is shared with another organisation"
	roomGuests = "has guests or people of another organisation in it"
	// roomCrowded names roles.MaxRoomPeople.
	roomCrowded = "has more than %s people, too many for docsbot to check that none is a guest"
	roomUnknown = "could not be checked with Slack for guests just now"
)

// viewer is who a Sight is decided for.
type viewer int

const (
	member   viewer = iota // a member of the organisation
	outsider               // a guest, or a person of another organisation
	unsure                 // Slack cannot say who they are (users.info failed)
	nobody                 // no one asked: a post such as a digest, for its channel
)

// sight is one row of the table of sights.
type sight struct {
	who    viewer
	shared bool // someone not of the organisation reads the channel
	Sight
}

// sights is the table Sight decides by: a row for each viewer and each kind
// of channel. A channel is shared when another organisation shares it, a
// guest or a person of another organisation is in it, it has more people
// than docsbot checks, or Slack cannot say (the answer goes to the person
// alone); a DM with docsbot, or no channel, is not shared.
func sights() []sight {
	return []sight{
		{member, false, Sight{Words: true, Member: true}},
		{member, true, Sight{Words: true, Private: true, Member: true}},
		{outsider, false, Sight{Why: sightGuest, Outsider: true}},
		{outsider, true, Sight{Why: sightGuest, Outsider: true, Private: true}},
		{unsure, false, Sight{Why: sightCheck}},
		{unsure, true, Sight{Why: sightCheck, Private: true}},
		{nobody, false, Sight{Words: true}},
		{nobody, true, Sight{Why: "This channel " + roomShared + sightShared}},
	}
}

// sightOf is the row of the table of sights for who in a channel shared or
// not; every pair has one (TestSightsCoverEveryCase).
func sightOf(who viewer, shared bool) Sight {
	for _, r := range sights() {
		if r.who == who && r.shared == shared {
			return r.Sight
		}
	}
	return Sight{Why: sightCheck, Private: true}
}

// Sight decides what user sees in channel of the words docs visitors and
// the assistant wrote, by the table of sights; user "" decides for a post
// nobody asked for (a digest): the channel alone. It asks Slack
// (users.info, conversations.info, conversations.members) through the
// replica's caches.
func (b *Bot) Sight(ctx context.Context, user, channel string) Sight {
	room := b.roomOf(ctx, channel)
	s := b.sightOf(ctx, user, room != "")
	if room != "" {
		s.Room = room
		s.Connect = room == roomShared || room == roomUnknown
		if user == "" {
			s.Why = "This channel " + room + sightShared
		}
	}
	return s
}

// sightOf is the row of the table of sights for user ("" for nobody) in a
// channel shared or not.
func (b *Bot) sightOf(ctx context.Context, user string, shared bool) Sight {
	if user == "" {
		return sightOf(nobody, shared)
	}
	p, err := b.gate.Person(ctx, user)
	switch {
	case err != nil:
		b.log.Warn("cannot tell whether a person is a member of the organisation; leaving readers' words out", "user", user, "err", err)
		return sightOf(unsure, shared)
	case p.Guest || !b.selfOrg(ctx).Includes(p):
		return sightOf(outsider, shared)
	}
	return sightOf(member, shared)
}

// selfOrg is the organisation that installed docsbot in the workspace ctx
// names (Self).
func (b *Bot) selfOrg(ctx context.Context) roles.Org {
	self := b.Self(ctx)
	return roles.Org{Team: self.TeamID, Enterprise: self.EnterpriseID}
}

// roomOf says who reads channel besides members of the organisation
// (Sight.Room), "" for nobody: a channel shared with another organisation,
// one with a guest or a person of another organisation in it, one with
// more people than docsbot checks, or one Slack cannot say about
// (conversations.info, conversations.members and users.info, through the
// replica's caches). A direct message with docsbot, and no channel, are
// read by members only.
func (b *Bot) roomOf(ctx context.Context, channel string) string {
	if channel == "" || strings.HasPrefix(channel, "D") {
		return ""
	}
	r, err := b.rooms.Room(ctx, channel)
	switch {
	case err != nil:
		b.log.Warn("cannot tell who is in a channel; taking it as one with guests", "channel", channel, "err", err)
		return roomUnknown
	case r.Shared:
		return roomShared
	case r.Guests:
		return roomGuests
	case r.Crowded:
		return fmt.Sprintf(roomCrowded, humanize.Count(roles.MaxRoomPeople))
	}
	return ""
}

// newRooms builds the channel cache over the bot's Slack client
// (conversations.info, conversations.members) and its people (the gate's
// users.info).
func newRooms(b *Bot) *roles.Rooms {
	return roles.NewRooms(roles.RoomSource{
		Info: func(ctx context.Context, channel string) (roles.Room, error) {
			c, err := b.SlackIn(ctx).GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: channel})
			if err != nil {
				return roles.Room{}, err
			}
			return roles.Room{Shared: c.IsExtShared || c.IsPendingExtShared}, nil
		},
		Members: func(ctx context.Context, channel, cursor string, limit int) ([]string, string, error) {
			return b.SlackIn(ctx).GetUsersInConversationContext(ctx, &slack.GetUsersInConversationParameters{ChannelID: channel, Cursor: cursor, Limit: limit})
		},
		People: b.gate,
		Home:   b.selfOrg,
	})
}

// channelsOfPages bounds the pages of users.conversations ChannelsOf reads.
const channelsOfPages = 20

// ChannelsOf is the set of channels user is in, as far as docsbot can see
// (users.conversations: public channels, and private ones docsbot is in
// too). It reads at most channelsOfPages pages of 1,000; a person in more
// channels than that is taken to be in those read. client is the bot's
// (Bot.Slack).
func ChannelsOf(ctx context.Context, client *slack.Client, user string) (map[string]bool, error) {
	in := map[string]bool{}
	params := &slack.GetConversationsForUserParameters{UserID: user, Types: []string{"public_channel", "private_channel"}, Limit: 1000, ExcludeArchived: true}
	for range channelsOfPages {
		chans, next, err := client.GetConversationsForUserContext(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("bot: the channels of %s: %w", user, err)
		}
		for _, c := range chans {
			in[c.ID] = true
		}
		if next == "" {
			break
		}
		params.Cursor = next
	}
	return in, nil
}
