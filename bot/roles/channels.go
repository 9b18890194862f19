package roles

import (
	"context"
	"time"
)

// Room is what Slack says of a channel that decides who docsbot's posts
// there reach (conversations.info).
type Room struct {
	// Shared is set for a channel shared with another organisation (Slack
	// Connect: is_ext_shared, or an invitation pending: is_pending_ext_shared).
	Shared bool
}

// RoomsFunc reads what Slack says of a channel, such as a closure over
// slack-go's (*slack.Client).GetConversationInfoContext.
type RoomsFunc func(ctx context.Context, channel string) (Room, error)

// DefaultRoomTTL is how long what Slack said of a channel is used without
// asking again: a channel shared with another organisation is seen as
// shared within this time.
const DefaultRoomTTL = 10 * time.Minute

// Rooms keeps what Slack says of channels in the memory of one replica, like
// the Gate keeps people: DefaultRoomTTL each, at most DefaultMaxPeople
// channels, one request for callers asking at once, a failure standing a
// few seconds and never hidden by an old answer. It is safe for concurrent
// use.
type Rooms struct {
	rooms cache[Room]
}

// NewRooms returns Rooms asking f about channels.
func NewRooms(f RoomsFunc) *Rooms {
	return &Rooms{rooms: cache[Room]{
		fetch:   f,
		ttl:     DefaultRoomTTL,
		failTTL: personFailureTTL,
		max:     DefaultMaxPeople,
		timeout: fetchTimeout,
		now:     time.Now,
	}}
}

// Room is what Slack says of channel (conversations.info at most once per
// DefaultRoomTTL).
func (r *Rooms) Room(ctx context.Context, channel string) (Room, error) {
	return r.rooms.get(ctx, channel)
}
