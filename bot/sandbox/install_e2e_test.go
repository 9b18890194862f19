package sandbox

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestSandboxOtherCoAddsDocsbot: in the sandbox, Other Co has not added
// docsbot: olive's command in #other-general is told so. The link of the
// channel's welcome runs the real install (signed in to the fake Slack as
// olive, Slack's consent screen, docsbot's redirect), after which docsbot
// welcomes her and answers her question there.
func TestSandboxOtherCoAddsDocsbot(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	olive := slackweb.Client{URL: sb.url, As: otherUser}
	send := func(text string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), sandboxWait)
		defer cancel()
		if out, status, err := olive.Send(ctx, slackweb.SendRequest{Channel: otherChannel, Text: text}); err != nil || !out.OK {
			t.Fatalf("olive's %q: %d %+v %v", text, status, out, err)
		}
	}
	st := stateAs(t, sb, otherUser)
	if c := channel(st, otherChannel); c.Name != "other-general" {
		t.Fatalf("olive's channels: %+v", st.Channels)
	}
	if !strings.Contains(st.Welcomes[otherChannel], sb.AddToSlackURL()) {
		t.Fatalf("#other-general's welcome does not link to the install: %q", st.Welcomes[otherChannel])
	}
	const question = "How do I rotate an API key?"
	send(ask.Command + " " + question)
	waitState(t, sb, otherUser, "told docsbot is not installed", func(st slackweb.State) bool {
		for _, m := range st.Ephemerals {
			if strings.Contains(m.Text, "not installed in this workspace") {
				return true
			}
		}
		return false
	})

	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Jar: jar}).Get(sb.AddToSlackURL())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "docsbot was added to Other Co") {
		t.Fatalf("the install ended on %d: %s", resp.StatusCode, page)
	}
	waitState(t, sb, otherUser, "docsbot's welcome in olive's DM", func(st slackweb.State) bool {
		for _, c := range st.Channels {
			for _, m := range c.Messages {
				if c.IM != "" && strings.Contains(m.Text, "docsbot is now in *Other Co*") {
					return true
				}
			}
		}
		return false
	})
	send(ask.Command + " " + question)
	waitState(t, sb, otherUser, "the answer in #other-general", func(st slackweb.State) bool {
		for _, m := range channel(st, otherChannel).Messages {
			for _, r := range m.Replies {
				if r.User == st.Bot && strings.Contains(r.Text, "API key") {
					return true
				}
			}
		}
		return false
	})
}

// waitState waits until person's state satisfies ok.
func waitState(t *testing.T, sb *Sandbox, person, what string, ok func(slackweb.State) bool) {
	t.Helper()
	redistest.Until(t, what, func() bool { return ok(stateAs(t, sb, person)) })
}
