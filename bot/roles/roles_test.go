package roles_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// directory is an in-process stand-in for Slack's user groups, answering
// usergroups.users.list from a map: Slack's data, not a mock of a client.
// It counts the calls, can fail them all (as Slack does when it is down or
// the scope is missing) and can hold every call until released, which the
// tests of the cache, the shared request and the stale answers need;
// slack_test.go checks the real slack-go client against bot/slacktest.
type directory struct {
	mu     sync.Mutex
	groups map[string][]string
	calls  int
	fail   error
	gate   chan struct{} // when set, calls wait for it to close
}

func (d *directory) UserGroupMembers(ctx context.Context, g string) ([]string, error) {
	d.mu.Lock()
	d.calls++
	gate, fail := d.gate, d.fail
	users, ok := d.groups[g]
	d.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if fail != nil {
		return nil, fail
	}
	if !ok {
		return nil, errNoSuchSubteam
	}
	return append([]string(nil), users...), nil
}

func (d *directory) callCount() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls
}

func (d *directory) setFail(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.fail = err
}

// setMembers changes who is in group g, as an admin does in Slack.
func (d *directory) setMembers(g string, users ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.groups[g] = users
}

var (
	errNoSuchSubteam = errors.New("no_such_subteam")
	errSlackDown     = errors.New("slack server error: 503 Service Unavailable")
)

// newClock is a clock the tests move by hand.
func newClock() *slacktest.ManualClock {
	return slacktest.NewManualClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
}

func newDirectory() *directory {
	return &directory{groups: map[string][]string{
		"S0DOCS": {"U0ALICE", "U0BOB"},
		"S0SEC":  {"U0EVE"},
		"S0NONE": {},
	}}
}

func editors(t *testing.T, ids ...string) roles.Editors {
	t.Helper()
	e, err := roles.ParseEditors(ids)
	if err != nil {
		t.Fatalf("ParseEditors(%q): %v", ids, err)
	}
	return e
}

func TestCheckRoles(t *testing.T) {
	tests := []struct {
		name       string
		user       string
		global     []string
		project    []string
		editor     bool
		slackCalls int
		mentions   []string // in the refusal
	}{
		{name: "nothing configured: everyone edits", user: "U0ANY", editor: true},
		{name: "named globally", user: "U0CAROL", global: []string{"U0CAROL"}, editor: true},
		{name: "named for the project", user: "U0CAROL", global: []string{"U0DAN"}, project: []string{"U0CAROL"}, editor: true},
		{name: "named directly asks Slack nothing", user: "U0CAROL", global: []string{"S0DOCS", "U0CAROL"}, editor: true},
		{name: "member of a global group", user: "U0BOB", global: []string{"S0DOCS"}, editor: true, slackCalls: 1},
		{name: "member of the project's group", user: "U0EVE", global: []string{"S0DOCS"}, project: []string{"S0SEC"}, editor: true, slackCalls: 2},
		{name: "enterprise user id", user: "W0GRID", project: []string{"W0GRID"}, editor: true},
		{name: "viewer", user: "U0MALLORY", global: []string{"U0CAROL"}, project: []string{"S0DOCS"},
			slackCalls: 1, mentions: []string{"<@U0CAROL>", "<!subteam^S0DOCS>"}},
		{name: "viewer of an empty group", user: "U0MALLORY", project: []string{"S0NONE"},
			slackCalls: 1, mentions: []string{"<!subteam^S0NONE>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := newDirectory()
			c := roles.NewChecker(dir)
			v := c.Check(t.Context(), tt.user, editors(t, tt.global...), editors(t, tt.project...))
			if v.Editor != tt.editor {
				t.Fatalf("Editor = %t, want %t (refusal %q)", v.Editor, tt.editor, v.Refusal)
			}
			if v.Err != nil {
				t.Errorf("Err = %v, want nil", v.Err)
			}
			if got := dir.callCount(); got != tt.slackCalls {
				t.Errorf("usergroups.users.list calls = %d, want %d", got, tt.slackCalls)
			}
			if tt.editor {
				if v.Refusal != "" {
					t.Errorf("Refusal = %q for an editor", v.Refusal)
				}
				return
			}
			if !strings.Contains(v.Refusal, "Only editors") {
				t.Errorf("Refusal = %q, want it to say only editors may", v.Refusal)
			}
			for _, m := range tt.mentions {
				if !strings.Contains(v.Refusal, m) {
					t.Errorf("Refusal = %q, want it to name %s", v.Refusal, m)
				}
			}
		})
	}
}

func TestCheckCachesGroups(t *testing.T) {
	dir, clk := newDirectory(), newClock()
	c := roles.NewChecker(dir, roles.WithClock(clk.Now))
	docs := editors(t, "S0DOCS")
	for range 3 {
		if v := c.Check(t.Context(), "U0ALICE", docs); !v.Editor {
			t.Fatalf("U0ALICE refused: %q", v.Refusal)
		}
		if v := c.Check(t.Context(), "U0MALLORY", docs); v.Editor {
			t.Fatal("U0MALLORY is an editor")
		}
	}
	if got := dir.callCount(); got != 1 {
		t.Fatalf("calls within the TTL = %d, want 1", got)
	}
	clk.Advance(roles.DefaultTTL)
	c.Check(t.Context(), "U0ALICE", docs)
	if got := dir.callCount(); got != 2 {
		t.Fatalf("calls after the TTL = %d, want 2", got)
	}
}

