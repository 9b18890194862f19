package health_test

import (
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// The help channel and the experts of resolvedWorld.
const (
	help    = "C0HELP"
	carol   = "U0CAROL"
	experts = "S0EXPERTS"
)

// resolvedWorld is a world where #help answers in auto mode and carol's
// group are its experts, with a guest (sightWorld); its bots, API and help
// channels on clock when not nil.
func resolvedWorld(t *testing.T, clock *slacktest.ManualClock) (*bottest.Harness, bottest.Config) {
	t.Helper()
	var apiOpts []docsapitest.Option
	var now func() time.Time
	if clock != nil {
		apiOpts, now = append(apiOpts, docsapitest.WithClock(clock.Now)), clock.Now
	}
	h := bottest.New(t, redisURL, apiOpts...)
	sightWorld(h)
	h.Slack.AddChannel(slacktest.Channel{ID: help, Name: "help", BotMember: true})
	h.Slack.AddUser(carol, "carol")
	h.Slack.AddUserGroup(experts, carol)
	return h, bottest.Config{Now: now, Answers: true, Config: app.Config{
		Health: health.Config{DigestTick: 20 * time.Millisecond},
		Help:   helpchannels.Config{Channels: map[string]string{help: bot.ModeAuto}, Experts: roles.Editors{Groups: []string{experts}}}}}
}

// resolveInHelp has bob ask #help a question the docs do not answer, call
// the experts and mark it resolved, as the help channels let him.
func resolveInHelp(h *bottest.Harness) {
	h.T.Helper()
	q, _ := h.Reply(bob, help, "", "Why is the office coffee machine always broken?")
	note := h.WaitButtons(bob, bot.ActionAskExpert)
	h.Act(slacktest.Action{UserID: bob, ChannelID: help, MessageTS: note.TS, ActionID: bot.ActionAskExpert})
	botSaid := func(text string) (slacktest.Message, bool) {
		for _, m := range h.Slack.Thread(help, q) {
			if m.BotID != "" && strings.Contains(m.Text, text) {
				return m, true
			}
		}
		return slacktest.Message{}, false
	}
	var call slacktest.Message
	h.WaitFor("the experts called", func() bool {
		var ok bool
		call, ok = botSaid("asked a question the docs do not answer")
		return ok
	})
	h.Act(slacktest.Action{UserID: bob, ChannelID: help, MessageTS: call.TS, ActionID: bot.ActionMarkResolved})
	h.WaitFor("the question resolved", func() bool { _, ok := botSaid("marked this question resolved"); return ok })
}

// TestHealthOnTheHomeCountsThreadsResolvedByExperts: a thread of a help
// channel resolved after its experts were called is counted, as the
// questions view counts it, in the Home's cached docs health, read at each
// Home (the summary was cached before it), for a member and a guest alike:
// a count, not readers' words.
func TestHealthOnTheHomeCountsThreadsResolvedByExperts(t *testing.T) {
	t.Parallel()
	h, cfg := resolvedWorld(t, nil)
	h.StartBot(cfg)
	home := func(user, want string) string {
		if _, err := h.Slack.OpenHome(t.Context(), user); err != nil {
			t.Fatal(err)
		}
		var text string
		h.WaitFor("the Home of "+user+" saying "+want, func() bool {
			v, _ := h.Slack.HomeView(user)
			text = string(v.Blocks)
			return strings.Contains(text, want)
		})
		return text
	}
	h.Command(alice, general, health.Command, "")
	posted(h, 1)
	home(alice, "questions the assistant could not answer · 0 threads in the help channels resolved by experts")

	resolveInHelp(h)
	home(alice, "questions the assistant could not answer · 1 thread in the help channels resolved by an expert")
	guestHome := home(guest, "questions the assistant could not answer · 1 thread in the help channels resolved by an expert")
	wantNoWords(t, "the guest's Home", guestHome)
	bottest.WantContains(t, "the guest's Home", guestHome, "shown to members of the organisation only")
}

// TestHealthDigestCountsThreadsResolvedByExperts: the weekly digest counts
// the help channels' threads resolved by experts in its week, as the
// questions view does.
func TestHealthDigestCountsThreadsResolvedByExperts(t *testing.T) {
	t.Parallel()
	// A Sunday: the digest due Monday at 09:00 is of Nov 3 – Nov 9.
	clock := slacktest.NewManualClock(time.Date(2025, 11, 9, 12, 0, 0, 0, time.UTC))
	h, cfg := resolvedWorld(t, clock)
	h.StartBot(cfg)
	h.Command(alice, general, health.Command, "digest weekly")
	waitResponse(h, alice, "in_channel", "subscribed this channel to the weekly docs health digest")
	resolveInHelp(h)

	clock.Advance(21*time.Hour + time.Minute)
	h.WaitFor("the digest", func() bool { return len(digests(h)) > 0 })
	bottest.WantContains(t, "the digest", bottest.Rendered(digests(h)[0]), "Weekly docs health digest", "Nov 3 – Nov 9, 2025",
		"✅ 1 thread in the help channels was resolved by an expert.")
}
