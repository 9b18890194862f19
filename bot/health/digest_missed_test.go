package health_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// dmsTo returns the bot's messages in its direct message with user.
func dmsTo(h *bottest.Harness, user string) []slacktest.Message {
	h.T.Helper()
	dm, err := h.Slack.OpenDM(user)
	if err != nil {
		h.T.Fatal(err)
	}
	return h.Roots(dm)
}

// moreLooks waits for n more looks at the health digests.
func moreLooks(h *bottest.Harness, n int) {
	h.T.Helper()
	h.WaitLogged("health digests looked at", strings.Count(h.Logs.String(), `msg="health digests looked at"`)+n)
}

// lateDigestWorld is digestWorld with #general subscribed to the weekly
// digest by alice, and its bots stopped until the clock is five minutes
// before the window of the digest due Mon Nov 10 at 09:00 UTC closes (Tue
// 09:00): the one try left is the last, since the next, after digestRetry,
// would come after the window.
func lateDigestWorld(t *testing.T) (*bottest.Harness, *slacktest.ManualClock, bottest.Config) {
	t.Helper()
	h, clock, c := digestWorld(t)
	first := h.StartBot(c)
	h.Command(alice, general, health.Command, "digest weekly")
	waitResponse(h, alice, "in_channel", "subscribed this channel to the weekly docs health digest")
	first.Stop()
	clock.Advance(24*time.Hour - 3*time.Minute) // Tue Nov 11 08:55 UTC
	return h, clock, c
}

// TestHealthDigestMissedWhenTheAnalyticsFailIsToldOnce: when the analytics
// cannot be read until the posting's window closes, the week is skipped and
// the person who subscribed the channel is told once, privately, why and
// when the next comes; nothing is posted in the channel, and the next week,
// with the analytics back, is posted as usual.
func TestHealthDigestMissedWhenTheAnalyticsFailIsToldOnce(t *testing.T) {
	t.Parallel()
	h, clock, cfg := lateDigestWorld(t)
	for _, e := range analytics {
		h.API.AddFault(docsapitest.Fault{Endpoint: e, Status: http.StatusServiceUnavailable})
	}
	h.StartBot(cfg)
	h.WaitFor("a direct message to the subscriber", func() bool { return len(dmsTo(h, alice)) > 0 })
	bottest.WantContains(t, "the subscriber's DM", dmsTo(h, alice)[0].Text,
		"could not post the weekly docs health digest due Mon Nov 10 at 09:00 UTC in <#"+general+">",
		"the docs analytics could not be read", "until the end of its posting window, 24 hours later",
		"This one is skipped; the next comes as usual, Mon Nov 17 at 09:00 UTC", "`/docs-health digest off` in the channel stops the digest")
	h.WaitLogged("the digest could not be made within its window; skipping this period", 1)

	// Later looks, in the window and after it, neither post nor tell again.
	moreLooks(h, 3)
	clock.Advance(10 * time.Minute)
	moreLooks(h, 3)
	if n := len(digests(h)); n != 0 {
		t.Errorf("%d health digests posted while the analytics failed", n)
	}
	if n := len(dmsTo(h, alice)); n != 1 {
		t.Errorf("%d DMs to the subscriber, want 1", n)
	}

	// The next week, the analytics read again, the digest is posted.
	h.API.ClearFaults()
	clock.Advance(6*24*time.Hour - 5*time.Minute + 30*time.Second) // Mon Nov 17 09:00:30 UTC
	h.WaitFor("the next week's digest", func() bool { return len(digests(h)) > 0 })
	bottest.WantContains(t, "the next digest", bottest.Rendered(digests(h)[0]), "Weekly docs health digest", "Nov 10 – Nov 16, 2025")
	h.WaitLogged("digest posted already", 1)
	h.StopAll()
	if n := len(digests(h)); n != 1 {
		t.Errorf("%d health digests posted, want the next week's", n)
	}
	if n := len(dmsTo(h, alice)); n != 1 {
		t.Errorf("%d DMs to the subscriber, want 1", n)
	}
}

// TestHealthDigestMissedWhenTheBudgetHasNoRoom: an analytics budget too
// small for the summary's requests has no room until the window closes: the
// week is skipped and the subscriber told so; with a budget that has room,
// the next week is posted.
func TestHealthDigestMissedWhenTheBudgetHasNoRoom(t *testing.T) {
	t.Parallel()
	h, clock, cfg := lateDigestWorld(t)
	small := cfg
	small.Bot.Analytics = bot.AnalyticsLimits{Budget: 4} // the summary takes up to 5
	tiny := h.StartBot(small)
	h.WaitFor("a direct message to the subscriber", func() bool { return len(dmsTo(h, alice)) > 0 })
	bottest.WantContains(t, "the subscriber's DM", dmsTo(h, alice)[0].Text,
		"could not post the weekly docs health digest due Mon Nov 10 at 09:00 UTC", "the analytics budget had no room",
		"This one is skipped; the next comes as usual, Mon Nov 17 at 09:00 UTC")
	if n := requests(h.API); n != 0 {
		t.Errorf("%d analytics requests beyond the budget", n)
	}
	moreLooks(h, 3)
	tiny.Stop()

	h.StartBot(cfg)
	clock.Advance(6*24*time.Hour + 5*time.Minute + 30*time.Second) // Mon Nov 17 09:00:30 UTC
	h.WaitFor("the next week's digest", func() bool { return len(digests(h)) > 0 })
	h.StopAll()
	if n := len(digests(h)); n != 1 {
		t.Errorf("%d health digests posted, want the next week's", n)
	}
	if n := len(dmsTo(h, alice)); n != 1 {
		t.Errorf("%d DMs to the subscriber, want 1", n)
	}
}