func TestCheckSharesOneRequest(t *testing.T) {
	dir := newDirectory()
	dir.gate = make(chan struct{})
	c := roles.NewChecker(dir, roles.WithClock(newClock().Now))
	docs := editors(t, "S0DOCS")
	const callers = 20
	verdicts := make(chan roles.Verdict, callers)
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() { verdicts <- c.Check(t.Context(), "U0BOB", docs) })
	}
	// Every caller either waits for the one request under way or, if it
	// arrives after it, reads its cached answer: one call whatever the
	// scheduling.
	close(dir.gate)
	wg.Wait()
	close(verdicts)
	for v := range verdicts {
		if !v.Editor {
			t.Fatalf("refused: %q (%v)", v.Refusal, v.Err)
		}
	}
	if got := dir.callCount(); got != 1 {
		t.Fatalf("usergroups.users.list calls = %d, want 1", got)
	}
}

func TestCheckWhenSlackCannotBeAsked(t *testing.T) {
	dir, clk := newDirectory(), newClock()
	c := roles.NewChecker(dir, roles.WithClock(clk.Now))
	docs := editors(t, "U0CAROL", "S0DOCS")

	dir.setFail(errSlackDown)
	v := c.Check(t.Context(), "U0ALICE", docs)
	if v.Editor {
		t.Fatal("decided editor without an answer from Slack")
	}
	if !errors.Is(v.Err, errSlackDown) {
		t.Errorf("Err = %v, want the Slack error", v.Err)
	}
	for _, want := range []string{"could not check", "<!subteam^S0DOCS>", "<@U0CAROL>", "try again"} {
		if !strings.Contains(v.Refusal, want) {
			t.Errorf("Refusal = %q, want %q in it", v.Refusal, want)
		}
	}

	// The failure stands for a while: no request per check.
	if v := c.Check(t.Context(), "U0BOB", docs); v.Editor || !errors.Is(v.Err, errSlackDown) {
		t.Fatalf("second check: editor %t, err %v", v.Editor, v.Err)
	}
	if got := dir.callCount(); got != 1 {
		t.Fatalf("calls while the failure stands = %d, want 1", got)
	}
	dir.setFail(nil)
	clk.Advance(roles.DefaultFailureTTL)
	if v := c.Check(t.Context(), "U0ALICE", docs); !v.Editor {
		t.Fatalf("refused once Slack answers: %q", v.Refusal)
	}
	if got := dir.callCount(); got != 2 {
		t.Fatalf("calls after the failure = %d, want 2", got)
	}
	// Slack fails again after the TTL: the earlier answer still holds for
	// the stale period, and not after it.
	dir.setFail(errSlackDown)
	clk.Advance(5 * time.Minute)
	if v := c.Check(t.Context(), "U0ALICE", docs); !v.Editor || v.Err != nil {
		t.Fatalf("stale answer not used: editor %t, err %v", v.Editor, v.Err)
	}
	if v := c.Check(t.Context(), "U0MALLORY", docs); v.Editor || v.Err != nil || !strings.Contains(v.Refusal, "Only editors") {
		t.Fatalf("stale answer for a viewer: editor %t, err %v, refusal %q", v.Editor, v.Err, v.Refusal)
	}
	clk.Advance(roles.DefaultMaxStale)
	if v := c.Check(t.Context(), "U0ALICE", docs); v.Editor || !errors.Is(v.Err, errSlackDown) {
		t.Fatalf("answer older than TTL+stale used: editor %t, err %v", v.Editor, v.Err)
	}
}

