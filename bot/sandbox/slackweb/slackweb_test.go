package slackweb_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
	"github.com/docsbot/docsbot/bot/slacktest"
)

func TestAssets(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tests := []struct {
		path, contentType string
		status            int
		contains          string
	}{
		{"/", "text/html", http.StatusOK, `<script src="app.js" defer></script>`},
		{"/app.js", "text/javascript", http.StatusOK, "EventSource('api/events')"},
		{"/app.css", "text/css", http.StatusOK, ".msg-ephemeral"},
		{"/index.html", "", http.StatusNotFound, ""},
		{"/api/nothing", "", http.StatusNotFound, ""},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			resp, err := http.Get(w.page.URL + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body bytes.Buffer
			_, _ = body.ReadFrom(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.contentType) || !strings.Contains(body.String(), tc.contains) {
				t.Errorf("Content-Type %q, body does not contain %q", resp.Header.Get("Content-Type"), tc.contains)
			}
			csp := resp.Header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "img-src 'self' data:;") {
				t.Errorf("Content-Security-Policy %q does not limit scripts and images to the page's own", csp)
			}
		})
	}
}

func TestState(t *testing.T) {
	t.Parallel()
	cmds := []slackweb.Command{{Name: "/docs-agent", Hint: "<instruction>", Examples: []string{"/docs-agent hi"}}}
	w := newWorld(t, slackweb.WithWorkspace("Acme"), slackweb.WithCommands(cmds...), slackweb.WithIntro("*Hello*"))
	w.connect(t)
	ctx := testContext(t)

	blocks := slack.MsgOptionBlocks(slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "*Job* started", false, false), nil, nil))
	_, root, err := w.api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Job started", false), blocks)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := w.api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Done: <https://example.com|PR>", false), slack.MsgOptionTS(root)); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := w.api.UpdateMessageContext(ctx, "C0GENERAL", root, slack.MsgOptionText("Job finished", false)); err != nil {
		t.Fatal(err)
	}
	reply, _, err := w.slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "thanks", ThreadTS: root})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.api.AddReactionContext(ctx, "eyes", slack.ItemRef{Channel: "C0GENERAL", Timestamp: reply}); err != nil {
		t.Fatal(err)
	}
	for _, user := range []string{"U0ALICE", "U0BOB"} {
		if _, err := w.api.PostEphemeralContext(ctx, "C0GENERAL", user, slack.MsgOptionText("only for "+user, false)); err != nil {
			t.Fatal(err)
		}
	}

	st := w.state(t)
	if st.Workspace != "Acme" || st.Me != "U0ALICE" || st.Bot != "U0BOT" || st.Intro != "*Hello*" || !reflect.DeepEqual(st.Commands, cmds) {
		t.Errorf("state header %q %q %q %q %+v", st.Workspace, st.Me, st.Bot, st.Intro, st.Commands)
	}
	if len(st.Users) != len(w.slack.Users()) || len(st.Channels) != len(w.slack.Channels()) {
		t.Errorf("state has %d users and %d channels, the server %d and %d", len(st.Users), len(st.Channels), len(w.slack.Users()), len(w.slack.Channels()))
	}
	var general slackweb.ChannelView
	for _, c := range st.Channels {
		if c.ID == "C0GENERAL" {
			general = c
		}
	}
	top := w.slack.Messages("C0GENERAL")
	thread := w.slack.Thread("C0GENERAL", root)
	if len(general.Messages) != len(top) || len(general.Messages[0].Replies) != len(thread)-1 {
		t.Fatalf("state shows %+v; the server has %d messages and a thread of %d", general.Messages, len(top), len(thread))
	}
	got := general.Messages[0]
	if got.TS != top[0].TS || got.Text != top[0].Text || !got.Edited || got.ReplyCount != top[0].ReplyCount || !bytes.Equal(got.Blocks, top[0].Blocks) {
		t.Errorf("root %+v, server %+v", got, top[0])
	}
	for i, r := range got.Replies {
		want := thread[i+1]
		if r.TS != want.TS || r.Text != want.Text || r.User != want.User || r.BotID != want.BotID || !reflect.DeepEqual(r.Reactions, want.Reactions) {
			t.Errorf("reply %d: %+v, server %+v", i, r, want)
		}
	}
	if len(st.Ephemerals) != 1 || st.Ephemerals[0].Text != "only for U0ALICE" || !st.Ephemerals[0].Ephemeral {
		t.Errorf("ephemerals %+v, want only alice's", st.Ephemerals)
	}
}

