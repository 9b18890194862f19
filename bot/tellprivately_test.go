package bot_test

import (
	"cmp"
	"context"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestTellPrivatelyFallsBack has Slack refuse the response_url, then
// chat.postEphemeral, then the direct message: the person is told by the
// first way Slack takes (in the thread, with the buttons; in a direct
// message, with DMText when set and without buttons then), and an error
// comes back only when none did.
func TestTellPrivatelyFallsBack(t *testing.T) {
	t.Parallel()
	const (
		text   = "Which docs project is this for?"
		dmText = "About your command: " + text
		action = "choose_project"
		thread = "1700000000.000100"
	)
	blocks := []slack.Block{slack.NewActionBlock("choose", slack.NewButtonBlockElement(action, "api", slack.NewTextBlockObject(slack.PlainTextType, "api", false, false)))}
	for _, tc := range []struct {
		name   string
		fail   []string // methods Slack refuses once
		dmText string
		// where: "ephemeral", "dm" or "" (nowhere: an error).
		where      string
		want       string
		wantBlocks bool
	}{
		{name: "in the thread", where: "ephemeral", want: text, wantBlocks: true},
		{name: "in a direct message with DMText", fail: []string{"chat.postEphemeral"}, dmText: dmText, where: "dm", want: dmText},
		{name: "in a direct message with the blocks", fail: []string{"chat.postEphemeral"}, where: "dm", want: text, wantBlocks: true},
		{name: "nowhere", fail: []string{"chat.postEphemeral", "chat.postMessage"}, dmText: dmText},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := bottest.New(t, redisURL)
			for _, method := range tc.fail {
				h.Slack.FailNext(method, "channel_not_found", 1)
			}
			b := h.StartBot(bottest.Config{}).Bot
			gone := strings.TrimSuffix(h.Slack.APIURL, "api/") + "response/gone" // a response_url Slack refuses
			err := b.TellPrivately(context.Background(), bot.Private{User: alice, Channel: general, ThreadTS: thread,
				ResponseURL: gone, Text: text, Blocks: blocks, DMText: tc.dmText})
			if posts := h.Slack.ResponsePosts(""); len(posts) != 1 || posts[0].Error == "" {
				t.Errorf("response_url posts %+v, want the refused one alone", posts)
			}
			dm, dmErr := h.Slack.OpenDM(alice)
			if dmErr != nil {
				t.Fatal(dmErr)
			}
			ephemerals, dms := h.Slack.Ephemerals(alice), h.Roots(dm)
			var got []slacktest.Message
			switch tc.where {
			case "":
				if err == nil {
					t.Error("TellPrivately = nil, want an error when nothing reached the person")
				}
			case "ephemeral":
				got = ephemerals
			case "dm":
				got = dms
			}
			if tc.where != "" && err != nil {
				t.Errorf("TellPrivately = %v, want nil", err)
			}
			if n := len(ephemerals) + len(dms); n != len(got) {
				t.Errorf("%d ephemerals and %d direct messages, want one %s alone", len(ephemerals), len(dms), cmp.Or(tc.where, "nowhere"))
			}
			if tc.where == "" {
				return
			}
			if len(got) != 1 {
				t.Fatalf("%s messages %+v, want one", tc.where, got)
			}
			m := got[0]
			if m.Text != tc.want {
				t.Errorf("text %q, want %q", m.Text, tc.want)
			}
			if has := strings.Contains(string(m.Blocks), action); has != tc.wantBlocks {
				t.Errorf("buttons shown: %v, want %v:\n%s", has, tc.wantBlocks, m.Blocks)
			}
			if tc.where == "ephemeral" && m.ThreadTS != thread {
				t.Errorf("ephemeral in thread %q, want %q", m.ThreadTS, thread)
			}
		})
	}
}
