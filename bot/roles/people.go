package roles

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/slack-go/slack"
)

// Person is what Slack says of a person (users.info) that decides whether
// they belong to the organisation that installed docsbot.
type Person struct {
	// Name is how the person is shown: the display name, else the real
	// name, else the handle.
	Name string
	// Team is the person's own workspace (team_id).
	Team string
	// Enterprise is their Enterprise Grid organisation (enterprise_user's
	// enterprise_id), "" outside a grid.
	Enterprise string
	// Guest is set for single- and multi-channel guests (is_ultra_restricted,
	// is_restricted).
	Guest bool
	// Stranger is set for a person Slack shows the workspace through a
	// shared channel only (is_stranger).
	Stranger bool
	// Admin is set for the workspace's admins and owners (is_admin,
	// is_owner, is_primary_owner).
	Admin bool
}

// PersonOf is what u, users.info's answer, says of the person.
func PersonOf(u *slack.User) Person {
	return Person{Name: cmp.Or(u.Profile.DisplayName, u.RealName, u.Profile.RealName, u.Name), Team: u.TeamID, Enterprise: u.Enterprise.EnterpriseID,
		Guest: u.IsRestricted || u.IsUltraRestricted, Stranger: u.IsStranger,
		Admin: u.IsAdmin || u.IsOwner || u.IsPrimaryOwner}
}

// Org is the organisation that installed docsbot (auth.test's team_id and
// enterprise_id).
type Org struct {
	Team, Enterprise string
}

// Includes reports whether p belongs to o: the same workspace, or a
// workspace of the same Enterprise Grid organisation.
func (o Org) Includes(p Person) bool {
	if p.Stranger {
		return false
	}
	if p.Team == "" || p.Team == o.Team {
		return true
	}
	return o.Enterprise != "" && p.Enterprise == o.Enterprise
}

// Profiles reads what Slack says of a person (users.info).
type Profiles interface {
	Person(ctx context.Context, user string) (Person, error)
}

// ProfilesFunc adapts a function to Profiles, such as a closure over
// slack-go's (*slack.Client).GetUserInfoContext.
type ProfilesFunc func(ctx context.Context, user string) (Person, error)

// Person calls f.
func (f ProfilesFunc) Person(ctx context.Context, user string) (Person, error) { return f(ctx, user) }

// Defaults of a Gate.
const (
	// DefaultPersonTTL is how long what Slack said of a person is used
	// without asking again: a person made a guest (or moved out of the
	// organisation) loses the right to change docs within this time.
	DefaultPersonTTL = 10 * time.Minute
	// DefaultMaxPeople is how many people a Gate remembers.
	DefaultMaxPeople = 10000
	// personFailureTTL is how long a failure to ask Slack about a person
	// stands before Slack is asked again.
	personFailureTTL = 5 * time.Second
)

// Gate keeps guests and people of other organisations from changing docs,
// unless let in (WithGuests, WithExternal). What Slack says of each person
// is kept for DefaultPersonTTL in the memory of the replica, at most
// DefaultMaxPeople of them; when Slack cannot say and nothing fresh is
// known, the answer is "not now", never "allowed": an expired answer is not
// used. It is safe for concurrent use.
type Gate struct {
	people                   cache[Person]
	allowGuests, allowExtern bool
}

// GateOption configures a Gate.
type GateOption func(*Gate)

// WithGuests lets single- and multi-channel guests in
// (DOCSBOT_ALLOW_GUESTS).
func WithGuests(on bool) GateOption { return func(g *Gate) { g.allowGuests = on } }

// WithExternal lets in people of other organisations in Slack Connect
// channels (DOCSBOT_ALLOW_EXTERNAL).
func WithExternal(on bool) GateOption { return func(g *Gate) { g.allowExtern = on } }

// WithGateClock sets the clock the cache ages by (time.Now).
func WithGateClock(now func() time.Time) GateOption { return func(g *Gate) { g.people.now = now } }

// NewGate returns a Gate asking p about people.
func NewGate(p Profiles, opts ...GateOption) *Gate {
	g := &Gate{people: cache[Person]{
		fetch:   p.Person,
		ttl:     DefaultPersonTTL,
		failTTL: personFailureTTL,
		max:     DefaultMaxPeople,
		timeout: fetchTimeout,
		now:     time.Now,
	}}
	for _, o := range opts {
		o(g)
	}
	return g
}

// Person is what Slack says of user, from the cache the checks use
// (users.info at most once per DefaultPersonTTL), for callers that show
// people by name.
func (g *Gate) Person(ctx context.Context, user string) (Person, error) {
	return g.people.get(ctx, user)
}

// Open reports whether the gate lets everyone in, so that Slack need not be
// asked.
func (g *Gate) Open() bool { return g.allowGuests && g.allowExtern }

// Admission is whether a person may change docs as a member of the
// organisation.
type Admission struct {
	// Refusal is what to tell the person privately, "" when they may, in
	// the words of agent jobs (Say words it for another act).
	Refusal string
	// Err is why it could not be decided (Slack could not be asked), for the
	// log; Refusal then says "not now".
	Err error
	// why is what refused: a guest, another organisation, not now.
	why refusedAs
}

// refusedAs is why the gate refused someone.
type refusedAs int

const (
	admitted refusedAs = iota
	asGuest
	asExternal
	asNotNow
)

// Say is the refusal in words w, "" when the person may.
func (a Admission) Say(w Words) string {
	switch a.why {
	case asGuest:
		return "Guests of this workspace cannot " + w.Act + ", " + w.why() + ". " + w.still() +
			"Ask someone of the team to do it for you."
	case asExternal:
		return "People from another organisation cannot " + w.Act + " through this workspace's docsbot, " +
			w.why() + ". " + w.still() + "Ask someone of the workspace that runs docsbot to do it for you."
	case asNotNow:
		return notNowText
	}
	return ""
}

// admission is the Admission refused as why, worded for agent jobs.
func admission(why refusedAs, err error) Admission {
	a := Admission{why: why, Err: err}
	a.Refusal = a.Say(JobWords)
	return a
}

// Check decides whether user may change docs in the organisation home.
// users.info decides, the same way for every entry point: a slash command or
// an interaction does not say the person's own team, while users.info's
// team_id always does (an event's user_team says the same for a message).
func (g *Gate) Check(ctx context.Context, home Org, user string) Admission {
	if g.Open() {
		return Admission{}
	}
	p, err := g.people.get(ctx, user)
	if err != nil {
		return admission(asNotNow, fmt.Errorf("roles: users.info %s: %w", user, err))
	}
	switch {
	case !g.allowExtern && !home.Includes(p):
		return admission(asExternal, nil)
	case !g.allowGuests && p.Guest:
		return admission(asGuest, nil)
	}
	return Admission{}
}

// notNowText is the gate's refusal when Slack could not say who the person
// is, shown privately.
const notNowText = "docsbot could not check your account with Slack just now, so nothing was started or sent. " +
	"Please try again in a minute; if it keeps happening, tell whoever runs docsbot (the cause is in its log)."