func TestSend(t *testing.T) {
	t.Parallel()
	w := newWorld(t, slackweb.WithCommands(slackweb.Command{Name: "/docs-agent"}))
	c := w.connect(t)
	ctx := testContext(t)
	_, root, err := w.api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Job started", false))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("slash command", func(t *testing.T) {
		status, out := w.send(t, slackweb.SendRequest{Channel: "C0GENERAL", Text: "/docs-agent  Compare a < b & c "})
		if status != http.StatusOK || !out.OK || !out.Command || out.EnvelopeID == "" {
			t.Fatalf("%d %+v", status, out)
		}
		e := c.waitEvent(t, "the slash command", func(e socketmode.Event) bool { return e.Request.EnvelopeID == out.EnvelopeID })
		cmd, ok := e.Data.(slack.SlashCommand)
		if !ok || cmd.Command != "/docs-agent" || cmd.Text != "Compare a &lt; b &amp; c" || cmd.UserID != "U0ALICE" || cmd.ChannelID != "C0GENERAL" {
			t.Errorf("the client got %+v", e.Data)
		}
	})

	messages := []struct {
		name, text, threadTS, wantText string
	}{
		{"channel message", "hello <world>", "", "hello &lt;world&gt;"},
		{"thread reply", "Also *this* & that", root, "Also *this* &amp; that"},
	}
	t.Run("message with files", func(t *testing.T) {
		png := append([]byte("\x89PNG\r\n\x1a\n"), 0, 0, 0, 13)
		status, out := w.send(t, slackweb.SendRequest{Channel: "C0GENERAL", Text: "what is this?", Files: []slackweb.SendFile{
			{Name: "screen.png", Mimetype: "image/png", Data: png}, {Name: "build.log", Mimetype: "text/plain", Data: []byte("ERROR 42\n")}}})
		if status != http.StatusOK || !out.OK {
			t.Fatalf("%d %+v", status, out)
		}
		c.waitMessage(t, "the file_share message event", func(me *slackevents.MessageEvent) bool {
			return me.TimeStamp == out.TS && me.SubType == "file_share"
		})
		if files := w.slack.MessageFiles("C0GENERAL", out.TS); len(files) != 2 || files[0].Name != "screen.png" || files[1].Name != "build.log" {
			t.Fatalf("the message's files: %+v", files)
		}
		var shown []slackweb.FileView
		for _, ch := range w.state(t).Channels {
			for _, m := range ch.Messages {
				if m.TS == out.TS {
					shown = m.Files
				}
			}
		}
		if len(shown) != 2 || !shown[0].Image || shown[1].Image || shown[1].Name != "build.log" {
			t.Fatalf("the page shows the message's files as %+v", shown)
		}
		for i, want := range [][]byte{png, []byte("ERROR 42\n")} {
			resp, err := http.Get(w.page.URL + "/" + shown[i].URL)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !bytes.Equal(got, want) {
				t.Errorf("the page serves %s as %q, want %q", shown[i].Name, got, want)
			}
		}
	})

	for _, tc := range messages {
		t.Run(tc.name, func(t *testing.T) {
			status, out := w.send(t, slackweb.SendRequest{Channel: "C0GENERAL", Text: tc.text, ThreadTS: tc.threadTS})
			if status != http.StatusOK || !out.OK || out.Command || out.Pending || out.TS == "" {
				t.Fatalf("%d %+v", status, out)
			}
			c.waitMessage(t, "the message event", func(me *slackevents.MessageEvent) bool {
				return me.TimeStamp == out.TS && me.Text == tc.wantText && me.ThreadTimeStamp == tc.threadTS && me.User == "U0ALICE"
			})
			if m, ok := w.slack.Message("C0GENERAL", out.TS); !ok || m.Text != tc.wantText {
				t.Errorf("stored %+v", m)
			}
		})
	}
}

func TestSendRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t, slackweb.WithCommands(slackweb.Command{Name: "/docs-agent"}))
	tests := []struct {
		name, contentType, origin, body string
		status                          int
		code                            string
	}{
		{"unknown command", "application/json", "", `{"channel":"C0GENERAL","text":"/deploy now"}`, http.StatusBadRequest, "invalid_command"},
		{"command in a thread", "application/json", "", `{"channel":"C0GENERAL","text":"/docs-agent x","thread_ts":"1.000001"}`, http.StatusBadRequest, "command_in_thread"},
		{"unknown channel", "application/json", "", `{"channel":"C0NOPE","text":"hi"}`, http.StatusNotFound, "channel_not_found"},
		{"unknown thread", "application/json", "", `{"channel":"C0GENERAL","text":"hi","thread_ts":"1.000001"}`, http.StatusBadRequest, "not_posted"},
		{"blank text", "application/json", "", `{"channel":"C0GENERAL","text":" \n "}`, http.StatusBadRequest, "no_text"},
		{"too long", "application/json", "", `{"channel":"C0GENERAL","text":"` + strings.Repeat("x", 40001) + `"}`, http.StatusBadRequest, "msg_too_long"},
		{"not JSON", "application/json", "", `{"channel":`, http.StatusBadRequest, "invalid_json"},
		{"files with a command", "application/json", "", `{"channel":"C0GENERAL","text":"/docs-agent x","files":[{"name":"a.log","data":"eA=="}]}`, http.StatusBadRequest, "files_with_command"},
		{"eleven files", "application/json", "", `{"channel":"C0GENERAL","text":"hi","files":[` + strings.Repeat(`{"name":"a.log","data":"eA=="},`, 10) + `{"name":"b.log","data":"eA=="}]}`, http.StatusBadRequest, "too_many_files"},
		{"form", "text/plain", "", `{"channel":"C0GENERAL","text":"hi"}`, http.StatusUnsupportedMediaType, "invalid_content_type"},
		{"other site", "application/json", "https://evil.example", `{"channel":"C0GENERAL","text":"hi"}`, http.StatusForbidden, "cross_origin"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, w.page.URL+"/api/send", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", tc.contentType)
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var out slackweb.SendResponse
			_ = json.NewDecoder(resp.Body).Decode(&out)
			if resp.StatusCode != tc.status || out.OK || out.Error != tc.code || out.Message == "" {
				t.Errorf("%d %+v, want %d %s with a message", resp.StatusCode, out, tc.status, tc.code)
			}
			if strings.Contains(out.Message, "slacktest") {
				t.Errorf("the message shows the fake's own error to the person: %q", out.Message)
			}
		})
	}
	if n := len(w.slack.Messages("C0GENERAL")); n != 0 {
		t.Errorf("refused requests posted %d messages", n)
	}
}

// TestSendPending: with no bot listening, a message is posted and queued,
// and the answer says the bot has not acknowledged it.
func TestSendPending(t *testing.T) {
	t.Parallel()
	w := newWorld(t, slackweb.WithAckWait(50*time.Millisecond))
	status, out := w.send(t, slackweb.SendRequest{Channel: "C0GENERAL", Text: "anyone there?"})
	if status != http.StatusOK || !out.OK || !out.Pending || out.TS == "" {
		t.Fatalf("%d %+v", status, out)
	}
	if _, ok := w.slack.Message("C0GENERAL", out.TS); !ok {
		t.Errorf("message %s not stored", out.TS)
	}
}

func TestEvents(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := testContext(t)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, w.page.URL+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	events := make(chan slackweb.State, 16)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		name := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && name == "state":
				var st slackweb.State
				if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &st) == nil {
					events <- st
				}
			}
		}
	}()
	next := func(what string, ok func(slackweb.State) bool) {
		t.Helper()
		for {
			select {
			case st, open := <-events:
				if !open {
					t.Fatalf("the stream ended before %s", what)
				}
				if ok(st) {
					return
				}
			case <-ctx.Done():
				t.Fatalf("no event with %s", what)
			}
		}
	}

	next("the first state", func(st slackweb.State) bool { return len(st.Channels) > 0 })
	if _, _, err := w.api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("live", false)); err != nil {
		t.Fatal(err)
	}
	next("the new message", func(st slackweb.State) bool {
		return len(st.Channels[0].Messages) == 1 && st.Channels[0].Messages[0].Text == "live"
	})
	w.slack.AddChannel(slacktest.Channel{ID: "C0NEW", Name: "new"})
	next("the new channel", func(st slackweb.State) bool { return st.Channels[len(st.Channels)-1].ID == "C0NEW" })
}
