package slackweb_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/slacktest"
)

var docsShortcut = slackweb.Shortcut{CallbackID: shortcutID, Name: "Send to docs agent"}

// waitState polls the page's state until ok accepts it.
func (w *world) waitState(t *testing.T, what string, ok func(slackweb.State) bool) slackweb.State {
	t.Helper()
	var st slackweb.State
	if err := w.slack.WaitFor(testContext(t), func() bool { st = w.state(t); return ok(st) }); err != nil {
		t.Fatalf("the page never showed %s: %v", what, err)
	}
	return st
}

// must checks that a Client call was accepted and acknowledged.
func must(t *testing.T, what string) func(slackweb.SendResponse, int, error) slackweb.SendResponse {
	t.Helper()
	return func(out slackweb.SendResponse, status int, err error) slackweb.SendResponse {
		t.Helper()
		if err != nil || status != http.StatusOK || !out.OK || out.Pending {
			t.Fatalf("%s: %d %+v %v", what, status, out, err)
		}
		return out
	}
}

func findMessage(msgs []slackweb.MessageView, text string) (slackweb.MessageView, bool) {
	for _, m := range msgs {
		if strings.Contains(m.Text, text) {
			return m, true
		}
		if r, ok := findMessage(m.Replies, text); ok {
			return r, true
		}
	}
	return slackweb.MessageView{}, false
}

func channelOf(st slackweb.State, id string) slackweb.ChannelView {
	for _, c := range st.Channels {
		if c.ID == id {
			return c
		}
	}
	return slackweb.ChannelView{}
}

// TestMentions: "@docsbot" typed in the box becomes a mention the bot
// receives as app_mention (and the message event); where the bot is not a
// member the message is posted and the person told.
func TestMentions(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.slack.AddChannel(slacktest.Channel{ID: "C0RANDOM", Name: "random"})
	app := w.startApp(t)
	ctx := testContext(t)
	c := w.client()

	out := must(t, "mention")(c.Send(ctx, slackweb.SendRequest{Channel: "C0GENERAL", Text: "@DocsBot fix <this> & @bob, mail a@docsbot"}))
	if !out.Mention || out.Message != "" {
		t.Errorf("answer %+v, want a mention without a note", out)
	}
	const want = "<@U0BOT> fix &lt;this&gt; &amp; <@U0BOB>, mail a@docsbot"
	app.wait(t, "the app_mention", func(it seenItem) bool { return it.Kind == "app_mention" && it.Text == want })
	app.wait(t, "the message event", func(it seenItem) bool { return it.Kind == "message.channel" && it.Text == want })
	st := w.waitState(t, "the app's answer in the thread with its status", func(st slackweb.State) bool {
		m, ok := findMessage(channelOf(st, "C0GENERAL").Messages, want)
		return ok && m.ReplyCount == 1 && m.Status == "is working…"
	})
	if m, _ := findMessage(channelOf(st, "C0GENERAL").Messages, want); len(m.Replies) != 1 || len(m.Replies[0].Blocks) == 0 {
		t.Errorf("the thread %+v, want the app's blocks", m.Replies)
	}

	m, _ := findMessage(channelOf(st, "C0GENERAL").Messages, want)
	must(t, "mention in the thread")(c.Send(ctx, slackweb.SendRequest{Channel: "C0GENERAL", Text: "and @docsbot the API", ThreadTS: m.TS}))
	app.wait(t, "the app_mention in the thread", func(it seenItem) bool { return it.Kind == "app_mention" && it.Text == "and <@U0BOT> the API" })

	out = must(t, "mention where the bot is not")(c.Send(ctx, slackweb.SendRequest{Channel: "C0RANDOM", Text: "@docsbot hello"}))
	if !out.Mention || !strings.Contains(out.Message, "not in #random") {
		t.Errorf("answer %+v, want a note that the bot is not in #random", out)
	}
	if m, ok := w.slack.Message("C0RANDOM", out.TS); !ok || m.Text != "<@U0BOT> hello" {
		t.Errorf("stored %+v", m)
	}
}

