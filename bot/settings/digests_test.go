package settings_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/settings"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

const (
	digests = "C0DIGESTS" // a channel docsbot is in, given the visitors digest from the Settings
	quiet   = "C0QUIET"   // a channel docsbot is not in
)

// visitorsDigests are the visitors digests posted in channel.
func visitorsDigests(h *bottest.Harness, channel string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.Roots(channel) {
		if strings.Contains(string(m.Metadata), visitors.DigestEvent) {
			out = append(out, m)
		}
	}
	return out
}

// lookedAt waits until a replica's visitors digest loop looked at the
// subscriptions at now and found nothing owed.
func lookedAt(h *bottest.Harness, now time.Time) {
	h.T.Helper()
	line := `msg="digests looked at" owed=0 subscriptions=1 now=` + now.UTC().Format("2006-01-02T15:04:05.000Z")
	h.WaitFor("the digest loop looking at "+now.String(), func() bool { return strings.Contains(h.Logs.String(), line) })
}

// TestDigestTimeAndChannelsSetInSlack: an admin sets the workspace's
// digest time and a channel of the visitors digest in the Digests and
// limits modal (a zone that is none, and a channel docsbot is not in,
// refused on their inputs); the channel is subscribed as `digest weekly`
// there would (told in it, audited as the command is) and the digest is
// posted there at that time, not the environment's, once across two
// replicas; a member's forged submission changes nothing and is told so;
// Clear brings the environment's time back, and the next week's digest
// comes then; taking the channel out turns it off.
func TestDigestTimeAndChannelsSetInSlack(t *testing.T) {
	t.Parallel()
	monday := time.Date(2025, 11, 10, 8, 0, 0, 0, time.UTC) // the environment's digests are due at 09:00 UTC
	clock := slacktest.NewManualClock(monday)
	h := bottest.New(t, redisURL, docsapitest.WithClock(clock.Now))
	h.Slack.MakeAdmin(alice, false)
	h.Slack.AddChannel(slacktest.Channel{ID: digests, Name: "digests", BotMember: true})
	h.Slack.AddChannel(slacktest.Channel{ID: quiet, Name: "quiet"})
	cfg := bottest.Config{Now: clock.Now, Config: app.Config{Visitors: visitors.Config{DigestTick: 20 * time.Millisecond}}}
	h.StartBot(cfg)
	h.StartBot(cfg)

	home := h.OpenHome(alice, "*Digest time*: Mondays at 09:00 UTC (daily digests every day at that time) · from the environment (`DOCSBOT_DIGEST_TIME`)")
	bottest.WantContains(t, "the Home", bottest.Rendered(slacktest.Message{Blocks: home.Blocks}), "*Visitors digest channels*: none")
	limits := openModal(t, h, alice, home, settings.ActionLimits, settings.ViewLimits)
	errs := submitted(t, h, limits, values("digest_time", "11:00", "digest_time_zone", "Mars/Olympus"))
	bottest.WantContains(t, "a zone that is none", errs["digest_time_zone"], "no time zone Mars/Olympus")
	errs = submitted(t, h, limits, values("visitors_digest_channels", quiet))
	bottest.WantContains(t, "a channel docsbot is not in", errs["visitors_digest_channels"], "docsbot is not in #quiet", "/invite @docsbot")
	if errs := submitted(t, h, limits, values("digest_time", "11:00", "visitors_digest_channels", digests)); errs != nil {
		t.Fatalf("the Digests and limits modal answered %v", errs)
	}
	bottest.WantContains(t, "the confirmation", confirmed(h, alice, "D0ALICE", 1),
		"*Digest time*: Mondays at 11:00 UTC", "*Visitors digest channels*: <#"+digests+"> (was no channel)")
	h.WaitFor("the subscription told in its channel", func() bool {
		return slices.ContainsFunc(h.Roots(digests), func(m slacktest.Message) bool {
			return strings.Contains(m.Text, "subscribed this channel to the weekly docs visitors digest from docsbot's Settings: Mondays at 11:00 UTC")
		})
	})

	// A member's forged submission: refused, told so, nothing changed.
	in, err := h.Slack.ForgeViewSubmission(t.Context(), limits.ID, bob, values("digest_time", "07:00", "visitors_digest_channels", ""))
	if err != nil || !strings.Contains(string(in.Ack.Payload), "Only admins can change") {
		t.Errorf("a member's forged submission was answered %s (%v)", in.Ack.Payload, err)
	}
	st := h.OpenStore()
	if set, err := st.WorkspaceSettings().All(t.Context(), team); err != nil || set[bot.SettingDigestTime].Value != "Mon 11:00 UTC" {
		t.Errorf("the digest time after the forged submission: %+v, %v", set[bot.SettingDigestTime], err)
	}

	// The environment's hour passes: nothing, in this workspace.
	clock.Advance(time.Hour + time.Minute)
	lookedAt(h, clock.Now())
	if n := len(visitorsDigests(h, digests)); n != 0 {
		t.Fatalf("%d digests at the environment's time, want none", n)
	}
	// Its own: one digest, whichever replica posts it.
	clock.Advance(2 * time.Hour)
	h.WaitFor("the digest at 11:00", func() bool { return len(visitorsDigests(h, digests)) == 1 })
	bottest.WantContains(t, "the digest", bottest.Rendered(visitorsDigests(h, digests)[0]), "Nov 3 – Nov 9, 2025", "weekly docs visitors digest")
	h.WaitLogged("digest posted already", 4) // both replicas saw it posted, twice each

	// Cleared: the environment's time again, the next Monday at 09:00.
	home = h.OpenHome(alice, "*Digest time*: Mondays at 11:00 UTC")
	h.Act(slacktest.Action{UserID: alice, ViewID: home.ID, ActionID: settings.ActionClear + bot.SettingDigestTime})
	h.OpenHome(alice, "*Digest time*: Mondays at 09:00 UTC (daily digests every day at that time) · from the environment")
	clock.Advance(7*24*time.Hour - 2*time.Hour) // Monday 09:01
	h.WaitFor("the next week's digest at 09:00", func() bool { return len(visitorsDigests(h, digests)) == 2 })
	bottest.WantContains(t, "the next digest", bottest.Rendered(visitorsDigests(h, digests)[1]), "Nov 10 – Nov 16, 2025")

	// Taken out: turned off, as `digest off` there would.
	limits = openModal(t, h, alice, home, settings.ActionLimits, settings.ViewLimits)
	if errs := submitted(t, h, limits, values("visitors_digest_channels", "")); errs != nil {
		t.Fatalf("the Digests and limits modal answered %v", errs)
	}
	confirmed(h, alice, "D0ALICE", 3)
	if subs, err := st.Digests().DigestSubs(t.Context()); err != nil || len(subs) != 0 {
		t.Errorf("subscriptions after the channel was taken out: %+v, %v", subs, err)
	}
	h.StopAll()
	if n := len(visitorsDigests(h, digests)); n != 2 {
		t.Errorf("%d digests posted, want 2", n)
	}
	wantDigestAudit(t, st)
}

