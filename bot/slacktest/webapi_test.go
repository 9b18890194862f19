package slacktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
)

// workspace adds the channels the Web API tests post to and a message by alice.
func workspace(t *testing.T, s *Server) (aliceTS string) {
	t.Helper()
	s.AddChannel(Channel{ID: "C0RANDOM", Name: "random"})
	s.AddChannel(Channel{ID: "G0SECRET", Name: "secret", Private: true})
	s.AddChannel(Channel{ID: "G0TEAM", Name: "team", Private: true, BotMember: true})
	ts, _, err := s.PostUserMessage(testContext(t), UserMessage{ChannelID: "C0RANDOM", UserID: "U0ALICE", Text: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func slackErr(err error) string {
	if err == nil {
		return ""
	}
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	return err.Error()
}

func sectionBlocks(n, textLen int) slack.MsgOption {
	var blocks []slack.Block
	for range n {
		blocks = append(blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, strings.Repeat("x", textLen), false, false), nil, nil))
	}
	return slack.MsgOptionBlocks(blocks...)
}

func TestPostMessage(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithEchoBotMessages(false))
	ackEverything(t, s, nil)
	workspace(t, s)
	api := botAPI(s)
	parentTS, _, err := s.PostUserMessage(testContext(t), UserMessage{ChannelID: "C0GENERAL", UserID: "U0BOB", Text: "parent"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		channel string
		opts    []slack.MsgOption
		wantErr string
		// wantChannel and wantThread are where the message must land.
		wantChannel, wantThread string
		// wantRich asks for the blocks and metadata to be stored.
		wantRich bool
	}{
		{"text", "C0GENERAL", []slack.MsgOption{slack.MsgOptionText("Job started", false)}, "", "C0GENERAL", "", false},
		{"by name", "#general", []slack.MsgOption{slack.MsgOptionText("by name", false)}, "", "C0GENERAL", "", false},
		{"private channel member", "G0TEAM", []slack.MsgOption{slack.MsgOptionText("team", false)}, "", "G0TEAM", "", false},
		{"thread reply", "C0GENERAL", []slack.MsgOption{slack.MsgOptionText("in thread", false), slack.MsgOptionTS(parentTS)}, "", "C0GENERAL", parentTS, false},
		{"blocks and metadata", "C0GENERAL", []slack.MsgOption{sectionBlocks(50, 3000), slack.MsgOptionMetadata(slack.SlackMetadata{EventType: "job", EventPayload: map[string]any{"id": "j1"}})}, "", "C0GENERAL", "", true},
		{"unknown channel", "C0NOPE", []slack.MsgOption{slack.MsgOptionText("x", false)}, "channel_not_found", "", "", false},
		{"private channel not joined", "G0SECRET", []slack.MsgOption{slack.MsgOptionText("x", false)}, "channel_not_found", "", "", false},
		{"public channel not joined", "C0RANDOM", []slack.MsgOption{slack.MsgOptionText("x", false)}, "not_in_channel", "", "", false},
		{"no text", "C0GENERAL", nil, "no_text", "", "", false},
		{"51 blocks", "C0GENERAL", []slack.MsgOption{sectionBlocks(51, 10)}, "invalid_blocks", "", "", false},
		{"section text over 3000", "C0GENERAL", []slack.MsgOption{sectionBlocks(1, 3001)}, "invalid_blocks", "", "", false},
		{"text over 40000", "C0GENERAL", []slack.MsgOption{slack.MsgOptionText(strings.Repeat("y", 40001), false)}, "msg_too_long", "", "", false},
		{"unknown thread", "C0GENERAL", []slack.MsgOption{slack.MsgOptionText("x", false), slack.MsgOptionTS("1.000001")}, "thread_not_found", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ch, ts, err := api.PostMessageContext(testContext(t), tc.channel, tc.opts...)
			if got := slackErr(err); got != tc.wantErr {
				t.Fatalf("error = %q, want %q", got, tc.wantErr)
			}
			if tc.wantErr != "" {
				return
			}
			m, ok := s.Message(tc.wantChannel, ts)
			if ch != tc.wantChannel || !ok {
				t.Fatalf("posted to %s %s; stored: %v", ch, ts, ok)
			}
			if m.User != s.cfg.botUserID || m.BotID != s.cfg.botID || m.ThreadTS != tc.wantThread {
				t.Errorf("stored %+v, want bot author in thread %q", m, tc.wantThread)
			}
			if tc.wantRich && (m.Metadata == nil || len(m.Blocks) == 0) {
				t.Errorf("blocks/metadata not stored: %+v", m)
			}
			last := s.Calls("chat.postMessage")
			if call := last[len(last)-1]; call.Params["channel"] != tc.channel || call.Token != "bot" {
				t.Errorf("recorded call %+v", call)
			}
		})
	}
}

