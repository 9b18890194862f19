package visitors_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
)

// dmsTo returns the bot's messages in its direct message with user.
func (h *harness) dmsTo(user string) []slacktest.Message {
	h.T.Helper()
	dm, err := h.Slack.OpenDM(user)
	if err != nil {
		h.T.Fatal(err)
	}
	return h.Roots(dm)
}

// moreTicks waits for n more looks at the subscriptions.
func (h *harness) moreTicks(n int) {
	h.T.Helper()
	h.WaitLogged("digests looked at", strings.Count(h.Logs.String(), `msg="digests looked at"`)+n)
}

func TestDigestInAChannelWithoutTheBotTellsTheSubscriberAndStops(t *testing.T) {
	t.Parallel()
	h, clock, _ := subscribedDigest(t)
	// The bot is removed from the channel before the digest is due.
	h.Slack.AddChannel(slacktest.Channel{ID: general, Name: "general", BotMember: false})

	clock.Advance(2*time.Minute + 30*time.Second)
	h.WaitFor("a direct message to the subscriber", func() bool { return len(h.dmsTo(alice)) > 0 })
	text := h.dmsTo(alice)[0].Text
	bottest.WantContains(t, "the subscriber's DM", text, "weekly docs visitors digest in <#"+general+">", "not a member", "turned that digest off", "/invite @docsbot", "/docs-visitors digest weekly")
	if _, err := h.OpenStore().Digests().DigestSub(context.Background(), "T0TEST", general, ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("subscription after Slack refused the channel: %v, want it stopped", err)
	}
	// The next period posts nothing and tells nobody again.
	clock.Advance(7 * 24 * time.Hour)
	h.moreTicks(3)
	h.StopAll()
	if n := len(h.dmsTo(alice)); n != 1 {
		t.Errorf("%d DMs to the subscriber, want 1", n)
	}
	if n := len(h.digests()); n != 0 {
		t.Errorf("%d digests posted in a channel without the bot", n)
	}
}

func TestDigestRefusedForItsContentIsToldOncePerKind(t *testing.T) {
	t.Parallel()
	h, clock, _ := subscribedDigest(t)
	sub, err := h.OpenStore().Digests().DigestSub(context.Background(), "T0TEST", general, "")
	if err != nil {
		t.Fatal(err)
	}

	// Two periods refused the same way: one DM; the subscription stays.
	h.Slack.FailNext("chat.postMessage", "invalid_blocks", 1)
	clock.Advance(2*time.Minute + 30*time.Second)
	h.WaitFor("a direct message to the subscriber", func() bool { return len(h.dmsTo(alice)) > 0 })
	h.Slack.FailNext("chat.postMessage", "invalid_blocks", 1)
	clock.Advance(7 * 24 * time.Hour)
	h.WaitLogged("Slack refused the digest; skipping this period", 2)
	h.moreTicks(3)
	h.StopAll()
	dms := h.dmsTo(alice)
	if len(dms) != 1 || !strings.Contains(dms[0].Text, "invalid_blocks") || !strings.Contains(dms[0].Text, "/docs-visitors digest off") {
		t.Errorf("DMs to the subscriber %+v, want one naming the refusal and how to stop the digest", dms)
	}
	if got, err := h.OpenStore().Digests().DigestSub(context.Background(), "T0TEST", general, ""); err != nil || got.CreatedAt != sub.CreatedAt {
		t.Errorf("subscription after a refused post: %+v, %v; want it kept", got, err)
	}
}

// TestGuestMayNotChangeTheDigest: a guest may neither subscribe a channel to
// the visitors digest nor turn off a member's: told privately, audited, and
// the member's subscription stands; the status is anyone's.
func TestGuestMayNotChangeTheDigest(t *testing.T) {
	t.Parallel()
	const guest = "U0GUEST"
	h, _, cfg := digestHarness(t)
	h.Slack.AddGuest(guest, "Gus Guest", false)
	h.StartBot(cfg)
	h.subscribe()
	for _, text := range []string{"digest daily", "digest off"} {
		h.ask(guest, text)
		h.WaitPrivate(guest, "Only members of the organisation may subscribe a channel to the docs visitors digest or turn it off")
	}
	sub, err := h.OpenStore().Digests().DigestSub(context.Background(), "T0TEST", general, "")
	if err != nil || sub.CreatedBy != alice || sub.Frequency != "weekly" {
		t.Errorf("subscription after the guest's attempts = %+v, %v; want alice's weekly one", sub, err)
	}
	var refused int
	audit := h.OpenStore().AuditLog(store.AuditOptions{})
	h.WaitFor("the refusals' audit records", func() bool {
		refused = 0
		err = audit.Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
			if r.Action == store.AuditRefusal && r.User == guest {
				refused++
			}
			return nil
		})
		return err != nil || refused >= 2
	})
	if err != nil || refused != 2 {
		t.Errorf("%d refusals audited (%v), want 2", refused, err)
	}
}