// wantDigestAudit checks the audit trail of the test above: the changes
// with their old and new values, the channel's subscription as its
// command records it, and the forged submission's refusal.
func wantDigestAudit(t *testing.T, st *store.Store) {
	t.Helper()
	var changes []string
	var refusals int
	err := st.AuditLog(store.AuditOptions{}).Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
		switch {
		case r.Action == store.AuditSettings && r.Channel != "":
			changes = append(changes, r.Channel+": "+r.Detail+" by "+r.User)
		case r.Action == store.AuditSettings:
			changes = append(changes, r.Detail)
		case r.Action == store.AuditRefusal && strings.HasPrefix(r.Detail, "settings:"):
			refusals++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		digests + ": digest weekly by " + alice,
		`set Digest time (over DOCSBOT_DIGEST_TIME) to "Mon 11:00 UTC", was none (the environment's)`,
		`set Visitors digest channels (over /docs-visitors digest) to "` + digests + `", was none`,
		`set Digest time (over DOCSBOT_DIGEST_TIME) to none (the environment's), was "Mon 11:00 UTC"`,
		digests + ": digest off by " + alice,
		`set Visitors digest channels (over /docs-visitors digest) to none, was "` + digests + `"`,
	}
	if strings.Join(changes, "\n") != strings.Join(want, "\n") {
		t.Errorf("audited changes:\n%s\nwant:\n%s", strings.Join(changes, "\n"), strings.Join(want, "\n"))
	}
	if refusals != 1 {
		t.Errorf("%d refusals of the settings audited, want the forged submission's", refusals)
	}
}
