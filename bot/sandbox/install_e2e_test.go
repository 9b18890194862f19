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
	"github.com/docsbot/docsbot/bot/settings"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestSandboxOtherCoAddsDocsbot: in the sandbox, Other Co has not added
// docsbot: olive's command in #other-general is told so. The link of the
// channel's welcome runs the real install (signed in to the fake Slack as
// olive, Slack's consent screen, docsbot's redirect), after which docsbot
// welcomes her; its docs not connected yet, she connects Other Co's own
// from the Home's Settings, and her question is answered from them.
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
	// Other Co has no docs yet: olive, who installed docsbot, connects
	// its own from the Home.
	send(ask.Command + " " + question)
	waitState(t, sb, otherUser, "told no docs are connected", func(st slackweb.State) bool {
		for _, m := range st.Ephemerals {
			if strings.Contains(m.Text, "no docs connected in this workspace") {
				return true
			}
		}
		return false
	})
	ctx, cancel := context.WithTimeout(t.Context(), sandboxWait)
	defer cancel()
	if _, _, err := olive.OpenHome(ctx); err != nil {
		t.Fatal(err)
	}
	var home slackweb.State
	waitState(t, sb, otherUser, "olive's Home with Connect docs", func(st slackweb.State) bool {
		home = st
		return st.Home != nil && strings.Contains(string(st.Home.Blocks), settings.ActionConnect)
	})
	if _, _, err := olive.Act(ctx, slackweb.ActionRequest{ViewID: home.Home.ID, ActionID: settings.ActionConnect}); err != nil {
		t.Fatal(err)
	}
	var modal slackweb.ViewState
	waitState(t, sb, otherUser, "the Connect docs modal", func(st slackweb.State) bool {
		if len(st.Modals) == 0 {
			return false
		}
		modal = st.Modals[len(st.Modals)-1]
		return modal.Title == "Connect docs"
	})
	values := map[string]map[string]string{"api_key": {"value": otherKey}, "project_id": {"value": otherProjectID},
		"assistant_key": {"value": otherAssistantKey}, "domain": {"value": otherDomain}}
	if out, status, err := olive.SubmitView(ctx, slackweb.ViewRequest{ViewID: modal.ID, Values: values}); err != nil || !out.OK {
		t.Fatalf("connecting Other Co's docs: %d %+v %v", status, out, err)
	}
	waitState(t, sb, otherUser, "the modal closed", func(st slackweb.State) bool { return len(st.Modals) == 0 })

	asked := sb.api.Questions()
	send(ask.Command + " " + question)
	if n := sb.otherDocs.Questions(); n != 0 {
		t.Errorf("Other Co's docs asked %d questions before", n)
	}
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
	if sb.otherDocs.Questions() != 1 || sb.api.Questions() != asked {
		t.Errorf("questions: Other Co's docs %d (want 1), the sandbox's %d (want %d)", sb.otherDocs.Questions(), sb.api.Questions(), asked)
	}
}

// waitState waits until person's state satisfies ok.
func waitState(t *testing.T, sb *Sandbox, person, what string, ok func(slackweb.State) bool) {
	t.Helper()
	redistest.Until(t, what, func() bool { return ok(stateAs(t, sb, person)) })
}
