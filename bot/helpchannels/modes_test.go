package helpchannels_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/helpchannels"
)

// TestHelpModesWhoSetsThem: anyone sees a channel's mode with /docs-ask
// here; only an editor sets it (a viewer is refused privately, audited);
// DOCSBOT_ANSWER_CHANNELS gives a channel's mode, which the command
// overrides; a set mode is audited and listed on an editor's Home.
func TestHelpModesWhoSetsThem(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice},
		Config: app.Config{Help: helpchannels.Config{Channels: map[string]string{help: bot.ModePrivate}}}})

	h.Command(bob, general, "/docs-ask", "here")
	h.WaitFor("bob told general's mode", func() bool { return h.told(bob, "the mode is *mention*") })
	h.Command(bob, help, "/docs-ask", "here")
	h.WaitFor("bob told #help's mode from the settings", func() bool {
		return h.told(bob, "the mode is *private*") && h.told(bob, "DOCSBOT_ANSWER_CHANNELS")
	})

	h.Command(bob, help, "/docs-ask", "here off")
	h.WaitFor("bob refused", func() bool { return h.told(bob, "Only editors") })
	if r := h.audited("refusal"); len(r) != 1 || r[0].User != bob {
		t.Errorf("the refusal audited: %+v, want one of bob's", r)
	}

	ack := h.Command(bob, help, "/docs-ask", "here sometimes")
	bottest.WantContains(t, "an unknown mode's answer", string(ack.Payload), "here auto", "here private", "here mention", "here off")

	h.Command(alice, help, "/docs-ask", "here auto")
	h.WaitFor("alice told the mode is set", func() bool { return h.told(alice, "Done: in this channel, docsbot answers every question") })
	recs := h.audited(helpchannels.AuditMode)
	if len(recs) != 1 || recs[0].User != alice || recs[0].Channel != help || recs[0].Detail != bot.ModeAuto {
		t.Errorf("the mode set audited: %+v, want alice's auto in #help", recs)
	}
	h.Command(bob, help, "/docs-ask", "here")
	h.WaitFor("bob told the command's mode over the settings'", func() bool {
		return h.told(bob, "the mode is *auto*") && h.told(bob, "<@"+alice+"> set it")
	})
}

// told reports whether user was told privately something containing text
// (an ephemeral or a response to a command).
func (h *harness) told(user, text string) bool {
	if len(h.Privates(user, text)) > 0 {
		return true
	}
	for _, p := range h.Slack.ResponsePosts("") {
		if p.User == user && (contains(p.Text, text) || contains(string(p.Blocks), text)) {
			return true
		}
	}
	return false
}
