package visitors_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// beforeDigest is two minutes before a Monday 09:00 UTC, when the default
// schedule's weekly digest is due.
var beforeDigest = time.Date(2025, 11, 10, 8, 58, 0, 0, time.UTC)

// digestHarness is a world whose bot and API share a clock the test moves.
func digestHarness(t *testing.T) (*harness, *slacktest.ManualClock, bottest.Config) {
	t.Helper()
	clock := slacktest.NewManualClock(beforeDigest)
	h, _ := visitorsHarness(t, 240, docsapitest.WithClock(clock.Now))
	return h, clock, bottest.Config{Now: clock.Now, Config: app.Config{Visitors: visitors.Config{DigestTick: 20 * time.Millisecond}}}
}

// subscribedDigest is digestHarness with a bot started and the channel
// subscribed to the weekly digest.
func subscribedDigest(t *testing.T) (*harness, *slacktest.ManualClock, bottest.Config) {
	t.Helper()
	h, clock, cfg := digestHarness(t)
	h.StartBot(cfg)
	h.subscribe()
	return h, clock, cfg
}

// subscribeBefore records subs as made before the bot started: without a
// project, a subscription of before projects existed.
func (h *harness) subscribeBefore(subs ...store.DigestSub) {
	h.T.Helper()
	st := h.OpenStore()
	for _, s := range subs {
		if err := st.Digests().SubscribeDigest(context.Background(), s); err != nil {
			h.T.Fatal(err)
		}
	}
}

// digests returns the bot's digest posts in the channel.
func (h *harness) digests() []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.Roots(general) {
		if strings.Contains(string(m.Metadata), visitors.DigestEvent) {
			out = append(out, m)
		}
	}
	return out
}

// subscribe subscribes the channel to the weekly digest and waits for the
// confirmation.
func (h *harness) subscribe() {
	h.T.Helper()
	h.visitorsCommand("digest weekly")
	h.waitInChannel("subscribed this channel to the weekly docs visitors digest: Mondays at 09:00 UTC")
}

// waitInChannel waits for an in-channel response_url post containing want.
func (h *harness) waitInChannel(want string) {
	h.T.Helper()
	h.WaitFor("a post with "+want, func() bool {
		return slices.ContainsFunc(h.summaries(), func(p slacktest.ResponsePost) bool { return strings.Contains(p.Text, want) })
	})
}

func TestDigestPostedOnceByThreeReplicasAndARestart(t *testing.T) {
	t.Parallel()
	h, clock, cfg := digestHarness(t)
	h.StartBot(cfg)
	h.StartBot(cfg)
	leaving := h.StartBot(cfg)
	h.subscribe()
	h.visitorsCommand("digest status")
	h.waitPrivate("This channel gets the weekly docs visitors digest, Mondays at 09:00 UTC; the next one comes Mon Nov 10 at 09:00 UTC")

	// A replica stops just before the hour and another starts after it.
	leaving.Stop()
	clock.Advance(2*time.Minute + 30*time.Second)
	h.StartBot(cfg)
	h.WaitFor("the digest", func() bool { return len(h.digests()) > 0 })
	posted := h.digests()[0]
	text := bottest.Rendered(posted)
	bottest.WantContains(t, "digest", text, "Nov 3 – Nov 9, 2025", "compared with Oct 27 – Nov 2, 2025", "Rose most", "weekly docs visitors digest")
	f := h.waitFiles(1)[0]
	checkChart(t, f)
	if f.ThreadTS != posted.TS {
		t.Errorf("the digest's chart is in thread %q, want the digest's %s", f.ThreadTS, posted.TS)
	}
	// Every running replica sees the posting done, on later ticks too.
	h.WaitLogged("digest posted already", 3)
	clock.Advance(time.Hour)
	h.WaitLogged("digest posted already", 9)
	h.StopAll()
	if n := len(h.digests()); n != 1 {
		t.Errorf("%d digests posted, want 1", n)
	}
}