// editFixture is a workspace of its own for one subtest: alice's message in
// #random and a bot message in #general.
type editFixture struct {
	s              *Server
	api            *slack.Client
	aliceTS, botTS string
}

func newEditFixture(t *testing.T) editFixture {
	t.Helper()
	s := newTestServer(t, WithEchoBotMessages(false))
	f := editFixture{s: s, api: botAPI(s), aliceTS: workspace(t, s)}
	_, ts, err := f.api.PostMessageContext(testContext(t), "C0GENERAL", slack.MsgOptionText("Job queued", false))
	if err != nil {
		t.Fatal(err)
	}
	f.botTS = ts
	return f
}

func TestUpdateEphemeralReactions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		call    func(ctx context.Context, f editFixture) error
		wantErr string
		check   func(f editFixture) error
	}{
		{"update own message", func(ctx context.Context, f editFixture) error {
			_, _, _, err := f.api.UpdateMessageContext(ctx, "C0GENERAL", f.botTS, slack.MsgOptionText("Job running", false))
			return err
		}, "", func(f editFixture) error {
			if m, _ := f.s.Message("C0GENERAL", f.botTS); m.Text != "Job running" || !m.Edited {
				return fmt.Errorf("after update: %+v", m)
			}
			return nil
		}},
		{"update unknown message", func(ctx context.Context, f editFixture) error {
			_, _, _, err := f.api.UpdateMessageContext(ctx, "C0GENERAL", "1.000002", slack.MsgOptionText("x", false))
			return err
		}, "message_not_found", nil},
		{"update someone else's message", func(ctx context.Context, f editFixture) error {
			_, _, _, err := f.api.UpdateMessageContext(ctx, "C0RANDOM", f.aliceTS, slack.MsgOptionText("x", false))
			return err
		}, "cant_update_message", nil},
		{"ephemeral", func(ctx context.Context, f editFixture) error {
			_, err := f.api.PostEphemeralContext(ctx, "C0GENERAL", "U0BOB", slack.MsgOptionText("only for bob", false))
			return err
		}, "", func(f editFixture) error {
			if e := f.s.Ephemerals("U0BOB"); len(e) != 1 || e[0].Text != "only for bob" || e[0].ForUser != "U0BOB" {
				return fmt.Errorf("ephemerals: %+v", e)
			}
			return nil
		}},
		{"ephemeral where the bot is not", func(ctx context.Context, f editFixture) error {
			_, err := f.api.PostEphemeralContext(ctx, "C0RANDOM", "U0BOB", slack.MsgOptionText("x", false))
			return err
		}, "not_in_channel", nil},
		{"ephemeral to unknown user", func(ctx context.Context, f editFixture) error {
			_, err := f.api.PostEphemeralContext(ctx, "C0GENERAL", "U0NOBODY", slack.MsgOptionText("x", false))
			return err
		}, "user_not_in_channel", nil},
		{"reaction", func(ctx context.Context, f editFixture) error {
			return f.api.AddReactionContext(ctx, "eyes", slack.NewRefToMessage("C0RANDOM", f.aliceTS))
		}, "", func(f editFixture) error {
			if m, _ := f.s.Message("C0RANDOM", f.aliceTS); len(m.Reactions) != 1 || m.Reactions[0] != "eyes" {
				return fmt.Errorf("reactions: %v", m.Reactions)
			}
			return nil
		}},
		{"same reaction again", func(ctx context.Context, f editFixture) error {
			ref := slack.NewRefToMessage("C0RANDOM", f.aliceTS)
			if err := f.api.AddReactionContext(ctx, "eyes", ref); err != nil {
				return fmt.Errorf("the first reaction: %w", err)
			}
			return f.api.AddReactionContext(ctx, "eyes", ref)
		}, "already_reacted", func(f editFixture) error {
			if m, _ := f.s.Message("C0RANDOM", f.aliceTS); len(m.Reactions) != 1 {
				return fmt.Errorf("reactions: %v, want eyes once", m.Reactions)
			}
			return nil
		}},
		{"reaction without a name", func(ctx context.Context, f editFixture) error {
			return f.api.AddReactionContext(ctx, "", slack.NewRefToMessage("C0RANDOM", f.aliceTS))
		}, "invalid_name", nil},
		{"reaction in an unknown channel", func(ctx context.Context, f editFixture) error {
			return f.api.AddReactionContext(ctx, "eyes", slack.NewRefToMessage("C0NOPE", f.aliceTS))
		}, "channel_not_found", nil},
		{"reaction on unknown message", func(ctx context.Context, f editFixture) error {
			return f.api.AddReactionContext(ctx, "eyes", slack.NewRefToMessage("C0GENERAL", "1.000003"))
		}, "message_not_found", nil},
		{"unknown method", func(ctx context.Context, f editFixture) error {
			_, err := f.api.GetTeamInfoContext(ctx) // team.info: not served
			return err
		}, "unknown_method", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newEditFixture(t)
			err := tc.call(testContext(t), f)
			if got := slackErr(err); got != tc.wantErr {
				t.Fatalf("error = %q, want %q", got, tc.wantErr)
			}
			if tc.check != nil {
				if err := tc.check(f); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func TestConversationReplies(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t, WithEchoBotMessages(false))
	ctx := testContext(t)
	_, parent, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("root", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: "docs_job", EventPayload: map[string]any{"job": "j1"}}))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "one", ThreadTS: parent}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("two", false), slack.MsgOptionTS(parent)); err != nil {
		t.Fatal(err)
	}
	want := s.Thread("C0GENERAL", parent)
	tests := []struct {
		name  string
		limit int
	}{
		{"one page", 0},
		{"pages of two", 2},
		{"pages of one", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []slack.Message
			cursor := ""
			for {
				msgs, more, next, err := api.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{ChannelID: "C0GENERAL", Timestamp: parent, Limit: tc.limit, Cursor: cursor})
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, msgs...)
				if !more {
					break
				}
				cursor = next
			}
			if len(got) != len(want) {
				t.Fatalf("got %d messages, want %d", len(got), len(want))
			}
			for i, m := range got {
				w := want[i]
				if m.Timestamp != w.TS || m.ThreadTimestamp != w.ThreadTS || m.User != w.User || m.BotID != w.BotID || m.Text != w.Text {
					t.Errorf("message %d = ts %s thread %s user %s bot %s text %q; want %+v", i, m.Timestamp, m.ThreadTimestamp, m.User, m.BotID, m.Text, w)
				}
			}
			if got[0].ReplyCount != 2 || got[0].Metadata.EventType != "docs_job" || got[0].Metadata.EventPayload["job"] != "j1" {
				t.Errorf("parent reply_count %d metadata %+v", got[0].ReplyCount, got[0].Metadata)
			}
		})
	}
	if _, _, _, err := api.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{ChannelID: "C0GENERAL", Timestamp: "1.000004"}); slackErr(err) != "thread_not_found" {
		t.Errorf("unknown thread: %v", err)
	}
}

