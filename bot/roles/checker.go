package roles

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Members reads who is in a Slack user group (usergroups.users.list).
type Members interface {
	UserGroupMembers(ctx context.Context, groupID string) ([]string, error)
}

// MembersFunc adapts a function to Members, such as a closure over slack-go's
// (*slack.Client).GetUserGroupMembersContext, whose variadic options keep the
// method itself from matching.
type MembersFunc func(ctx context.Context, groupID string) ([]string, error)

// UserGroupMembers calls f.
func (f MembersFunc) UserGroupMembers(ctx context.Context, groupID string) ([]string, error) {
	return f(ctx, groupID)
}

// Defaults of a Checker.
const (
	// DefaultTTL is how long a group's members are used without asking Slack again.
	DefaultTTL = time.Minute
	// DefaultMaxStale is how long after the TTL an answer is still used when
	// Slack cannot be asked.
	DefaultMaxStale = time.Hour
	// DefaultMaxGroups is how many groups a Checker remembers.
	DefaultMaxGroups = 1000
	// DefaultFailureTTL is how long a failure to ask Slack about a group
	// stands before Slack is asked again, so that a group Slack does not
	// know (or a missing scope) does not cost a request per check.
	DefaultFailureTTL = 10 * time.Second
	// fetchTimeout bounds one usergroups.users.list call, whoever waits for it.
	fetchTimeout = 10 * time.Second
)

// Checker decides roles. It is safe for concurrent use; each replica has its
// own cache.
type Checker struct {
	members   Members
	ttl       time.Duration
	maxStale  time.Duration
	maxGroups int
	failTTL   time.Duration
	now       func() time.Time

	mu     sync.Mutex
	groups map[string]*entry // answers, by group id
	calls  map[string]*call  // requests to Slack under way, by group id
}

// entry is what is known of one group: its members and when Slack gave them
// (at; zero when never), and the last failure to ask, if it came later.
type entry struct {
	users    map[string]bool
	at       time.Time
	err      error
	failedAt time.Time
}

// touched is when the entry last changed.
func (e *entry) touched() time.Time {
	if e.failedAt.After(e.at) {
		return e.failedAt
	}
	return e.at
}

// call is a request to Slack that every caller asking for the group waits for.
type call struct {
	done  chan struct{}
	users map[string]bool
	err   error
}

// Option configures a Checker.
type Option func(*Checker)

// WithTTL sets how long a group's members are used without asking Slack
// again (DefaultTTL).
func WithTTL(d time.Duration) Option { return func(c *Checker) { c.ttl = d } }

// WithMaxStale sets how long after the TTL an answer is used when Slack
// cannot be asked (DefaultMaxStale); 0 never uses an expired answer.
func WithMaxStale(d time.Duration) Option { return func(c *Checker) { c.maxStale = d } }

// WithMaxGroups bounds the number of groups remembered (DefaultMaxGroups).
func WithMaxGroups(n int) Option { return func(c *Checker) { c.maxGroups = max(n, 1) } }

// WithFailureTTL sets how long a failure to ask Slack about a group stands
// (DefaultFailureTTL); 0 asks again at every check.
func WithFailureTTL(d time.Duration) Option { return func(c *Checker) { c.failTTL = d } }

// WithClock sets the clock the cache ages by (time.Now).
func WithClock(now func() time.Time) Option { return func(c *Checker) { c.now = now } }

