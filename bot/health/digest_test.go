package health_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// beforeDigest is two minutes before a Monday 09:00 UTC, when the default
// schedule's weekly digest is due.
var beforeDigest = time.Date(2025, 11, 10, 8, 58, 0, 0, time.UTC)

// digestWorld is a world whose bots and API share a clock the test moves.
func digestWorld(t *testing.T) (*bottest.Harness, *slacktest.ManualClock, bottest.Config) {
	t.Helper()
	clock := slacktest.NewManualClock(beforeDigest)
	h := bottest.New(t, redisURL, docsapitest.WithClock(clock.Now))
	return h, clock, bottest.Config{Now: clock.Now, Config: app.Config{Health: health.Config{DigestTick: 20 * time.Millisecond}}}
}

// waitResponse waits for a response_url post to user of type kind
// ("in_channel", "ephemeral") containing text.
func waitResponse(h *bottest.Harness, user, kind, text string) {
	h.T.Helper()
	h.WaitFor(kind+" "+text, func() bool {
		return slices.ContainsFunc(h.Slack.ResponsePosts(""), func(p slacktest.ResponsePost) bool {
			return p.User == user && p.ResponseType == kind && strings.Contains(p.Text, text)
		})
	})
}

// digests returns the bot's health digest posts in #general.
func digests(h *bottest.Harness) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.Roots(general) {
		if strings.Contains(string(m.Metadata), health.DigestEvent) {
			out = append(out, m)
		}
	}
	return out
}

// TestHealthDigestPostedOnceByThreeReplicas: a channel subscribed to the
// weekly docs health digest gets the week's summary once, with its Fix with
// agent buttons, though three replicas look for it on every tick and one
// stops and another starts around the hour.
func TestHealthDigestPostedOnceByThreeReplicas(t *testing.T) {
	t.Parallel()
	h, clock, cfg := digestWorld(t)
	h.StartBot(cfg)
	h.StartBot(cfg)
	leaving := h.StartBot(cfg)
	h.Command(alice, general, health.Command, "digest weekly")
	waitResponse(h, alice, "in_channel", "subscribed this channel to the weekly docs health digest: Mondays at 09:00 UTC. The first one comes Mon Nov 10 at 09:00 UTC")
	h.Command(bob, general, health.Command, "digest status")
	waitResponse(h, bob, "ephemeral", "This channel gets the weekly docs health digest, Mondays at 09:00 UTC; the next one comes Mon Nov 10 at 09:00 UTC")
	if n := requests(h.API); n != 0 {
		t.Errorf("%d analytics requests before the digest was due", n)
	}

	leaving.Stop()
	clock.Advance(2*time.Minute + 30*time.Second)
	h.StartBot(cfg)
	h.WaitFor("the digest", func() bool { return len(digests(h)) > 0 })
	posted := digests(h)[0]
	bottest.WantContains(t, "the digest", bottest.Rendered(posted), "Weekly docs health digest", "Nov 3 – Nov 9, 2025",
		"Searches that found nothing clicked", "_found nothing clicked_", "Pages readers voted down", "digest off")
	if !strings.Contains(string(posted.Blocks), jobdraft.ActionFixDocs) {
		t.Errorf("the digest has no Fix with agent button: %s", posted.Blocks)
	}
	// Every running replica sees the posting done, on later ticks too.
	h.WaitLogged("digest posted already", 3)
	clock.Advance(time.Hour)
	h.WaitLogged("digest posted already", 9)
	h.StopAll()
	if n := len(digests(h)); n != 1 {
		t.Errorf("%d health digests posted, want 1", n)
	}
	if n := requests(h.API); n == 0 || n > 5 {
		t.Errorf("%d analytics requests for one digest, want one summary's (1 to 5)", n)
	}
}

// TestHealthDigestOff: `digest off` ends the subscription, said in the
// channel; with none, it says there was nothing to turn off; the changes are
// audited, and no digest comes after.
func TestHealthDigestOff(t *testing.T) {
	t.Parallel()
	h, clock, cfg := digestWorld(t)
	h.StartBot(cfg)
	h.Command(alice, general, health.Command, "digest off")
	waitResponse(h, alice, "ephemeral", "This channel has no docs health digest, so there was nothing to turn off")
	h.Command(alice, general, health.Command, "digest weekly")
	waitResponse(h, alice, "in_channel", "subscribed this channel to the weekly docs health digest")
	h.Command(alice, general, health.Command, "digest off")
	waitResponse(h, alice, "in_channel", "turned off the docs health digest in this channel")
	h.Command(alice, general, health.Command, "digest status")
	waitResponse(h, alice, "ephemeral", "This channel has no docs health digest. `/docs-health digest weekly` starts one")

	clock.Advance(5 * time.Minute)
	n := strings.Count(h.Logs.String(), `msg="health digests looked at"`)
	h.WaitLogged("health digests looked at", n+3)
	h.StopAll()
	if n := len(digests(h)); n != 0 {
		t.Errorf("%d health digests posted after it was turned off", n)
	}
	var changes []string
	err := h.OpenStore().AuditLog(store.AuditOptions{}).Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
		if r.Action == store.AuditSettings && r.Channel == general {
			changes = append(changes, r.Detail)
		}
		return nil
	})
	if err != nil || !slices.Equal(changes, []string{"health digest weekly", "health digest off"}) {
		t.Errorf("audited settings changes %q (%v), want the subscription and its end", changes, err)
	}
}

// TestHealthDigestHelp: `digest` alone or with another word answers its
// help in the ack, at no cost.
func TestHealthDigestHelp(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.StartBot(bottest.Config{})
	for _, text := range []string{"digest", "digest daily", "digest weekly now"} {
		ack := h.Command(alice, general, health.Command, text)
		bottest.WantContains(t, text, string(ack.Payload), "Docs health digest", "digest weekly", "digest off", "digest status")
	}
}