// TestRemovedEditorLosesTheRole proves the bound the README states, with
// the Checker's defaults (as docsbot serve runs it): a person removed from
// an editors' user group is still an editor until DefaultTTL after Slack's
// last answer, and refused from then on when Slack answers. Only while Slack
// cannot be asked does the last answer stand longer, up to DefaultMaxStale
// after the TTL, and the first answer Slack gives again (asked at most
// DefaultFailureTTL after a failure) ends it.
func TestRemovedEditorLosesTheRole(t *testing.T) {
	t.Parallel()
	type step struct {
		after     time.Duration // since Slack's answer that still listed the person
		slackDown bool
		editor    bool
		undecided bool // refused because Slack could not be asked (Verdict.Err)
	}
	ttl, stale, retry := roles.DefaultTTL, roles.DefaultMaxStale, roles.DefaultFailureTTL
	tests := []struct {
		name  string
		steps []step
	}{
		{"Slack answers", []step{
			{after: ttl - time.Second, editor: true},
			{after: ttl},
			{after: ttl + stale},
		}},
		{"Slack cannot be asked throughout", []step{
			{after: ttl, slackDown: true, editor: true},
			{after: ttl + stale - time.Second, slackDown: true, editor: true},
			{after: ttl + stale, slackDown: true, undecided: true},
		}},
		{"Slack answers again", []step{
			{after: ttl, slackDown: true, editor: true},
			// Back, but the failure stands for retry: no request yet.
			{after: ttl + retry - time.Second, editor: true},
			{after: ttl + retry},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir, clk := newDirectory(), newClock()
			c := roles.NewChecker(dir, roles.WithClock(clk.Now))
			docs := editors(t, "S0DOCS")
			if v := c.Check(t.Context(), "U0BOB", docs); !v.Editor {
				t.Fatalf("U0BOB refused while in the group: %q", v.Refusal)
			}
			answered := clk.Now()
			dir.setMembers("S0DOCS", "U0ALICE") // removed right after Slack's answer
			for _, st := range tt.steps {
				clk.Advance(answered.Add(st.after).Sub(clk.Now()))
				dir.setFail(nil)
				if st.slackDown {
					dir.setFail(errSlackDown)
				}
				v := c.Check(t.Context(), "U0BOB", docs)
				if v.Editor != st.editor || (v.Err != nil) != st.undecided {
					t.Fatalf("%v after the last answer (Slack down %t): editor %t, err %v; want editor %t, undecided %t",
						st.after, st.slackDown, v.Editor, v.Err, st.editor, st.undecided)
				}
			}
		})
	}
}

func TestCheckCallerGivesUp(t *testing.T) {
	dir := newDirectory()
	dir.gate = make(chan struct{})
	c := roles.NewChecker(dir, roles.WithClock(newClock().Now))
	docs := editors(t, "S0DOCS")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	v := c.Check(ctx, "U0ALICE", docs)
	if v.Editor || !errors.Is(v.Err, context.Canceled) {
		t.Fatalf("cancelled check: editor %t, err %v", v.Editor, v.Err)
	}
	// The request goes on for whoever asks next.
	close(dir.gate)
	if v := c.Check(t.Context(), "U0ALICE", docs); !v.Editor {
		t.Fatalf("refused after the request completed: %q (%v)", v.Refusal, v.Err)
	}
	if got := dir.callCount(); got != 1 {
		t.Fatalf("calls = %d, want 1", got)
	}
}

// TestCheckForgetsOldestGroup: a Checker remembers DefaultMaxGroups groups;
// one more forgets the group asked about longest ago.
func TestCheckForgetsOldestGroup(t *testing.T) {
	dir, clk := newDirectory(), newClock()
	c := roles.NewChecker(dir, roles.WithClock(clk.Now))
	const n = roles.DefaultMaxGroups + 1
	group := func(i int) roles.Editors {
		g := fmt.Sprintf("S%07d", i)
		dir.setMembers(g, "U0EVE")
		return editors(t, g)
	}
	for i := range n {
		c.Check(t.Context(), "U0MALLORY", group(i))
		clk.Advance(time.Millisecond) // all within the TTL
	}
	if got := dir.callCount(); got != n {
		t.Fatalf("calls = %d, want %d", got, n)
	}
	c.Check(t.Context(), "U0MALLORY", group(1))
	if got := dir.callCount(); got != n {
		t.Fatalf("the second group asked again while remembered: calls = %d", got)
	}
	c.Check(t.Context(), "U0MALLORY", group(0))
	if got := dir.callCount(); got != n+1 {
		t.Fatalf("the first group not forgotten: calls = %d, want %d", got, n+1)
	}
}

func TestParseEditors(t *testing.T) {
	tests := []struct {
		in      []string
		users   []string
		groups  []string
		wantErr string
	}{
		{in: nil},
		{in: []string{"U01", " S02 ", "", "W03", "U01"}, users: []string{"U01", "W03"}, groups: []string{"S02"}},
		{in: []string{"alice"}, wantErr: `"alice"`},
		{in: []string{"C0CHANNEL"}, wantErr: `"C0CHANNEL"`},
		{in: []string{"<@U01>"}, wantErr: `"<@U01>"`},
		{in: []string{"u01"}, wantErr: `"u01"`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.in), func(t *testing.T) {
			e, err := roles.ParseEditors(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(e.Users) != fmt.Sprint(tt.users) || fmt.Sprint(e.Groups) != fmt.Sprint(tt.groups) {
				t.Fatalf("= %v %v, want %v %v", e.Users, e.Groups, tt.users, tt.groups)
			}
			if e.Empty() != (len(tt.users)+len(tt.groups) == 0) {
				t.Fatalf("Empty() = %t", e.Empty())
			}
		})
	}
}

func TestMentions(t *testing.T) {
	var ids []string
	for i := range 12 {
		ids = append(ids, fmt.Sprintf("U%02d", i))
	}
	ids = append(ids, "S01")
	got := editors(t, ids...).Mentions()
	if !strings.HasPrefix(got, "<!subteam^S01>, <@U00>, ") || !strings.HasSuffix(got, "<@U08> and 3 more") {
		t.Fatalf("Mentions() = %q", got)
	}
	if got := (roles.Editors{}).Mentions(); got != "" {
		t.Fatalf("empty Mentions() = %q", got)
	}
}