// NewChecker returns a Checker reading group members from m.
func NewChecker(m Members, opts ...Option) *Checker {
	c := &Checker{
		members:   m,
		ttl:       DefaultTTL,
		maxStale:  DefaultMaxStale,
		maxGroups: DefaultMaxGroups,
		failTTL:   DefaultFailureTTL,
		now:       time.Now,
		groups:    map[string]*entry{},
		calls:     map[string]*call{},
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Verdict is the role of a person.
type Verdict struct {
	// Editor is true when the person may change docs.
	Editor bool
	// Refusal is what to tell the person, privately, when Editor is false:
	// Slack mrkdwn naming the editors.
	Refusal string
	// Err is why the role could not be decided (Slack could not be asked
	// about a group and no earlier answer was left), for the log; nil when
	// the person is simply a viewer.
	Err error
}

// Check decides whether user is an editor by the lists given (typically
// DOCSBOT_EDITORS and the project's editors): an editor when named in any of
// them, directly or as a member of a named group, and everyone when no list
// names anyone. Groups are asked about only when the user is not named
// directly.
func (c *Checker) Check(ctx context.Context, user string, lists ...Editors) Verdict {
	all := merge(lists)
	if all.Empty() || slices.Contains(all.Users, user) {
		return Verdict{Editor: true}
	}
	var failed []string
	var errs []error
	for _, g := range all.Groups {
		users, err := c.groupMembers(ctx, g)
		if err != nil {
			failed = append(failed, g)
			errs = append(errs, fmt.Errorf("roles: members of user group %s: %w", g, err))
			continue
		}
		if users[user] {
			return Verdict{Editor: true}
		}
	}
	if len(failed) > 0 {
		return Verdict{Refusal: unavailableText(failed, all), Err: errors.Join(errs...)}
	}
	return Verdict{Refusal: viewerText(all)}
}

// groupMembers returns the members of group g: a fresh cached answer, else
// Slack's (one request for all who ask at once, and none while a recent
// failure stands), else a stale cached answer.
func (c *Checker) groupMembers(ctx context.Context, g string) (map[string]bool, error) {
	c.mu.Lock()
	now := c.now()
	e := c.groups[g]
	switch {
	case e != nil && !e.at.IsZero() && now.Sub(e.at) < c.ttl:
		c.mu.Unlock()
		return e.users, nil
	case e != nil && e.err != nil && now.Sub(e.failedAt) < c.failTTL:
		defer c.mu.Unlock()
		return c.staleLocked(g, e.err)
	}
	cl := c.calls[g]
	if cl == nil {
		cl = &call{done: make(chan struct{})}
		c.calls[g] = cl
		go c.fetch(context.WithoutCancel(ctx), g, cl)
	}
	c.mu.Unlock()

	var err error
	select {
	case <-cl.done:
		if cl.err == nil {
			return cl.users, nil
		}
		err = cl.err
	case <-ctx.Done():
		err = ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.staleLocked(g, err)
}

// staleLocked returns g's members from an answer past its TTL but within the
// stale period, or else err. c.mu is held.
func (c *Checker) staleLocked(g string, err error) (map[string]bool, error) {
	if e := c.groups[g]; e != nil && !e.at.IsZero() && c.now().Sub(e.at) < c.ttl+c.maxStale {
		return e.users, nil
	}
	return nil, err
}

// fetch asks Slack for the members of g, remembers a success and hands the
// outcome to everyone waiting for cl. It runs without the first caller's
// cancellation, so that its giving up does not fail the others.
func (c *Checker) fetch(ctx context.Context, g string, cl *call) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	list, err := c.members.UserGroupMembers(ctx, g)
	var users map[string]bool
	if err == nil {
		users = make(map[string]bool, len(list))
		for _, u := range list {
			users[u] = true
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// The answer's time is read before the waiters wake: one of them may
	// move on and the clock with it.
	now := c.now()
	delete(c.calls, g)
	cl.users, cl.err = users, err
	close(cl.done)
	e := c.groups[g]
	if e == nil {
		e = &entry{}
		c.groups[g] = e
	}
	if err != nil {
		e.err, e.failedAt = err, now
	} else {
		e.users, e.at, e.err = users, now, nil
	}
	for len(c.groups) > c.maxGroups {
		c.forgetOldest()
	}
}

// forgetOldest removes the group asked about longest ago. c.mu is held.
func (c *Checker) forgetOldest() {
	var oldest string
	var at time.Time
	for g, e := range c.groups {
		if oldest == "" || e.touched().Before(at) {
			oldest, at = g, e.touched()
		}
	}
	delete(c.groups, oldest)
}

// viewerText is the refusal of a viewer.
func viewerText(all Editors) string {
	return "Only editors can start docs agent jobs, send follow-ups or change settings; " +
		"you can still use `/docs-visitors` and `list`. " +
		"Editors: " + all.Mentions() + ". Ask one of them to do it for you, or to make you an editor."
}

// unavailableText is the refusal when Slack could not say who is in groups.
func unavailableText(groups []string, all Editors) string {
	return "docsbot could not check whether you are an editor: Slack did not answer when asked who is in " +
		Editors{Groups: groups}.Mentions() + ", and docsbot has no earlier answer. " +
		"Please try again in a minute; if it keeps happening, tell whoever runs docsbot (the cause is in its log). " +
		"Editors: " + all.Mentions() + "."
}
