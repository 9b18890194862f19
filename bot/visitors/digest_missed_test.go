package visitors_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestDigestMissedWhenTheAnalyticsFailIsToldOnce: while the docs analytics
// cannot be read the posting is handed back and tried again on every tick,
// telling nobody; at the last try before its window closes the week is
// skipped and the person who subscribed the channel is told once,
// privately, why and when the next comes. Nothing is posted in the channel,
// and the next week, with the analytics back, is posted as usual.
func TestDigestMissedWhenTheAnalyticsFailIsToldOnce(t *testing.T) {
	t.Parallel()
	h, clock, _ := subscribedDigest(t)
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusServiceUnavailable})

	clock.Advance(2*time.Minute + 30*time.Second) // Mon Nov 10 09:00:30 UTC
	h.WaitLogged("fetching the digest's numbers failed; another tick tries again", 3)
	if n := len(h.dmsTo(alice)); n != 0 {
		t.Errorf("%d DMs to the subscriber while the posting's window is open, want none", n)
	}

	// The next tick (20ms) would come after the window (Tue 09:00 UTC).
	clock.Advance(24*time.Hour - 30*time.Second - 10*time.Millisecond)
	h.WaitFor("a direct message to the subscriber", func() bool { return len(h.dmsTo(alice)) > 0 })
	bottest.WantContains(t, "the subscriber's DM", h.dmsTo(alice)[0].Text,
		"could not post the weekly docs visitors digest due Mon Nov 10 at 09:00 UTC in <#"+general+">",
		"the docs analytics could not be read", "until the end of its posting window, 24 hours later",
		"This one is skipped; the next comes as usual, Mon Nov 17 at 09:00 UTC", "`/docs-visitors digest off` in the channel stops the digest")
	h.WaitLogged("the digest could not be made within its window; skipping this period", 1)

	// Later ticks, in the window and after it, neither post nor tell again.
	h.moreTicks(3)
	clock.Advance(time.Second)
	h.moreTicks(3)
	if n := len(h.digests()); n != 0 {
		t.Errorf("%d digests posted while the analytics failed", n)
	}
	if n := len(h.dmsTo(alice)); n != 1 {
		t.Errorf("%d DMs to the subscriber, want 1", n)
	}

	// The next week, the analytics read again, the digest is posted.
	h.API.ClearFaults()
	clock.Advance(6*24*time.Hour + 29*time.Second) // Mon Nov 17 09:00:30 UTC
	h.WaitFor("the next week's digest", func() bool { return len(h.digests()) > 0 })
	bottest.WantContains(t, "the next digest", bottest.Rendered(h.digests()[0]), "Nov 10 – Nov 16, 2025", "weekly docs visitors digest")
	h.WaitLogged("digest posted already", 1)
	h.StopAll()
	if n := len(h.digests()); n != 1 {
		t.Errorf("%d digests posted, want the next week's", n)
	}
	if n := len(h.dmsTo(alice)); n != 1 {
		t.Errorf("%d DMs to the subscriber, want 1", n)
	}
}
