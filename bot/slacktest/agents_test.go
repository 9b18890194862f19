package slacktest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// TestAgentSession drives an agent session with the real slack-go client:
// created by its first status, Stop shown only while processing, Stop
// halting the streams in the thread, and chat.stopStream moving the status on.
func TestAgentSession(t *testing.T) {
	t.Parallel()
	s, api, seen := aiServer(t)
	ctx := testContext(t)
	parent, err := s.Mention(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "deploy the docs"})
	if err != nil {
		t.Fatal(err)
	}
	set := func(status string) (*slack.AgentSessionSetStatusResponse, error) {
		return api.SetAgentSessionStatusContext(ctx, slack.AgentSessionSetStatusParameters{
			Status: status, ChannelID: "C0GENERAL", ThreadTS: parent.TS, Title: "Deploy", InitiatorUserID: "U0ALICE"})
	}
	resp, err := set(slack.AgentSessionStatusProcessing)
	if err != nil || resp.Status != "processing" || resp.AgentStatus != "processing" || resp.Title != "Deploy" {
		t.Fatalf("setStatus: %+v, %v", resp, err)
	}
	recipient := []slack.MsgOption{slack.MsgOptionRecipientUserID("U0ALICE"), slack.MsgOptionRecipientTeamID("T0TEST"), slack.MsgOptionTS(parent.TS)}
	_, ts, err := api.StartStreamContext(ctx, "C0GENERAL", append(recipient, slack.MsgOptionMarkdownText("Building"))...)
	if err != nil {
		t.Fatal(err)
	}
	stop, err := s.StopAgentSession(ctx, "C0GENERAL", parent.TS, "U0ALICE")
	if err != nil || len(stop.Halted) != 1 || stop.Halted[0] != ts {
		t.Fatalf("stop: %+v, %v", stop, err)
	}
	ev, ok := eventOf(seen, func(e *slackevents.AgentSessionStoppedEvent) bool { return true })
	if !ok || ev.Channel != "C0GENERAL" || ev.ThreadTimestamp != parent.TS || ev.User != "U0ALICE" || len(ev.StreamingMessageTimestamps) != 1 || ev.StreamingMessageTimestamps[0] != ts {
		t.Fatalf("agent_session_stopped = %+v", ev)
	}
	if m := s.streamed(t, "C0GENERAL", ts); m.Streaming || !m.Halted {
		t.Errorf("the stream after Stop: %+v", m)
	}
	if _, _, err := api.AppendStreamContext(ctx, "C0GENERAL", ts, slack.MsgOptionMarkdownText(" more")); slackErr(err) != "message_not_in_streaming_state" {
		t.Errorf("append to a halted stream: %v", err)
	}
	if sess, _ := s.AgentSession("C0GENERAL", parent.TS); sess.Status != "processing" || sess.Stops != 1 || sess.Initiator != "U0ALICE" {
		t.Errorf("after Stop the app must move the status on itself: %+v", sess)
	}
	if _, err := set(slack.AgentSessionStatusActive); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StopAgentSession(ctx, "C0GENERAL", parent.TS, "U0ALICE"); err == nil {
		t.Error("Stop on an active session: Slack shows no Stop button then")
	}

	// chat.stopStream takes the session to session_status, active unless said.
	if _, err := set(slack.AgentSessionStatusProcessing); err != nil {
		t.Fatal(err)
	}
	_, ts, err = api.StartStreamContext(ctx, "C0GENERAL", append(recipient, slack.MsgOptionMarkdownText("Again"))...)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := api.StopStreamContext(ctx, "C0GENERAL", ts); err != nil {
		t.Fatal(err)
	}
	if sess, _ := s.AgentSession("C0GENERAL", parent.TS); sess.Status != "active" {
		t.Errorf("after stopStream: %+v, want active", sess)
	}
	_, ts, err = api.StartStreamContext(ctx, "C0GENERAL", append(recipient, slack.MsgOptionMarkdownText("Once more"))...)
	if err != nil {
		t.Fatal(err)
	}
	suspend := slack.UnsafeMsgOptionEndpoint(s.APIURL+"chat.stopStream", func(v url.Values) { v.Set("session_status", "suspended") })
	if _, _, err := api.StopStreamContext(ctx, "C0GENERAL", ts, suspend); err != nil {
		t.Fatal(err)
	}
	if sess, _ := s.AgentSession("C0GENERAL", parent.TS); sess.Status != "suspended" || sess.Title != "Deploy" {
		t.Errorf("after stopStream with session_status suspended: %+v", sess)
	}

	if r, err := api.RenameAgentSessionContext(ctx, slack.AgentSessionRenameParameters{Title: "Deploy v2", ChannelID: "C0GENERAL", ThreadTS: parent.TS}); err != nil || r.Title != "Deploy v2" {
		t.Errorf("rename: %+v, %v", r, err)
	}
	other, err := s.Mention(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0BOB", Text: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"an unknown status", func() error {
			_, err := api.SetAgentSessionStatusContext(ctx, slack.AgentSessionSetStatusParameters{Status: "done", ChannelID: "C0GENERAL", ThreadTS: parent.TS})
			return err
		}, "invalid_arguments"},
		{"no channel", func() error {
			_, err := api.SetAgentSessionStatusContext(ctx, slack.AgentSessionSetStatusParameters{Status: "active"})
			return err
		}, "invalid_arguments"},
		{"no thread", func() error {
			_, err := api.SetAgentSessionStatusContext(ctx, slack.AgentSessionSetStatusParameters{Status: "active", ChannelID: "C0GENERAL", ThreadTS: "1.000001"})
			return err
		}, "thread_not_found"},
		{"an icon without chat:write.customize", func() error {
			_, err := api.SetAgentSessionStatusContext(ctx, slack.AgentSessionSetStatusParameters{Status: "active", ChannelID: "C0GENERAL", ThreadTS: parent.TS, IconEmoji: ":rocket:"})
			return err
		}, "missing_scope"},
		{"a rename without a session", func() error {
			_, err := api.RenameAgentSessionContext(ctx, slack.AgentSessionRenameParameters{Title: "x", ChannelID: "C0GENERAL", ThreadTS: other.TS})
			return err
		}, "session_not_found"},
		{"an empty title", func() error {
			_, err := api.RenameAgentSessionContext(ctx, slack.AgentSessionRenameParameters{ChannelID: "C0GENERAL", ThreadTS: parent.TS})
			return err
		}, "invalid_arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); slackErr(err) != tt.want {
				t.Errorf("%v, want %s", err, tt.want)
			}
		})
	}
}

