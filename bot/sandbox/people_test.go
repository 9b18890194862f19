package sandbox

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
	"github.com/docsbot/docsbot/store/redistest"
)

// guestRefusal begins what docsbot tells a guest who tries to start a job.
const guestRefusal = "Guests of this workspace cannot start docs agent jobs"

// stateAs fetches the page's state acting as person.
func stateAs(t *testing.T, sb *Sandbox, person string) slackweb.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), sandboxWait)
	defer cancel()
	st, err := slackweb.Client{URL: sb.url, As: person}.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// told reports whether st's person was told text privately.
func told(st slackweb.State, text string) bool {
	return slices.ContainsFunc(st.Ephemerals, func(m slackweb.MessageView) bool { return strings.Contains(m.Text+string(m.Blocks), text) })
}

// TestSandboxPeople: the sandbox's page can act as Alice, a member, Gus, a
// guest, who is only in #random and #help, and Pat of Partner Co, who is
// only in #partner-shared, the channel shared with Partner Co; the intro says what to try. A command typed as Gus
// reaches docsbot as Gus: /docs-agent is refused to him, privately.
func TestSandboxPeople(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")

	alice := stateAs(t, sb, "")
	var people []string
	for _, p := range alice.People {
		people = append(people, p.ID+" "+p.About)
	}
	if want := []string{sandboxUser + " member", sandboxGuest + " guest", sandboxPartner + " Partner Co, another organisation", otherUser + " Other Co, no docsbot yet"}; alice.Me != sandboxUser || !slices.Equal(people, want) {
		t.Errorf("the page acts as %s among %q, want %s among %q", alice.Me, people, sandboxUser, want)
	}
	if c := channel(alice, partnerChannel); c.Name != "partner-shared" || !c.Shared || !c.BotMember {
		t.Errorf("alice's #partner-shared: %+v, want shared with docsbot in it", c)
	}
	for _, want := range []string{"*You are*", "#partner-shared", "gus", "pat"} {
		if !strings.Contains(alice.Intro, want) {
			t.Errorf("the intro does not say %q", want)
		}
	}
	channels := map[string][]string{}
	for _, person := range []string{sandboxGuest, sandboxPartner} {
		for _, c := range stateAs(t, sb, person).Channels {
			channels[person] = append(channels[person], c.Name)
		}
	}
	if !slices.Equal(channels[sandboxGuest], []string{"random", "help"}) {
		t.Errorf("gus sees %q, want #random and #help only", channels[sandboxGuest])
	}
	if !slices.Equal(channels[sandboxPartner], []string{"partner-shared"}) {
		t.Errorf("pat sees %q, want #partner-shared only", channels[sandboxPartner])
	}

	ctx, cancel := context.WithTimeout(t.Context(), sandboxWait)
	defer cancel()
	out, status, err := slackweb.Client{URL: sb.url, As: sandboxGuest}.Send(ctx, slackweb.SendRequest{Channel: helpChannel, Text: agent.Command + " add a page"})
	if err != nil || !out.OK || !out.Command {
		t.Fatalf("%s as gus: %d %+v %v", agent.Command, status, out, err)
	}
	redistest.Until(t, "gus told he cannot start a job", func() bool { return told(stateAs(t, sb, sandboxGuest), guestRefusal) })
	if told(stateAs(t, sb, sandboxUser), guestRefusal) {
		t.Errorf("alice sees gus's refusal")
	}
	if jobs := sb.api.Jobs(); len(jobs) != 0 {
		t.Errorf("the guest's command started jobs: %+v", jobs)
	}
}
