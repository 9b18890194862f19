package settings_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/settings"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestExpertsSetInSlackAreCalled: the experts an admin names in the
// People modal are the ones Ask an expert calls under a question the docs
// do not answer, instead of the environment's (DOCSBOT_EXPERTS).
func TestExpertsSetInSlackAreCalled(t *testing.T) {
	t.Parallel()
	const (
		carol      = "U0CAROL"     // the expert named in Slack
		envExperts = "S0ENVEXPERT" // DOCSBOT_EXPERTS
	)
	h := bottest.New(t, redisURL)
	h.Slack.MakeAdmin(alice, false)
	h.Slack.AddUser(carol, "carol")
	h.Slack.AddChannel(slacktest.Channel{ID: help, Name: "help", BotMember: true})
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Help: helpchannels.Config{
		Channels: map[string]string{help: bot.ModeAuto}, Experts: roles.Editors{Groups: []string{envExperts}}}}})

	home := h.OpenHome(alice, "*Experts*: <!subteam^"+envExperts+"> · from the environment (`DOCSBOT_EXPERTS`)")
	if errs := submitted(t, h, openModal(t, h, alice, home, settings.ActionPeople, settings.ViewPeople), values("experts", carol)); errs != nil {
		t.Fatalf("the People modal answered %v", errs)
	}
	bottest.WantContains(t, "the confirmation", confirmed(h, alice, "D0ALICE", 1), "*Experts*: <@"+carol+">")

	q, _ := h.Reply(bob, help, "", "Why is the coffee machine always broken?")
	note := h.WaitButtons(bob, bot.ActionAskExpert)
	h.Act(slacktest.Action{UserID: bob, ChannelID: help, MessageTS: note.TS, ActionID: bot.ActionAskExpert})
	var call slacktest.Message
	h.WaitFor("the experts called", func() bool {
		for _, m := range h.Slack.Thread(help, q) {
			if m.BotID != "" && strings.Contains(m.Text, "asked a question the docs do not answer") {
				call = m
				return true
			}
		}
		return false
	})
	bottest.WantContains(t, "the call", call.Text, "<@"+carol+">", "<@"+bob+">")
	if strings.Contains(call.Text, envExperts) {
		t.Errorf("the call names the environment's experts too: %q", call.Text)
	}
}
