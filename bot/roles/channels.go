package roles

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Room is what Slack says of a channel that decides who docsbot's posts
// there reach: whether anyone but members of the organisation reads them.
type Room struct {
	// Shared is set for a channel shared with another organisation (Slack
	// Connect: is_ext_shared, or an invitation pending: is_pending_ext_shared).
	Shared bool
	// Guests is set when a guest of the workspace (is_restricted,
	// is_ultra_restricted) or a person of another organisation (is_stranger,
	// or a team not the organisation's) is among the channel's people.
	Guests bool
	// Crowded is set when the channel has more than MaxRoomPeople people:
	// docsbot does not check who they all are, and takes the channel as one
	// with guests.
	Crowded bool
}

// Open reports whether only members of the organisation read the channel.
func (r Room) Open() bool { return !r.Shared && !r.Guests && !r.Crowded }

// RoomSource is what Rooms reads of Slack, such as closures over slack-go's
// (*slack.Client).GetConversationInfoContext and
// GetUsersInConversationContext, and the Gate.
type RoomSource struct {
	// Info reads what conversations.info says of a channel: Room.Shared.
	Info func(ctx context.Context, channel string) (Room, error)
	// Members reads a page of the channel's people (conversations.members,
	// pages of limit), and the cursor of the next page, "" after the last.
	Members func(ctx context.Context, channel, cursor string, limit int) (ids []string, next string, err error)
	// People says who a person is (users.info), through a cache of people
	// such as the Gate's, so that the people of one channel are not asked
	// about again for the next.
	People Profiles
	// Home is the organisation that installed docsbot, read when a
	// channel is.
	Home func(ctx context.Context) Org
}

// Bounds of reading a channel's people.
const (
	// DefaultRoomTTL is how long what Slack said of a channel is used
	// without asking again: a channel shared with another organisation, or
	// a guest invited to it, is seen within this time.
	DefaultRoomTTL = 5 * time.Minute
	// MaxRoomPeople is how many people of a channel docsbot checks; a
	// channel with more is Crowded.
	MaxRoomPeople = 500
	// roomPage is the page size of conversations.members (Slack advises
	// at most 200).
	roomPage = 200
	// roomLookups is how many people of a channel are asked about at once.
	roomLookups = 8
	// roomTimeout bounds reading one channel, its people included.
	roomTimeout = 30 * time.Second
)

// Rooms keeps what Slack says of channels in the memory of one replica, like
// the Gate keeps people: DefaultRoomTTL each, at most DefaultMaxPeople
// channels, one request for callers asking at once, a failure standing a
// few seconds and never hidden by an old answer. Each person of a channel
// is asked about through RoomSource.People, so a person in many channels
// costs one users.info per its own TTL, not one per channel. It is safe for
// concurrent use.
type Rooms struct {
	rooms cache[Room]
}

// NewRooms returns Rooms reading channels from src.
func NewRooms(src RoomSource) *Rooms {
	return &Rooms{rooms: cache[Room]{
		fetch:   src.room,
		ttl:     DefaultRoomTTL,
		failTTL: personFailureTTL,
		max:     DefaultMaxPeople,
		timeout: roomTimeout,
		now:     time.Now,
	}}
}

// Room is what Slack says of channel (read at most once per DefaultRoomTTL).
// An error means Slack could not say: the caller takes the channel as not
// Open.
func (r *Rooms) Room(ctx context.Context, channel string) (Room, error) {
	return r.rooms.get(ctx, channel)
}

// room reads channel: conversations.info, then, for a channel not shared,
// its people (conversations.members, at most MaxRoomPeople) and who each
// is.
func (src RoomSource) room(ctx context.Context, channel string) (Room, error) {
	room, err := src.Info(ctx, channel)
	if err != nil || room.Shared {
		return room, err
	}
	people, err := src.people(ctx, channel)
	switch {
	case err != nil:
		return Room{}, err
	case len(people) > MaxRoomPeople:
		room.Crowded = true
		return room, nil
	}
	room.Guests, err = src.anyOutsider(ctx, people)
	return room, err
}

// people reads the ids of channel's people, page by page, stopping once
// there are more than MaxRoomPeople.
func (src RoomSource) people(ctx context.Context, channel string) ([]string, error) {
	var ids []string
	cursor := ""
	for {
		page, next, err := src.Members(ctx, channel, cursor, roomPage)
		if err != nil {
			return nil, fmt.Errorf("roles: conversations.members %s: %w", channel, err)
		}
		ids = append(ids, page...)
		if next == "" || len(ids) > MaxRoomPeople {
			return ids, nil
		}
		cursor = next
	}
}

// errOutsider ends the look through a channel's people at the first guest
// or person of another organisation.
var errOutsider = errors.New("roles: a guest or a person of another organisation")

// anyOutsider reports whether any of people is a guest or of another
// organisation than Home, asking roomLookups at a time and stopping at the
// first. A person Slack cannot say about is an error.
func (src RoomSource) anyOutsider(ctx context.Context, people []string) (bool, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	home := src.Home(ctx)
	slots := make(chan struct{}, roomLookups)
	var wg sync.WaitGroup
	for _, id := range people {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-slots }()
			p, err := src.People.Person(ctx, id)
			switch {
			case err != nil:
				cancel(fmt.Errorf("roles: users.info %s: %w", id, err))
			case p.Guest || !home.Includes(p):
				cancel(errOutsider)
			}
		})
	}
	wg.Wait()
	switch err := context.Cause(ctx); {
	case errors.Is(err, errOutsider):
		return true, nil
	case err != nil:
		return false, err
	}
	return false, nil
}