// TestDirectMessages: the Messages tab opens the DM; what is typed there
// reaches the bot as message.im, and its answer and files show, the files
// served by the page (an image inline, anything else as a download).
func TestDirectMessages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app := w.startApp(t)
	ctx := testContext(t)
	c := w.client()
	if st := w.state(t); st.DM != "" {
		t.Fatalf("DM %q before it was opened", st.DM)
	}
	dm := must(t, "open the DM")(c.OpenDM(ctx)).Channel
	if _, err := w.slack.OpenDM("U0BOB"); err != nil { // bob's DM is not alice's to see
		t.Fatal(err)
	}
	must(t, "DM")(c.Send(ctx, slackweb.SendRequest{Channel: dm, Text: "hi @docsbot <b>"}))
	app.wait(t, "the DM", func(it seenItem) bool { return it.Kind == "message.im" && it.Text == "hi <@U0BOT> &lt;b&gt;" })
	st := w.waitState(t, "the answer and two files", func(st slackweb.State) bool {
		n := 0
		for _, m := range channelOf(st, dm).Messages {
			n += len(m.Files)
		}
		return n == 2
	})
	if st.DM != dm || channelOf(st, dm).IM != "U0ALICE" {
		t.Errorf("state DM %q, channel %+v", st.DM, channelOf(st, dm))
	}
	for _, ch := range st.Channels {
		if ch.IM != "" && ch.IM != "U0ALICE" {
			t.Errorf("the page shows %s's DM", ch.IM)
		}
	}
	if _, status, _ := c.Send(ctx, slackweb.SendRequest{Channel: "DBOB", Text: "hi"}); status != http.StatusNotFound {
		t.Errorf("posting in bob's DM: %d, want 404", status)
	}

	var files []slackweb.FileView
	for _, m := range channelOf(st, dm).Messages {
		files = append(files, m.Files...)
	}
	tests := []struct {
		name, contentType, disposition string
		image                          bool
	}{
		{"chart.png", "image/png", "", true},
		{"visitors.csv", "text/csv; charset=utf-8", `attachment; filename=visitors.csv`, false},
	}
	for i, tc := range tests {
		f := files[i]
		resp, err := http.Get(w.page.URL + "/" + f.URL)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if f.Name != tc.name || f.Image != tc.image || f.Size != len(body) || resp.StatusCode != http.StatusOK ||
			resp.Header.Get("Content-Type") != tc.contentType || resp.Header.Get("Content-Disposition") != tc.disposition {
			t.Errorf("%s: %+v served %d %q %q", tc.name, f, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"))
		}
	}
	// A file named like an image but holding a page is only ever a download.
	evil, err := w.api.UploadFileContext(ctx, slack.UploadFileParameters{Filename: "<b>evil.png", Content: "<html><script>alert(1)</script>",
		FileSize: 31, Channel: "C0GENERAL"})
	if err != nil {
		t.Fatal(err)
	}
	st = w.waitState(t, "the uploaded page", func(st slackweb.State) bool {
		for _, m := range channelOf(st, "C0GENERAL").Messages {
			if len(m.Files) == 1 && m.Files[0].ID == evil.ID {
				return !m.Files[0].Image
			}
		}
		return false
	})
	resp, err := http.Get(w.page.URL + "/api/files/" + evil.ID)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct, cd := resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"); ct != "application/octet-stream" || !strings.HasPrefix(cd, "attachment") {
		t.Errorf("a page uploaded as an image is served as %q, %q", ct, cd)
	}
	if resp, err := http.Get(w.page.URL + "/api/files/FNOPE"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown file: %v %v", resp, err)
	}
}

