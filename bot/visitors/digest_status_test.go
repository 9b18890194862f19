package visitors_test

import (
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/store"
)

// newPrivate runs /docs-visitors as user in channel (an empty ack) and
// waits for the private answer that follows it, which it returns.
func (ph *projectsHarness) newPrivate(user, channel, text string) string {
	ph.T.Helper()
	before := len(ph.privates())
	ph.command(user, channel, text)
	ph.WaitFor("the private answer to "+text, func() bool { return len(ph.privates()) > before })
	return ph.privates()[before].Text
}

// statusLines returns the lines of a digest status that are one digest's.
func statusLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "• ") {
			out = append(out, l)
		}
	}
	return out
}

// With two projects, `digest status` without project=NAME lists every
// digest of the channel, one line per project, whichever project the
// channel's default is, and asks no question where no project is the
// channel's; with project=NAME it shows that project's alone; a channel
// with none is told so and how to subscribe.
func TestProjectsDigestStatusListsEveryProject(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(beforeDigest).Now
	ph := newProjectsHarness(t, clock, [2]string{})
	// #api-docs has a subscription made before projects existed (api's,
	// the channel's default) and one of a project the file no longer has.
	ph.subscribeBefore(
		store.DigestSub{Team: "T0TEST", Channel: apiChannel, Frequency: "weekly", CreatedBy: bob, CreatedAt: beforeDigest.Add(-48 * time.Hour)},
		store.DigestSub{Team: "T0TEST", Channel: apiChannel, Project: "gone", Frequency: "daily", CreatedBy: alice, CreatedAt: beforeDigest.Add(-72 * time.Hour)})
	ph.startBot(visitors.Config{Now: clock})

	for _, channel := range []string{randomChannel, general} {
		none := ph.newPrivate(alice, channel, "digest status")
		for _, want := range []string{"This channel has no docs visitors digest of any project", "`/docs-visitors digest weekly project=NAME`",
			"Mondays at 09:00 UTC", "The projects are `docs`, `api`"} {
			if !strings.Contains(none, want) {
				t.Errorf("status in %s without a digest lacks %q:\n%s", channel, want, none)
			}
		}
	}

	ph.command(alice, general, "digest weekly")
	ph.waitInChannel("subscribed this channel to the weekly docs visitors digest of project *docs*")
	ph.command(bob, general, "project=api digest daily")
	ph.waitInChannel("subscribed this channel to the daily docs visitors digest of project *api*")

	steps := []struct {
		name, channel, text string
		want                []string // the lines, in order
		header              string
	}{
		{"both of #general", general, "digest status", []string{
			"• *api*: daily, every day at 09:00 UTC; the next one comes Mon Nov 10 at 09:00 UTC. <@" + bob + "> subscribed it on Nov 10, 2025.",
			"• *docs*: weekly, Mondays at 09:00 UTC; the next one comes Mon Nov 10 at 09:00 UTC. <@" + alice + "> subscribed it on Nov 10, 2025.",
		}, "This channel gets 2 docs visitors digests:"},
		{"the old and the gone of #api-docs", apiChannel, "digest status", []string{
			"• *api*: weekly, Mondays at 09:00 UTC; the next one comes Mon Nov 10 at 09:00 UTC. <@" + bob + "> subscribed it on Nov 8, 2025.",
			"• *gone*: daily, every day at 09:00 UTC, but it is not posted: docsbot no longer serves this project. <@" + alice + "> subscribed it on Nov 7, 2025.",
		}, "This channel gets 2 docs visitors digests:"},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			text := ph.newPrivate(alice, step.channel, step.text)
			if !strings.HasPrefix(text, step.header) {
				t.Errorf("status begins %q, want %q", text, step.header)
			}
			if got := statusLines(text); strings.Join(got, "\n") != strings.Join(step.want, "\n") {
				t.Errorf("status lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(step.want, "\n"))
			}
			if !strings.Contains(text, "`/docs-visitors digest off project=NAME` stops one") {
				t.Errorf("status does not say how to stop one:\n%s", text)
			}
		})
	}

	// project=NAME: that project's alone, as with one project.
	for _, name := range []string{"api", "docs"} {
		other := map[string]string{"api": "docs", "docs": "api"}[name]
		for _, text := range []string{"digest status project=" + name, "project=" + strings.ToUpper(name) + " digest status"} {
			got := ph.newPrivate(alice, general, text)
			if !strings.HasPrefix(got, "This channel gets the ") || !strings.Contains(got, "docs visitors digest of project *"+name+"*") ||
				strings.Contains(got, "*"+other+"*") || len(statusLines(got)) != 0 {
				t.Errorf("%q answered:\n%s\nwant project %s's subscription alone", text, got, name)
			}
		}
	}

	// Nothing asked which project: there was no question to ask.
	for _, m := range ph.Slack.Ephemerals(alice) {
		if strings.Contains(string(m.Blocks), visitors.ActionChooseProject) {
			t.Errorf("a status asked which project:\n%s", m.Text)
		}
	}
	// The help tells of project=NAME for digests.
	ack := ph.Command(alice, general, visitors.Command, "help")
	if !strings.Contains(string(ack.Payload), "digest off project=NAME") || !strings.Contains(string(ack.Payload), "`digest status` lists the digests of every project in the channel") {
		t.Errorf("help does not tell of the digests' project=NAME:\n%s", ack.Payload)
	}
}

// `digest status` queued before projects existed (no project recorded) is
// the channel's status too: every project's digest, told privately in the
// channel when its response_url is gone, with no question asked.
func TestProjectsDigestStatusQueuedBeforeProjects(t *testing.T) {
	t.Parallel()
	ph := newProjectsHarness(t, slacktest.NewManualClock(beforeDigest).Now, [2]string{})
	ph.subscribeBefore(store.DigestSub{Team: "T0TEST", Channel: randomChannel, Project: "api", Frequency: "weekly", CreatedBy: bob, CreatedAt: beforeDigest.Add(-time.Hour)})
	ph.queueLegacyCommand("legacy", alice, randomChannel, "digest status")
	ph.startBot(visitors.Config{Now: slacktest.NewManualClock(beforeDigest).Now})
	want := "• *api*: weekly, Mondays at 09:00 UTC; the next one comes Mon Nov 10 at 09:00 UTC. <@" + bob + "> subscribed it on Nov 10, 2025."
	var got slacktest.Message
	ph.WaitFor("the status told privately", func() bool {
		for _, m := range ph.Slack.Ephemerals(alice) {
			if strings.HasPrefix(m.Text, "This channel gets") || strings.Contains(string(m.Blocks), visitors.ActionChooseProject) {
				got = m
				return true
			}
		}
		return false
	})
	if lines := statusLines(got.Text); !strings.HasPrefix(got.Text, "This channel gets one docs visitors digest:") || len(lines) != 1 || lines[0] != want {
		t.Fatalf("the status told:\n%s\nwant the one line %q", got.Text, want)
	}
}