func TestAuth(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithBotToken("xoxb-1-secret"), WithAppToken("xapp-1-secret"), WithTeam("T0AUTH", "auth-team"), WithBot("U0B", "B0B"))
	tests := []struct {
		name    string
		call    func(ctx context.Context) error
		wantErr string
		token   string // Call.Token recorded
	}{
		{"bot token", func(ctx context.Context) error {
			r, err := slack.New("xoxb-1-secret", slack.OptionAPIURL(s.APIURL)).AuthTestContext(ctx)
			if err == nil && (r.TeamID != "T0AUTH" || r.UserID != "U0B" || r.BotID != "B0B" || r.URL != "https://auth-team.slack.com/") {
				return fmt.Errorf("auth.test answered %+v", r)
			}
			return err
		}, "", "bot"},
		{"wrong token", func(ctx context.Context) error {
			_, err := slack.New("xoxb-wrong", slack.OptionAPIURL(s.APIURL)).AuthTestContext(ctx)
			return err
		}, "invalid_auth", "invalid"},
		{"no token", func(ctx context.Context) error {
			_, err := slack.New("", slack.OptionAPIURL(s.APIURL)).AuthTestContext(ctx)
			return err
		}, "not_authed", "none"},
		{"app token on a bot method", func(ctx context.Context) error {
			_, err := slack.New("xapp-1-secret", slack.OptionAPIURL(s.APIURL)).AuthTestContext(ctx)
			return err
		}, "not_allowed_token_type", "app"},
		{"connections.open with the app token", func(ctx context.Context) error {
			_, u, err := slack.New("", slack.OptionAPIURL(s.APIURL), slack.OptionAppLevelToken("xapp-1-secret")).StartSocketModeContext(ctx)
			if err == nil && !strings.HasPrefix(u, "ws://"+strings.TrimPrefix(s.URL(), "http://")+"/link/?") {
				return fmt.Errorf("url %q", u)
			}
			return err
		}, "", "app"},
		{"connections.open with the bot token", func(ctx context.Context) error {
			_, _, err := slack.New("", slack.OptionAPIURL(s.APIURL), slack.OptionAppLevelToken("xoxb-1-secret")).StartSocketModeContext(ctx)
			return err
		}, "not_allowed_token_type", "bot"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := slackErr(tc.call(testContext(t))); got != tc.wantErr {
				t.Fatalf("error = %q, want %q", got, tc.wantErr)
			}
			calls := s.Calls("")
			if last := calls[len(calls)-1]; last.Token != tc.token || last.Error != tc.wantErr {
				t.Errorf("recorded %+v, want token %q error %q", last, tc.token, tc.wantErr)
			}
		})
	}
	raw, _ := json.Marshal(s.Calls(""))
	for _, secret := range []string{"xoxb-1-secret", "xapp-1-secret", "xoxb-wrong"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("a token appears in Calls: %s", raw)
		}
	}
}

