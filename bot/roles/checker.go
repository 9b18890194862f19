package roles

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	groups cache[map[string]bool] // members of user groups, by group id
}

// Option configures a Checker.
type Option func(*Checker)

// WithClock sets the clock the cache ages by (time.Now).
func WithClock(now func() time.Time) Option { return func(c *Checker) { c.groups.now = now } }

// NewChecker returns a Checker reading group members from m.
func NewChecker(m Members, opts ...Option) *Checker {
	c := &Checker{groups: cache[map[string]bool]{
		fetch:    membersOf(m),
		ttl:      DefaultTTL,
		maxStale: DefaultMaxStale,
		max:      DefaultMaxGroups,
		failTTL:  DefaultFailureTTL,
		timeout:  fetchTimeout,
		now:      time.Now,
	}}
	for _, o := range opts {
		o(c)
	}
	return c
}

// membersOf reads a group's members from m as a set.
func membersOf(m Members) func(ctx context.Context, group string) (map[string]bool, error) {
	return func(ctx context.Context, group string) (map[string]bool, error) {
		list, err := m.UserGroupMembers(ctx, group)
		if err != nil {
			return nil, err
		}
		users := make(map[string]bool, len(list))
		for _, u := range list {
			users[u] = true
		}
		return users, nil
	}
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
	// all are the editors named, failed the groups Slack could not be
	// asked about, for Say.
	all    Editors
	failed []string
}

// Say is the refusal in words w, "" for an editor.
func (v Verdict) Say(w Words) string {
	switch {
	case v.Editor:
		return ""
	case len(v.failed) > 0:
		return unavailableText(v.failed, v.all)
	}
	return viewerText(v.all, w)
}

// verdict is the refusal of a viewer, or of a person whose groups could not
// be read (failed), worded for agent jobs.
func verdict(all Editors, failed []string, err error) Verdict {
	v := Verdict{all: all, failed: failed, Err: err}
	v.Refusal = v.Say(Words{Act: "start docs agent jobs, send follow-ups or change settings", Still: "use `/docs-visitors` and `list`"})
	return v
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
		users, err := c.groups.get(ctx, g)
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
		return verdict(all, failed, errors.Join(errs...))
	}
	return verdict(all, nil, nil)
}

// viewerText is the refusal of a viewer.
func viewerText(all Editors, w Words) string {
	return "Only editors can " + w.Act + ". " + w.still() +
		"Editors: " + all.Mentions() + ". Ask one of them to do it for you, or to make you an editor."
}

// unavailableText is the refusal when Slack could not say who is in groups.
func unavailableText(groups []string, all Editors) string {
	return "docsbot could not check whether you are an editor: Slack did not answer when asked who is in " +
		Editors{Groups: groups}.Mentions() + ", and docsbot has no earlier answer. " +
		"Please try again in a minute; if it keeps happening, tell whoever runs docsbot (the cause is in its log). " +
		"Editors: " + all.Mentions() + "."
}