func TestDigestTakenOverAfterAPostFindsIt(t *testing.T) {
	t.Parallel()
	h, clock, cfg := subscribedDigest(t)

	// A replica claimed the posting, posted it and died before recording
	// the post: its lease ends, and the next claim must find the post.
	st := h.OpenStore()
	run := store.DigestRun{Team: "T0TEST", Channel: general, Period: "2025-W46"}
	if _, err := st.Digests().ClaimDigest(context.Background(), run, 50*time.Millisecond, 8*24*time.Hour); err != nil {
		t.Fatalf("claim: %v", err)
	}
	sc := h.BotClient()
	_, earlier, err := sc.PostMessage(general, slack.MsgOptionText("the digest of an earlier attempt", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: visitors.DigestEvent, EventPayload: map[string]any{"period": "2025-W46"}}))
	if err != nil {
		t.Fatalf("posting the earlier digest: %v", err)
	}

	clock.Advance(5 * time.Minute)
	h.StartBot(cfg)
	h.WaitLogged("digest was posted by an earlier attempt", 1)
	h.WaitLogged("digest posted already", 2)
	h.StopAll()
	ds := h.digests()
	if len(ds) != 1 || ds[0].TS != earlier {
		t.Errorf("%d digests, want only the earlier attempt's", len(ds))
	}
	if _, err := st.Digests().ClaimDigest(context.Background(), run, time.Minute, 8*24*time.Hour); !errors.Is(err, store.ErrDigestPosted) {
		t.Errorf("claim after the takeover = %v, want ErrDigestPosted: the run marked posted", err)
	}
}

func TestDigestOffAndStatus(t *testing.T) {
	t.Parallel()
	h, clock, cfg := digestHarness(t)
	h.StartBot(cfg)
	h.visitorsCommand("digest status")
	h.waitPrivate("This channel has no docs visitors digest")
	h.visitorsCommand("digest off")
	h.waitPrivate("nothing to turn off")
	h.subscribe()
	// Audited with the Done of the command's work, which may come after its
	// confirmation is seen.
	if changes, err := h.waitDigestChanges(1); err != nil || !slices.Equal(changes, []string{"digest weekly"}) {
		t.Errorf("audited settings changes once the subscription was done: %q (%v), want it", changes, err)
	}
	h.visitorsCommand("digest off")
	h.waitInChannel("turned off the docs visitors digest")
	// Ticks past the hour post nothing: no subscription is left.
	clock.Advance(5 * time.Minute)
	h.moreTicks(3)
	if n := h.settledRequests(); n != 0 {
		t.Errorf("%d API requests without a digest", n)
	}
	if n := len(h.digests()); n != 0 {
		t.Errorf("%d digests posted after the digest was turned off", n)
	}
	// The two changes of the subscription are in the audit trail, in their
	// order: the off was sent once the subscription was audited. The status
	// and the off with nothing to turn off changed nothing.
	changes, err := h.waitDigestChanges(2)
	if err != nil || !slices.Equal(changes, []string{"digest weekly", "digest off"}) {
		t.Errorf("audited settings changes %q (%v), want the subscription and its end", changes, err)
	}
}

// waitDigestChanges waits until #general's digest subscription has n
// audited changes (or reading them fails) and returns them, oldest first. A
// command's record is written with the Done of its work
// (bot.AuditTrail.Work), which may come after its reply is seen.
func (h *harness) waitDigestChanges(n int) (changes []string, err error) {
	h.T.Helper()
	log := h.OpenStore().AuditLog(store.AuditOptions{})
	h.WaitFor(fmt.Sprintf("%d audited changes of the digest", n), func() bool {
		changes, err = digestChanges(log)
		return err != nil || len(changes) >= n
	})
	return changes, err
}

// digestChanges are the audited changes of #general's digest subscription,
// oldest first.
func digestChanges(log *store.AuditLog) ([]string, error) {
	var changes []string
	err := log.Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
		if r.Action == store.AuditSettings && r.Channel == bottest.General && r.Work != "" {
			changes = append(changes, r.Detail)
		}
		return nil
	})
	return changes, err
}