func TestJSONBodyAndFormToken(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithEchoBotMessages(false))
	ctx := testContext(t)
	post := func(req *http.Request) map[string]any {
		t.Helper()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d, %v", resp.StatusCode, err)
		}
		return out
	}
	body := `{"channel":"C0GENERAL","text":"json body","blocks":[{"type":"section","text":{"type":"mrkdwn","text":"hi"}}],"unfurl_links":false}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.APIURL+"chat.postMessage", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Authorization", "Bearer "+s.cfg.botToken)
	if out := post(req); out["ok"] != true {
		t.Fatalf("JSON post answered %v", out)
	}
	call := s.Calls("chat.postMessage")[0]
	if call.Params["text"] != "json body" || call.Params["unfurl_links"] != "false" || !strings.HasPrefix(call.Params["blocks"], `[{"type":"section"`) {
		t.Errorf("params = %v", call.Params)
	}
	form := url.Values{"token": {s.cfg.botToken}, "channel": {"C0GENERAL"}, "text": {"form body"}}
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, s.APIURL+"chat.postMessage", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if out := post(req); out["ok"] != true {
		t.Fatalf("form post answered %v", out)
	}
	if p := s.Calls("chat.postMessage")[1].Params; p["token"] != "" || p["text"] != "form body" {
		t.Errorf("params = %v", p)
	}
}

func TestFailureInjection(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithEchoBotMessages(false))
	api := botAPI(s)
	s.RateLimit("chat.postMessage", 1, 1500*time.Millisecond)
	s.FailNext("chat.update", "ratelimited", 2)
	ctx := testContext(t)

	_, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("x", false))
	var rl *slack.RateLimitedError
	if !errors.As(err, &rl) || rl.RetryAfter != 2*time.Second {
		t.Fatalf("rate limited post = %v, want *slack.RateLimitedError with 2s", err)
	}
	_, ts, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("x", false))
	if err != nil {
		t.Fatalf("post after the limit: %v", err)
	}
	for i, want := range []string{"ratelimited", "ratelimited", ""} {
		_, _, _, err := api.UpdateMessageContext(ctx, "C0GENERAL", ts, slack.MsgOptionText("y", false))
		if got := slackErr(err); got != want {
			t.Errorf("update %d: error %q, want %q", i, got, want)
		}
	}
	// An answer delayed past the caller's deadline: the latency applies,
	// and, as at Slack, the call is carried out all the same once it has
	// passed (in flight until then).
	s.SetAPILatency("auth.test", 500*time.Millisecond)
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = api.AuthTestContext(short)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("auth.test delayed 500ms, with a 50ms deadline = %v, want context.DeadlineExceeded", err)
	}
	if err := s.WaitFor(ctx, func() bool { return len(s.Calls("auth.test")) == 1 && s.InFlight("auth.test") == 0 }); err != nil {
		t.Fatalf("the abandoned auth.test was not carried out: %v", err)
	}
	s.SetAPILatency("auth.test", 0)
	if _, err := api.AuthTestContext(ctx); err != nil {
		t.Fatal(err)
	}
	var errs []string
	for _, c := range s.Calls("") {
		errs = append(errs, c.Method+":"+c.Error)
	}
	want := "chat.postMessage:ratelimited chat.postMessage: chat.update:ratelimited chat.update:ratelimited chat.update: auth.test: auth.test:"
	if got := strings.Join(errs, " "); got != want {
		t.Errorf("calls = %s\nwant    %s", got, want)
	}
}
