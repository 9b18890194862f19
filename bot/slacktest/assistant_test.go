package slacktest

import (
	"errors"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

func TestThreadStatus(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t)
	ctx := testContext(t)
	parent, err := s.Mention(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "fix the quickstart"})
	if err != nil {
		t.Fatal(err)
	}
	set := func(status string) error {
		return api.SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{ChannelID: "C0GENERAL", ThreadTS: parent.TS, Status: status})
	}
	if err := set("is reading the docs…"); err != nil {
		t.Fatal(err)
	}
	if got := s.ThreadStatus("C0GENERAL", parent.TS); got != "is reading the docs…" {
		t.Fatalf("status = %q", got)
	}
	// The bot's post in the thread clears it, as on Slack.
	if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Done", false), slack.MsgOptionTS(parent.TS)); err != nil {
		t.Fatal(err)
	}
	if got := s.ThreadStatus("C0GENERAL", parent.TS); got != "" {
		t.Errorf("status after the bot posted in the thread = %q, want none", got)
	}
	if err := set("is writing…"); err != nil {
		t.Fatal(err)
	}
	if err := set(""); err != nil || s.ThreadStatus("C0GENERAL", parent.TS) != "" {
		t.Errorf("an empty status did not clear it: %v", err)
	}
	err = api.SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{ChannelID: "C0GENERAL", ThreadTS: "1.000001", Status: "x"})
	if got := slackErr(err); got != "thread_not_found" {
		t.Errorf("status in an unknown thread: %q, want thread_not_found", got)
	}
}

// aiServer is a server whose token has the AI surface's scopes too, with a
// client recording the inner events it acknowledges, and a bot client.
func aiServer(t *testing.T, opts ...Option) (*Server, *slack.Client, *recorder[slackevents.EventsAPIInnerEvent]) {
	t.Helper()
	s := newTestServer(t, append([]Option{WithScopes(append(DefaultScopes(), AIScopes()...)...)}, opts...)...)
	var seen recorder[slackevents.EventsAPIInnerEvent]
	startClient(t, s, innerEvents(&seen))
	return s, botAPI(s), &seen
}

// eventOf returns the last event of type T for which match holds.
func eventOf[T any](seen *recorder[slackevents.EventsAPIInnerEvent], match func(*T) bool) (*T, bool) {
	all := seen.all()
	for i := len(all) - 1; i >= 0; i-- {
		if d, ok := all[i].Data.(*T); ok && match(d) {
			return d, true
		}
	}
	return nil, false
}

// waitEvent waits until seen holds an event of type T for which match
// holds (acks wake the server's WaitFor, and events are recorded before
// their ack) and returns the last such one.
func waitEvent[T any](t *testing.T, s *Server, seen *recorder[slackevents.EventsAPIInnerEvent], match func(*T) bool) *T {
	t.Helper()
	var got *T
	if err := s.WaitFor(testContext(t), func() bool {
		var ok bool
		got, ok = eventOf(seen, match)
		return ok
	}); err != nil {
		var zero T
		t.Fatalf("no %T event came: %v", zero, err)
	}
	return got
}

