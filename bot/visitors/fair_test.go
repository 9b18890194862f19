package visitors_test

import (
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// ask types /docs-visitors as user in #general.
func (h *harness) ask(user, text string) {
	h.T.Helper()
	if ack := h.Command(user, general, visitors.Command, text); len(ack.Payload) > 0 && string(ack.Payload) != "null" {
		h.T.Fatalf("ack of %q carries %s, want an empty ack", text, ack.Payload)
	}
}

// TestShareRefusesOnePersonWhileAnotherGetsAnswers: alice spends her share
// of 2 an hour (a summary of 100 pages is one request) and is refused,
// privately, with what she has left, when it is back and why; bob, with
// the budget far from spent, still gets his answer.
func TestShareRefusesOnePersonWhileAnotherGetsAnswers(t *testing.T) {
	t.Parallel()
	h, _ := visitorsHarness(t, 100)
	h.StartBot(bottest.Config{Now: visitorsNow, Config: app.Config{Bot: bot.Config{Analytics: bot.AnalyticsLimits{Budget: 20, PerUser: 2}}}})
	h.ask(alice, "7d")
	h.waitSummaries(1)
	h.ask(alice, "30d")
	h.waitSummaries(2)

	h.ask(alice, "12w")
	refusal := h.WaitPrivate(alice, "your share of 2 analytics requests an hour")
	bottest.WantContains(t, "alice's refusal", refusal.Text, "You have none left", "enough of your share is back in about 1 hour (at ", "so that nobody spends the whole hour's 20")

	h.ask(bob, "12w")
	h.waitSummaries(3)
	h.Settle()
	h.WantRequests(docsapitest.EndpointVisitors, 3, "alice's two and bob's; none for alice's refused one")
	if n := len(h.Privates(bob, "share")); n != 0 {
		t.Errorf("bob was told of a share %d times", n)
	}
}

// TestReserveKeptForTheDigest: people may spend 20 of the hour's less the
// 16 kept for digests; the fifth summary is refused for the reserve, and
// the scheduled digest still posts, its chart complete.
func TestReserveKeptForTheDigest(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(beforeDigest)
	h, _ := visitorsHarness(t, 100, docsapitest.WithClock(clock.Now))
	h.StartBot(bottest.Config{Now: clock.Now, Config: app.Config{Bot: bot.Config{Analytics: bot.AnalyticsLimits{Budget: 20, DigestReserve: 16}}, Visitors: visitors.Config{DigestTick: 20 * time.Millisecond}}})
	h.subscribe()
	for i, r := range []string{"7d", "30d", "12w", "yesterday"} {
		h.ask(alice, r)
		h.waitSummaries(i + 2) // after the subscription's confirmation
	}
	h.ask(alice, "today")
	refusal := h.WaitPrivate(alice, "kept for the scheduled digests (the last 16)")
	bottest.WantContains(t, "the reserve's refusal", refusal.Text, "You have none left", "enough is free again in about 1 hour")
	people := h.API.Count(docsapitest.EndpointVisitors)
	if people != 4 {
		t.Fatalf("%d requests for people, want 4 (20 less the 16 kept)", people)
	}

	clock.Advance(2*time.Minute + 30*time.Second)
	h.WaitFor("the digest", func() bool { return len(h.digests()) > 0 })
	f := h.waitFiles(1)[0]
	checkChart(t, f)
	if c := h.comment(f); strings.Contains(c, "No data") {
		t.Errorf("the digest's chart has gaps: %q", c)
	}
	if n := h.settledRequests(); n <= people {
		t.Errorf("%d requests in all, want the digest's beyond the people's %d", n, people)
	}
}

// TestCostlyChartAsksFirst: a chart that would spend more than 40 asks its
// person with a Spend and a Cancel button before it spends; Spend spends
// what the button says, Cancel nothing, and a 30-day chart (31) asks
// nothing.
func TestCostlyChartAsksFirst(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		// press is the button pressed, "" when no question is wanted.
		press string
		// requests are those sent in all; files the charts posted.
		requests, files int
	}{
		{text: "30d chart", requests: 31, files: 1},
		// 400 days and the totals from a cold cache: alice's share, 50.
		{text: "400d chart", press: visitors.ActionSpend + "yes", requests: 50, files: 1},
		{text: "400d chart", press: visitors.ActionSpend + "no", requests: 0, files: 0},
	}
	for _, tc := range tests {
		t.Run(tc.text+" "+tc.press, func(t *testing.T) {
			t.Parallel()
			h, _ := visitorsBot(t, 100, bottest.Config{Config: app.Config{Bot: bot.Config{Analytics: wideShare}}})
			h.ask(alice, tc.text)
			if tc.press == "" {
				h.waitFiles(1)
				h.Settle()
				if q := h.Privates(alice, "Spend them?"); len(q) != 0 {
					t.Errorf("a %s asked: %q", tc.text, q[0].Text)
				}
			} else {
				q := h.WaitButtons(alice, visitors.ActionSpend+"yes")
				bottest.WantContains(t, "the question", rendered(q), "costs 401 requests to the docs API", "Spend 50 of the hour's 100 analytics requests", "Cancel",
					"It fetches the latest 50 days")
				h.WantRequests(docsapitest.EndpointVisitors, 0, "nothing before the answer")
				h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: q.TS, ActionID: tc.press})
				if tc.files > 0 {
					h.waitFiles(tc.files)
				} else {
					h.WaitPrivate(alice, "Cancelled: docsbot did not draw the chart and spent none")
				}
				h.Settle()
			}
			h.WantRequests(docsapitest.EndpointVisitors, tc.requests, "")
			if n := len(h.Slack.Files()); n != tc.files {
				t.Errorf("%d charts posted, want %d", n, tc.files)
			}
		})
	}
}

// TestShareOfAGuest: a guest's share is DOCSBOT_ANALYTICS_PER_GUEST, not a
// member's: with shares of 2 and 4 (a summary of 100 pages is one request),
// the guest's third summary is refused, saying their share is a guest's,
// while alice's third is answered.
func TestShareOfAGuest(t *testing.T) {
	t.Parallel()
	const guest = "U0GUEST"
	h, _ := visitorsHarness(t, 100)
	h.Slack.AddGuest(guest, "Gus Guest", false)
	h.StartBot(bottest.Config{Now: visitorsNow, Config: app.Config{Bot: bot.Config{Analytics: bot.AnalyticsLimits{Budget: 20, PerUser: 4, PerGuest: 2}}}})
	h.ask(guest, "7d")
	h.waitSummaries(1)
	h.ask(guest, "30d")
	h.waitSummaries(2)
	h.ask(guest, "12w")
	h.WaitPrivate(guest, "your share of 2 analytics requests an hour as a guest or a person of another organisation")

	for i, r := range []string{"yesterday", "last-month", "today"} { // not cached
		h.ask(alice, r)
		h.waitSummaries(3 + i)
	}
	h.Settle()
	h.WantRequests(docsapitest.EndpointVisitors, 5, "the guest's two and alice's three; none for the guest's refused one")
	if n := len(h.Privates(alice, "share")); n != 0 {
		t.Errorf("alice was told of a share %d times", n)
	}
}
