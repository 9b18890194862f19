package roles_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// slackGate is a Gate reading people with the real slack-go client from the
// fake Slack s.
func slackGate(s *slacktest.Server, opts ...roles.GateOption) *roles.Gate {
	client := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL))
	return roles.NewGate(roles.ProfilesFunc(func(ctx context.Context, user string) (roles.Person, error) {
		u, err := client.GetUserInfoContext(ctx, user)
		if err != nil {
			return roles.Person{}, err
		}
		return roles.PersonOf(u), nil
	}), opts...)
}

// home is the fake Slack's own workspace.
var home = roles.Org{Team: "T0TEST"}

func TestGate(t *testing.T) {
	t.Parallel()
	s := slacktest.NewServer()
	t.Cleanup(s.Close)
	s.AddGuest("U0GUEST", "Gus", false)
	s.AddGuest("U0SINGLE", "Sid", true)
	s.AddExternalUser("U0EXT", "Eve", "T0OTHER")
	const member, guest, external, allowed = "member", "guest", "external", ""
	tests := []struct {
		name          string
		opts          []roles.GateOption
		user, refused string
	}{
		{name: "a member", user: "U0ALICE", refused: allowed},
		{name: "a multi-channel guest", user: "U0GUEST", refused: guest},
		{name: "a single-channel guest", user: "U0SINGLE", refused: guest},
		{name: "another organisation", user: "U0EXT", refused: external},
		{name: "guests let in", opts: []roles.GateOption{roles.WithGuests(true)}, user: "U0SINGLE", refused: allowed},
		{name: "guests let in, not outsiders", opts: []roles.GateOption{roles.WithGuests(true)}, user: "U0EXT", refused: external},
		{name: "outsiders let in", opts: []roles.GateOption{roles.WithExternal(true)}, user: "U0EXT", refused: allowed},
		{name: "outsiders let in, not guests", opts: []roles.GateOption{roles.WithExternal(true)}, user: "U0GUEST", refused: guest},
		{name: "both let in", opts: []roles.GateOption{roles.WithGuests(true), roles.WithExternal(true)}, user: "U0GUEST", refused: allowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := slackGate(s, tt.opts...).Check(t.Context(), home, tt.user)
			var got string
			switch {
			case a.Refusal == "":
				got = allowed
			case strings.Contains(a.Refusal, "Guests"):
				got = guest
			case strings.Contains(a.Refusal, "another organisation"):
				got = external
			default:
				got = member + "? " + a.Refusal
			}
			if got != tt.refused || a.Err != nil {
				t.Errorf("Check(%s) = %q (err %v), want %q", tt.user, got, a.Err, tt.refused)
			}
		})
	}
}

// TestGateSameEnterprise: a workspace of the same Enterprise Grid
// organisation is not another organisation; one of another grid is.
func TestGateSameEnterprise(t *testing.T) {
	t.Parallel()
	gate := roles.NewGate(roles.ProfilesFunc(func(_ context.Context, user string) (roles.Person, error) {
		return map[string]roles.Person{
			"U0SIBLING": {Team: "T0SIBLING", Enterprise: "E0GRID"},
			"U0OTHER":   {Team: "T0OTHER", Enterprise: "E0ELSE"},
			"U0STRANGE": {Team: "T0TEST", Stranger: true},
		}[user], nil
	}))
	grid := roles.Org{Team: "T0TEST", Enterprise: "E0GRID"}
	for user, want := range map[string]bool{"U0SIBLING": true, "U0OTHER": false, "U0STRANGE": false} {
		if a := gate.Check(t.Context(), grid, user); (a.Refusal == "") != want {
			t.Errorf("%s: refusal %q, want allowed %v", user, a.Refusal, want)
		}
	}
}

// TestGateWhenSlackCannotSay: users.info failing is "not now", never
// "allowed", even for a person Slack answered about before the TTL ran out;
// while the answer is fresh Slack is not asked again.
func TestGateWhenSlackCannotSay(t *testing.T) {
	t.Parallel()
	clock := newClock()
	s := slacktest.NewServer()
	t.Cleanup(s.Close)
	gate := slackGate(s, roles.WithGateClock(clock.Now))
	if a := gate.Check(t.Context(), home, "U0ALICE"); a.Refusal != "" {
		t.Fatalf("a member refused: %q", a.Refusal)
	}
	s.FailNext("users.info", "internal_error", 100)
	clock.Advance(roles.DefaultPersonTTL - time.Second)
	if a := gate.Check(t.Context(), home, "U0ALICE"); a.Refusal != "" {
		t.Fatalf("within the TTL Slack was asked again and failed: %q", a.Refusal)
	}
	clock.Advance(2 * time.Second)
	a := gate.Check(t.Context(), home, "U0ALICE")
	if !strings.Contains(a.Refusal, "try again in a minute") || a.Err == nil {
		t.Fatalf("past the TTL with Slack failing: refusal %q, err %v; want not now", a.Refusal, a.Err)
	}
	if a := gate.Check(t.Context(), home, "U0NOBODY"); a.Refusal == "" {
		t.Fatal("a person Slack was never asked about was let in while Slack fails")
	}
}

// TestGateForgetsPeople: the cache keeps at most DefaultMaxPeople people;
// one more forgets the person asked about longest ago.
func TestGateForgetsPeople(t *testing.T) {
	t.Parallel()
	clock := newClock()
	asked := map[string]int{}
	gate := roles.NewGate(roles.ProfilesFunc(func(_ context.Context, user string) (roles.Person, error) {
		asked[user]++
		return roles.Person{Team: "T0TEST"}, nil
	}), roles.WithGateClock(clock.Now))
	user := func(i int) string { return fmt.Sprintf("U%07d", i) }
	for i := range roles.DefaultMaxPeople + 1 {
		gate.Check(t.Context(), home, user(i))
		clock.Advance(time.Microsecond) // all within the TTL
	}
	gate.Check(t.Context(), home, user(1))
	gate.Check(t.Context(), home, user(0))
	if asked[user(0)] != 2 || asked[user(1)] != 1 || asked[user(roles.DefaultMaxPeople)] != 1 {
		t.Errorf("asked the first %d, the second %d, the last %d times: want the first asked again once forgotten, the others once",
			asked[user(0)], asked[user(1)], asked[user(roles.DefaultMaxPeople)])
	}
}