// TestInteractions: buttons, the message shortcut, a modal's submission
// (with the errors the app answers) and closing, and the Home tab all go
// through the fake Slack to the app.
func TestInteractions(t *testing.T) {
	t.Parallel()
	w := newWorld(t, slackweb.WithShortcuts(docsShortcut))
	app := w.startApp(t)
	ctx := testContext(t)
	c := w.client()
	_, root, err := w.api.PostMessageContext(ctx, "C0GENERAL", jobMessage()...)
	if err != nil {
		t.Fatal(err)
	}

	must(t, "overflow")(c.Act(ctx, slackweb.ActionRequest{Channel: "C0GENERAL", TS: root, ActionID: overflowID, Value: "retry"}))
	app.wait(t, "the overflow choice", func(it seenItem) bool { return it.ID == overflowID && it.Value == "retry" })
	must(t, "feedback")(c.Act(ctx, slackweb.ActionRequest{Channel: "C0GENERAL", TS: root, ActionID: feedbackID, Value: "good"}))
	app.wait(t, "the feedback", func(it seenItem) bool { return it.ID == feedbackID && it.Value == "good" })

	refusals := []struct {
		name   string
		call   func() (slackweb.SendResponse, int, error)
		status int
		code   string
	}{
		{"unknown shortcut", func() (slackweb.SendResponse, int, error) {
			return c.Shortcut(ctx, slackweb.ShortcutRequest{Channel: "C0GENERAL", TS: root, CallbackID: "nope"})
		}, http.StatusBadRequest, "invalid_shortcut"},
		{"shortcut on no message", func() (slackweb.SendResponse, int, error) {
			return c.Shortcut(ctx, slackweb.ShortcutRequest{Channel: "C0GENERAL", TS: "1.000009", CallbackID: shortcutID})
		}, http.StatusBadRequest, "not_sent"},
		{"unknown element", func() (slackweb.SendResponse, int, error) {
			return c.Act(ctx, slackweb.ActionRequest{Channel: "C0GENERAL", TS: root, ActionID: "nope"})
		}, http.StatusBadRequest, "not_sent"},
		{"action in no place", func() (slackweb.SendResponse, int, error) {
			return c.Act(ctx, slackweb.ActionRequest{ActionID: followUpID})
		}, http.StatusBadRequest, "invalid_action"},
		{"submit no view", func() (slackweb.SendResponse, int, error) {
			return c.SubmitView(ctx, slackweb.ViewRequest{ViewID: "VNOPE"})
		}, http.StatusNotFound, "view_not_found"},
	}
	for _, tc := range refusals {
		out, status, err := tc.call()
		if err != nil || status != tc.status || out.OK || out.Error != tc.code || out.Message == "" {
			t.Errorf("%s: %d %+v %v, want %d %s", tc.name, status, out, err, tc.status, tc.code)
		}
	}

	// The shortcut opens the modal; a bad submission gets the app's errors,
	// a good one closes it.
	must(t, "shortcut")(c.Shortcut(ctx, slackweb.ShortcutRequest{Channel: "C0GENERAL", TS: root, CallbackID: shortcutID}))
	app.wait(t, "the message shortcut", func(it seenItem) bool {
		return it.Kind == "message_action" && it.ID == shortcutID && it.Text == "Job started"
	})
	st := w.waitState(t, "the modal", func(st slackweb.State) bool { return len(st.Modals) == 1 })
	modal := st.Modals[0]
	if modal.Title != "Follow up" || modal.Submit != "Send" || modal.Close != "Cancel" || !strings.Contains(string(modal.Blocks), inputBlock) {
		t.Errorf("modal %+v", modal)
	}
	out := must(t, "bad submission")(c.SubmitView(ctx, slackweb.ViewRequest{ViewID: modal.ID,
		Values: map[string]map[string]string{inputBlock: {inputAction: badFollowUp}}}))
	if out.Errors[inputBlock] != followUpError {
		t.Errorf("answer %+v, want the app's error", out)
	}
	if st := w.state(t); len(st.Modals) != 1 || st.Modals[0].Errors[inputBlock] != followUpError {
		t.Errorf("modals after errors %+v", st.Modals)
	}
	must(t, "submission")(c.SubmitView(ctx, slackweb.ViewRequest{ViewID: modal.ID,
		Values: map[string]map[string]string{inputBlock: {inputAction: "add <an> example"}, priorityBlock: {"choice": "high"}}}))
	app.wait(t, "the submission", func(it seenItem) bool {
		return it.Kind == "view_submission" && it.Text == "add <an> example" && it.Value == "high"
	})
	w.waitState(t, "the modal closed and the app's post", func(st slackweb.State) bool {
		_, posted := findMessage(channelOf(st, "C0GENERAL").Messages, "Follow-up: add &lt;an&gt; example")
		return len(st.Modals) == 0 && posted
	})

	// A button opens the modal again; its close button tells the app.
	must(t, "button")(c.Act(ctx, slackweb.ActionRequest{Channel: "C0GENERAL", TS: root, ActionID: followUpID}))
	st = w.waitState(t, "the modal again", func(st slackweb.State) bool { return len(st.Modals) == 1 })
	must(t, "close")(c.CloseView(ctx, st.Modals[0].ID))
	app.wait(t, "view_closed", func(it seenItem) bool { return it.Kind == "view_closed" })
	w.waitState(t, "no modal", func(st slackweb.State) bool { return len(st.Modals) == 0 })

	// The Home tab: opening it makes the app publish; a button in it acts
	// in the view and the app publishes again.
	if st := w.state(t); st.Home != nil || len(st.Shortcuts) != 1 || st.Shortcuts[0] != docsShortcut {
		t.Errorf("home %+v before it was opened, shortcuts %+v", st.Home, st.Shortcuts)
	}
	must(t, "home")(c.OpenHome(ctx))
	app.wait(t, "app_home_opened", func(it seenItem) bool { return it.Kind == "app_home_opened" })
	st = w.waitState(t, "the Home tab", func(st slackweb.State) bool {
		return st.Home != nil && strings.Contains(string(st.Home.Blocks), "Welcome")
	})
	must(t, "home button")(c.Act(ctx, slackweb.ActionRequest{ViewID: st.Home.ID, ActionID: refreshID}))
	w.waitState(t, "the refreshed Home tab", func(st slackweb.State) bool {
		return st.Home != nil && strings.Contains(string(st.Home.Blocks), "Refreshed")
	})
}

// TestInteractionPending: with no app listening, an interaction is sent and
// the answer says the app has not acknowledged it.
func TestInteractionPending(t *testing.T) {
	t.Parallel()
	w := newWorld(t, slackweb.WithAckWait(50*time.Millisecond))
	ctx := testContext(t)
	_, root, err := w.api.PostMessageContext(ctx, "C0GENERAL", jobMessage()...)
	if err != nil {
		t.Fatal(err)
	}
	out, status, err := w.client().Act(ctx, slackweb.ActionRequest{Channel: "C0GENERAL", TS: root, ActionID: cancelID})
	if err != nil || status != http.StatusOK || !out.OK || !out.Pending || out.EnvelopeID == "" {
		t.Errorf("%d %+v %v, want pending", status, out, err)
	}
}

// jobMessage is a message like the app's answer to a mention.
func jobMessage() []slack.MsgOption {
	return []slack.MsgOption{slack.MsgOptionText("Job started", false), slack.MsgOptionBlocks(jobBlocks()...)}
}