// TestAssistantThread opens the assistant pane as a person does and drives
// the thread with the real slack-go client: Slack's events, prompts for
// an agent app, the title, and the person's messages in the thread.
func TestAssistantThread(t *testing.T) {
	t.Parallel()
	s, api, seen := aiServer(t)
	ctx := testContext(t)
	s.AddChannel(Channel{ID: "C0DOCS", Name: "docs", BotMember: true})
	th, err := s.OpenAssistantThread(ctx, "U0ALICE", "C0GENERAL")
	if err != nil || th.EventID == "" {
		t.Fatalf("open: %+v, %v", th, err)
	}
	started, ok := eventOf(seen, func(e *slackevents.AssistantThreadStartedEvent) bool { return true })
	if !ok || started.AssistantThread.ChannelID != th.Channel || started.AssistantThread.ThreadTimeStamp != th.ThreadTS ||
		started.AssistantThread.UserID != "U0ALICE" || started.AssistantThread.Context.ChannelID != "C0GENERAL" {
		t.Fatalf("assistant_thread_started = %+v", started)
	}
	if root, _ := s.Message(th.Channel, th.ThreadTS); root.Subtype != "assistant_app_thread" || root.User != "U0BOT" {
		t.Errorf("the thread's first message = %+v", root)
	}
	if _, ok := eventOf(seen, func(e *slackevents.MessageEvent) bool { return e.SubType == "assistant_app_thread" }); !ok {
		t.Error("no message event for the thread's first message")
	}

	prompts := slack.AssistantThreadsSetSuggestedPromptsParameters{ChannelID: th.Channel, Title: "Try"}
	prompts.AddPrompt("Deploy", "deploy the docs")
	prompts.AddPrompt("Visitors", "how many visitors this week?")
	if err := api.SetAssistantThreadsSuggestedPromptsContext(ctx, prompts); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.SuggestedPrompts(th.Channel, ""); !ok || got.Title != "Try" || len(got.Prompts) != 2 || got.Prompts[1].Message != "how many visitors this week?" {
		t.Errorf("prompts = %+v", got)
	}
	perThread := prompts
	perThread.ThreadTS = th.ThreadTS
	if err := api.SetAssistantThreadsSuggestedPromptsContext(ctx, perThread); err != nil {
		t.Errorf("prompts with thread_ts: %v (Slack answers ok)", err)
	}
	if _, ok := s.SuggestedPrompts(th.Channel, th.ThreadTS); ok {
		t.Error("an agent app's prompts with thread_ts were set: Slack silently ignores them")
	}
	five := slack.AssistantThreadsSetSuggestedPromptsParameters{ChannelID: th.Channel}
	for i := range 5 {
		five.AddPrompt("p", string(rune('a'+i)))
	}
	if err := api.SetAssistantThreadsSuggestedPromptsContext(ctx, five); slackErr(err) != "invalid_arguments" {
		t.Errorf("five prompts: %v", err)
	}

	if err := api.SetAssistantThreadsTitleContext(ctx, slack.AssistantThreadsSetTitleParameters{ChannelID: th.Channel, ThreadTS: th.ThreadTS, Title: "Deploying the docs"}); err != nil {
		t.Fatal(err)
	}
	if got := s.ThreadTitle(th.Channel, th.ThreadTS); got != "Deploying the docs" {
		t.Errorf("title = %q", got)
	}
	waitEvent(t, s, seen, func(e *slackevents.MessageEvent) bool {
		return e.SubType == "message_changed" && e.Message != nil && e.Message.Timestamp == th.ThreadTS
	})
	err = api.SetAssistantThreadsTitleContext(ctx, slack.AssistantThreadsSetTitleParameters{ChannelID: th.Channel, ThreadTS: "1.000001", Title: "x"})
	if slackErr(err) != "invalid_thread_ts" {
		t.Errorf("a title for no thread: %v", err)
	}

	ts, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: th.Channel, UserID: "U0ALICE", ThreadTS: th.ThreadTS, Text: "deploy the docs"})
	if err != nil {
		t.Fatal(err)
	}
	if msg, ok := eventOf(seen, func(e *slackevents.MessageEvent) bool { return e.TimeStamp == ts }); !ok || msg.AssistantThread == nil || msg.AssistantThread.ActionToken == "" || msg.ThreadTimeStamp != th.ThreadTS {
		t.Errorf("the person's message in the thread: %+v", msg)
	}
	if _, err := s.ChangeAssistantContext(ctx, th.Channel, th.ThreadTS, "C0DOCS"); err != nil {
		t.Fatal(err)
	}
	if changed, ok := eventOf(seen, func(e *slackevents.AssistantThreadContextChangedEvent) bool { return true }); !ok || changed.AssistantThread.Context.ChannelID != "C0DOCS" {
		t.Errorf("assistant_thread_context_changed = %+v", changed)
	}
}

// TestAssistantWithoutScope shows what a token without assistant:write
// gets: no assistant events, and missing_scope from the methods that need it.
func TestAssistantWithoutScope(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t, WithoutAIScopes())
	ctx := testContext(t)
	th, err := s.OpenAssistantThread(ctx, "U0ALICE", "")
	if err != nil || th.EventID != "" {
		t.Fatalf("open without assistant:write: %+v, %v; want no event", th, err)
	}
	err = api.SetAssistantThreadsTitleContext(ctx, slack.AssistantThreadsSetTitleParameters{ChannelID: th.Channel, ThreadTS: th.ThreadTS, Title: "x"})
	var se slack.SlackErrorResponse
	if !errors.As(err, &se) || se.Err != "missing_scope" || se.Needed != "assistant:write" {
		t.Errorf("title without assistant:write: %v", err)
	}
	if err := api.SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{ChannelID: th.Channel, ThreadTS: th.ThreadTS, Status: "is working…"}); err != nil {
		t.Errorf("status with chat:write alone: %v", err)
	}
}

// TestAssistantView: an app with the older assistant view sets prompts per thread.
func TestAssistantView(t *testing.T) {
	t.Parallel()
	s, api, _ := aiServer(t, WithAssistantView())
	ctx := testContext(t)
	th, err := s.OpenAssistantThread(ctx, "U0BOB", "")
	if err != nil {
		t.Fatal(err)
	}
	p := slack.AssistantThreadsSetSuggestedPromptsParameters{ChannelID: th.Channel, ThreadTS: th.ThreadTS}
	p.AddPrompt("Ask", "what changed?")
	if err := api.SetAssistantThreadsSuggestedPromptsContext(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.SuggestedPrompts(th.Channel, th.ThreadTS); !ok || got.Prompts[0].Title != "Ask" {
		t.Errorf("prompts of the thread = %+v, %v", got, ok)
	}
	p.ThreadTS = "1.000001"
	if err := api.SetAssistantThreadsSuggestedPromptsContext(ctx, p); slackErr(err) != "invalid_thread_ts" {
		t.Errorf("prompts for no thread: %v", err)
	}
}
