package helpchannels_test

import (
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// callExperts has user ask question in channel and press Ask an expert
// under the note that the docs do not cover it; it returns the question's
// ts.
func (h *harness) callExperts(user, channel, question string) string {
	h.T.Helper()
	q := h.post(user, channel, question)
	var note slacktest.Message
	h.WaitFor("the note under "+question, func() bool {
		for _, m := range h.Slack.Ephemerals(user) {
			if m.ThreadTS == q && strings.Contains(string(m.Blocks), bot.ActionAskExpert) {
				note = m
				return true
			}
		}
		return false
	})
	h.Act(slacktest.Action{UserID: user, ChannelID: channel, MessageTS: note.TS, ActionID: bot.ActionAskExpert})
	return q
}

// calls are the experts' calls in the thread under ts of channel.
func (h *harness) calls(channel, ts string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.botReplies(channel, ts) {
		if strings.Contains(m.Text, "asked a question the docs do not answer") {
			out = append(out, m)
		}
	}
	return out
}

// TestHelpExpertsCalledByMembersWithinTheHour: a guest may not call the
// experts (told privately what they can do instead); a member calls them
// within their calls of the hour (1 here), and the channel within its own
// (2 here), each refusal private and saying when to call again.
func TestHelpExpertsCalledByMembersWithinTheHour(t *testing.T) {
	t.Parallel()
	const gus, dan = "U0GUS", "U0DAN"
	c := &clock{now: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}
	h, cfg := expertsWorld(t, c)
	h.Slack.AddGuest(gus, "gus", false)
	h.Slack.AddUser(dan, "dan")
	cfg.Help.ExpertCallsPerUser = 1
	cfg.Help.ExpertCallsPerChannel = 2
	h.StartBot(cfg)

	byGuest := h.callExperts(gus, help, "Why is the office coffee machine always broken?")
	h.WaitFor("gus told calling the experts is for members", func() bool {
		return h.told(gus, "Calling the experts is for members of the organisation") && h.told(gus, "`/docs-ask`")
	})
	first := h.callExperts(bob, help, "Where do we park bicycles on Fridays?")
	h.WaitFor("the experts called by bob", func() bool { return len(h.calls(help, first)) == 1 })
	again := h.callExperts(bob, help, "Who ordered the lunch for the offsite?")
	h.WaitFor("bob told his calls of the hour are spent", func() bool { return h.told(bob, "You called the experts once in the last hour") })
	byAlice := h.callExperts(alice, help, "Why is the vending machine out of snacks again?")
	h.WaitFor("the experts called by alice", func() bool { return len(h.calls(help, byAlice)) == 1 })
	byDan := h.callExperts(dan, help, "Why is the elevator so slow on Mondays?")
	h.WaitFor("dan told the channel's calls of the hour are spent", func() bool {
		return h.told(dan, "The experts were called to this channel 2 times in the last hour") && h.told(dan, "You can call them again in")
	})
	h.Settle()
	for who, ts := range map[string]string{"gus": byGuest, "bob's second": again, "dan": byDan} {
		if n := len(h.calls(help, ts)); n != 0 {
			t.Errorf("the experts were called to %s question %d times, want none", who, n)
		}
	}
}

// TestHelpExpertsInASharedChannel: in a channel shared with another
// organisation the experts' call and its reminder mention no user group
// (nor anyone): the experts are told in direct messages linking the
// thread; a person of the other organisation may not call them.
func TestHelpExpertsInASharedChannel(t *testing.T) {
	t.Parallel()
	const partner, pat = "C0PARTNER", "U0PAT"
	c := &clock{now: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}
	h, cfg := expertsWorld(t, c)
	h.Slack.AddExternalUser(pat, "pat", "T0OTHER")
	h.Slack.AddChannel(slacktest.Channel{ID: partner, Name: "partner", BotMember: true, Shared: true, Members: []string{alice, bob, carol, pat}})
	cfg.Help.Channels[partner] = bot.ModeAuto
	h.StartBot(cfg)

	byPartner := h.callExperts(pat, partner, "Why is the office coffee machine always broken?")
	h.WaitFor("pat told calling the experts is for members", func() bool { return h.told(pat, "Calling the experts is for members of the organisation") })
	q := h.callExperts(bob, partner, "Where do we park bicycles on Fridays?")
	h.WaitFor("the experts called", func() bool { return len(h.calls(partner, q)) == 1 })
	dm := "D" + strings.TrimPrefix(carol, "U")
	h.WaitFor("carol told directly", func() bool { return len(h.Slack.Messages(dm)) == 1 })
	call := h.calls(partner, q)[0]
	if strings.Contains(call.Text+string(call.Blocks), "<!subteam^") || strings.Contains(call.Text, "<@"+carol+">") {
		t.Errorf("the call in a shared channel mentions the experts: %q", call.Text)
	}
	told := h.Slack.Messages(dm)[0]
	bottest.WantContains(t, "carol's message", told.Text, "<@"+bob+"> asked a question the docs do not answer", "<#"+partner+">",
		"park bicycles on Fridays?", "/archives/"+partner+"/p")

	c.Add(helpchannels.DefaultExpertReminder + time.Minute)
	h.WaitFor("the reminder", func() bool {
		return len(h.threadWith2(partner, q, "A reminder")) == 1 && len(h.Slack.Messages(dm)) == 2
	})
	if r := h.threadWith2(partner, q, "A reminder")[0]; strings.Contains(r.Text, "<!subteam^") || strings.Contains(r.Text, "<@"+carol+">") {
		t.Errorf("the reminder in a shared channel mentions the experts: %q", r.Text)
	}
	h.Settle()
	if n := len(h.calls(partner, byPartner)); n != 0 {
		t.Errorf("the experts were called to pat's question %d times, want none", n)
	}
}

// threadWith2 are the bot's messages under ts in channel containing text.
func (h *harness) threadWith2(channel, ts, text string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.botReplies(channel, ts) {
		if strings.Contains(m.Text, text) {
			out = append(out, m)
		}
	}
	return out
}

// TestHelpExpertsInASharedChannelNoneToldDirectly: in a channel shared with
// another organisation, a call whose experts docsbot cannot message
// directly (Slack refuses every one) stays in the thread, with Mark
// resolved, posted once, and the person who called is told privately that
// nobody was messaged.
func TestHelpExpertsInASharedChannelNoneToldDirectly(t *testing.T) {
	t.Parallel()
	const partner, ghost = "C0PARTNER", "U0GHOST" // no such person: chat.postMessage answers channel_not_found
	c := &clock{now: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}
	h, cfg := expertsWorld(t, c)
	h.Slack.AddChannel(slacktest.Channel{ID: partner, Name: "partner", BotMember: true, Shared: true, Members: []string{alice, bob}})
	cfg.Help.Channels[partner] = bot.ModeAuto
	cfg.Help.Experts = roles.Editors{Users: []string{ghost}}
	h.StartBot(cfg)

	q := h.callExperts(bob, partner, "Where do we park bicycles on Fridays?")
	h.WaitFor("bob told nobody was messaged", func() bool { return h.told(bob, "could not message any of the experts directly") })
	h.Settle()
	calls := h.calls(partner, q)
	if len(calls) != 1 {
		t.Fatalf("%d calls in the thread, want the one posted", len(calls))
	}
	if _, ok := bottest.ButtonValue(calls[0], bot.ActionMarkResolved); !ok {
		t.Errorf("the call has no Mark resolved: %s", calls[0].Blocks)
	}
	if h.told(bob, "could not call the experts") {
		t.Error("bob was told the experts were not called, though the call shows in the thread")
	}
}