// TestAppContext: what the person has open comes as app_context_changed in
// their direct message with the app, then with their messages there.
func TestAppContext(t *testing.T) {
	t.Parallel()
	s, _, seen := aiServer(t)
	ctx := testContext(t)
	if _, err := s.ChangeAppContext(ctx, "U0ALICE", ChannelContext("C0GENERAL"), MessageContext("C0GENERAL", "1.000001")); err != nil {
		t.Fatal(err)
	}
	dm, _ := s.OpenDM("U0ALICE")
	ev, ok := eventOf(seen, func(e *slackevents.AppContextChangedEvent) bool { return true })
	if !ok || ev.Channel != dm || ev.User != "U0ALICE" || len(ev.Context.Entities) != 2 ||
		ev.Context.Entities[0].Value != "C0GENERAL" || ev.Context.Entities[1].Message == nil || ev.Context.Entities[1].Message.MessageTimestamp != "1.000001" {
		t.Fatalf("app_context_changed = %+v", ev)
	}
	ts, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: dm, UserID: "U0ALICE", Text: "what is this channel about?"})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := eventOf(seen, func(e *slackevents.MessageEvent) bool { return e.TimeStamp == ts }); !ok || m.AppContext == nil || len(m.AppContext.Entities) != 2 {
		t.Errorf("the person's message carries no app context: %+v", m)
	}
}

// TestAISurfaceOverHTTP delivers the AI surface's events to an app without
// Socket Mode: signed requests to /slack/events, and Slack's retry of one
// the app failed.
func TestAISurfaceOverHTTP(t *testing.T) {
	t.Parallel()
	failed := false
	var mu sync.Mutex
	app := &signedApp{answer: func(_ int, req appRequest, w http.ResponseWriter, _ *http.Request) bool {
		var body struct {
			Event struct {
				Type string `json:"type"`
			} `json:"event"`
		}
		_ = json.Unmarshal(req.body, &body)
		mu.Lock()
		defer mu.Unlock()
		if body.Event.Type == "agent_session_stopped" && !failed {
			failed = true
			w.WriteHeader(http.StatusInternalServerError)
			return true
		}
		return false
	}}
	s := newHTTPModeServer(t, app, WithScopes(append(DefaultScopes(), AIScopes()...)...), WithUnfurlDomains("docs.example.com"))
	api := botAPI(s)
	ctx := testContext(t)
	if _, err := s.OpenAssistantThread(ctx, "U0ALICE", "C0GENERAL"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ShareLinks(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "<https://docs.example.com/a>"}); err != nil {
		t.Fatal(err)
	}
	parent, err := s.Mention(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "deploy"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.SetAgentSessionStatusContext(ctx, slack.AgentSessionSetStatusParameters{Status: "processing", ChannelID: "C0GENERAL", ThreadTS: parent.TS}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StopAgentSession(ctx, "C0GENERAL", parent.TS, "U0ALICE"); err != nil {
		t.Fatal(err)
	}
	var types, stops []string
	for _, r := range app.seen.all() {
		var body struct {
			Event struct {
				Type string `json:"type"`
			} `json:"event"`
		}
		if r.path == PathEvents && json.Unmarshal(r.body, &body) == nil {
			types = append(types, body.Event.Type)
			if body.Event.Type == "agent_session_stopped" {
				stops = append(stops, r.retryNum+"/"+r.retryReason)
			}
		}
	}
	for _, want := range []string{"assistant_thread_started", "link_shared", "agent_session_stopped"} {
		if !slices.Contains(types, want) {
			t.Errorf("no %s over HTTP; got %v", want, types)
		}
	}
	if len(stops) != 2 || stops[1] != "1/http_error" {
		t.Errorf("agent_session_stopped deliveries = %v, want the first failed and retried once", stops)
	}
}
