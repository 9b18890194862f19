package helpchannels_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/slacktest"
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
	if h.told(bob, "questions get 👀") {
		t.Errorf("a channel that answered nothing yet is said to be throttled")
	}

	home := h.openHome(alice, "Help channels")
	bottest.WantContains(t, "an editor's Home", home, help+">: *auto* (set by")
	if home := h.openHome(bob, "Your recent docs agent jobs"); contains(home, "Help channels") {
		t.Errorf("a viewer's Home lists the help channels: %s", home)
	}
}

// TestParseChannels: DOCSBOT_ANSWER_CHANNELS' pairs, and what it refuses.
func TestParseChannels(t *testing.T) {
	t.Parallel()
	got, err := helpchannels.ParseChannels(" C0HELP:auto, G0PRIV:Private,C0QUIET:off ")
	if err != nil || len(got) != 3 || got["C0HELP"] != "auto" || got["G0PRIV"] != "private" || got["C0QUIET"] != "off" {
		t.Errorf("ParseChannels = %v, %v", got, err)
	}
	for _, bad := range []string{"C0HELP", "C0HELP:loud", "#help:auto", "U0ALICE:auto", "C0HELP:auto,C0HELP:off"} {
		if _, err := helpchannels.ParseChannels(bad); err == nil {
			t.Errorf("ParseChannels(%q) took it", bad)
		}
	}
}

// openHome opens user's Home and waits until it shows want; it returns
// the Home's text.
func (h *harness) openHome(user, want string) string {
	h.T.Helper()
	before := -1
	if v, ok := h.Slack.HomeView(user); ok {
		before = v.Updates
	}
	if _, err := h.Slack.OpenHome(h.T.Context(), user); err != nil {
		h.T.Fatalf("open Home: %v", err)
	}
	text := ""
	h.WaitFor("the Home of "+user+" showing "+want, func() bool {
		v, ok := h.Slack.HomeView(user)
		if ok {
			text = bottest.Rendered(slacktest.Message{Blocks: v.Blocks})
		}
		return ok && v.Updates > before && contains(text, want)
	})
	return text
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
