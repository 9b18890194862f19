package slacktest

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

func unfurlOf(text string) slack.Attachment {
	return slack.Attachment{Blocks: slack.Blocks{BlockSet: []slack.Block{
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil)}}}
}

// TestUnfurls shares links as a person does and unfurls them with the real
// slack-go client, by channel and ts and by unfurl_id and source, with
// Slack's refusals.
func TestUnfurls(t *testing.T) {
	t.Parallel()
	s, api, seen := aiServer(t, WithUnfurlDomains("docs.example.com"))
	ctx := testContext(t)
	const keys = "https://docs.example.com/keys"
	shared, err := s.ShareLinks(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE",
		Text: "see <" + keys + "|keys>, <https://api.docs.example.com/v2> and <https://other.org/x>"})
	if err != nil {
		t.Fatal(err)
	}
	want := []SharedLink{{"docs.example.com", keys}, {"docs.example.com", "https://api.docs.example.com/v2"}}
	if shared.Source != "conversations_history" || !strings.HasPrefix(shared.UnfurlID, "C0GENERAL.") || len(shared.Links) != 2 || shared.Links[0] != want[0] || shared.Links[1] != want[1] {
		t.Fatalf("shared = %+v", shared)
	}
	ev, ok := eventOf(seen, func(e *slackevents.LinkSharedEvent) bool { return e.MessageTimeStamp == shared.TS })
	if !ok || ev.Channel != "C0GENERAL" || ev.User != "U0ALICE" || len(ev.Links) != 2 || ev.Links[1].Domain != "docs.example.com" {
		t.Fatalf("link_shared = %+v", ev)
	}

	if _, _, _, err := api.UnfurlMessageContext(ctx, "C0GENERAL", shared.TS, map[string]slack.Attachment{keys: unfurlOf("*Keys*: rotate them")}); err != nil {
		t.Fatal(err)
	}
	u := s.Unfurls("C0GENERAL", shared.TS)[keys]
	if !strings.Contains(string(u.Blocks), "rotate them") || u.Updates != 0 {
		t.Fatalf("unfurl = %+v", u)
	}
	waitEvent(t, s, seen, func(e *slackevents.MessageEvent) bool {
		return e.SubType == "message_changed" && e.Message != nil && e.Message.Timestamp == shared.TS && len(e.Message.Attachments) == 1 && e.Message.Attachments[0].FromURL == keys
	})
	if _, _, _, err := api.UnfurlMessageByIDContext(ctx, shared.UnfurlID, shared.Source, map[string]slack.Attachment{keys: unfurlOf("*Keys*: updated")}); err != nil {
		t.Fatal(err)
	}
	if u := s.Unfurls("C0GENERAL", shared.TS)[keys]; !strings.Contains(string(u.Blocks), "updated") || u.Updates != 1 {
		t.Errorf("unfurl by id = %+v", u)
	}
	entity := slack.WorkObjectEntity{URL: "https://api.docs.example.com/v2", EntityType: "slack#/entities/file",
		ExternalRef: slack.WorkObjectExternalRef{ID: "v2"}, EntityPayload: map[string]any{"attributes": map[string]any{"title": map[string]any{"text": "API v2"}}}}
	if _, _, _, err := api.UnfurlMessageWorkObjectContext(ctx, "C0GENERAL", shared.TS, nil, slack.WorkObjectMetadata{Entities: []slack.WorkObjectEntity{entity}}); err != nil {
		t.Fatal(err)
	}
	if u := s.Unfurls("C0GENERAL", shared.TS)[entity.URL]; !strings.Contains(string(u.Entity), "API v2") {
		t.Errorf("work object = %+v", u)
	}

	plain, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0BOB", Text: "no links here"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.LinkShare("C0GENERAL", plain); ok {
		t.Error("link_shared for a message without links")
	}
	s.RefuseBlockType("data_visualization")
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"a link to another domain", func() error {
			_, _, _, err := api.UnfurlMessageContext(ctx, "C0GENERAL", shared.TS, map[string]slack.Attachment{"https://other.org/x": unfurlOf("x")})
			return err
		}, "cannot_unfurl_url"},
		{"a link not in the message", func() error {
			_, _, _, err := api.UnfurlMessageContext(ctx, "C0GENERAL", shared.TS, map[string]slack.Attachment{"https://docs.example.com/else": unfurlOf("x")})
			return err
		}, "cannot_unfurl_message"},
		{"a refused block", func() error {
			_, _, _, err := api.UnfurlMessageContext(ctx, "C0GENERAL", shared.TS, map[string]slack.Attachment{keys: {Blocks: slack.Blocks{BlockSet: []slack.Block{barChart("Visits", 1, 2)}}}})
			return err
		}, "invalid_blocks"},
		{"a message without shared links", func() error {
			_, _, _, err := api.UnfurlMessageContext(ctx, "C0GENERAL", plain, map[string]slack.Attachment{keys: unfurlOf("x")})
			return err
		}, "cannot_unfurl_url"},
		{"no message", func() error {
			_, _, _, err := api.UnfurlMessageContext(ctx, "C0GENERAL", "1.000001", map[string]slack.Attachment{keys: unfurlOf("x")})
			return err
		}, "cannot_find_message"},
		{"no channel", func() error {
			_, _, _, err := api.UnfurlMessageContext(ctx, "C0NOPE", shared.TS, map[string]slack.Attachment{keys: unfurlOf("x")})
			return err
		}, "cannot_find_channel"},
		{"an unknown unfurl id", func() error {
			_, _, _, err := api.UnfurlMessageByIDContext(ctx, "C0GENERAL.1.2.abc", "conversations_history", map[string]slack.Attachment{keys: unfurlOf("x")})
			return err
		}, "cannot_unfurl_url"},
		{"the wrong source", func() error {
			_, _, _, err := api.UnfurlMessageByIDContext(ctx, shared.UnfurlID, "composer", map[string]slack.Attachment{keys: unfurlOf("x")})
			return err
		}, "cannot_unfurl_url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); slackErr(err) != tt.want {
				t.Errorf("%v, want %s", err, tt.want)
			}
		})
	}

	draft, err := s.ComposeLinks(ctx, "U0BOB", "look at https://docs.example.com/quickstart")
	if err != nil || draft.Source != "composer" || draft.Channel != "COMPOSER" {
		t.Fatalf("composer: %+v, %v", draft, err)
	}
	if _, _, _, err := api.UnfurlMessageByIDContext(ctx, draft.UnfurlID, "composer", map[string]slack.Attachment{"https://docs.example.com/quickstart": unfurlOf("Quickstart")}); err != nil {
		t.Fatal(err)
	}
	if u := s.UnfurlsByID(draft.UnfurlID); len(u) != 1 {
		t.Errorf("composer unfurls = %+v", u)
	}
}

// TestUnfurlScopes: without links:read no link_shared comes; without
// links:write chat.unfurl is missing_scope.
func TestUnfurlScopes(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	blind, _ := connectedServer(t, WithUnfurlDomains("docs.example.com"), WithoutAIScopes())
	if _, err := blind.ShareLinks(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "<https://docs.example.com/a>"}); err == nil {
		t.Error("link_shared without links:read")
	}
	mute, api := connectedServer(t, WithUnfurlDomains("docs.example.com"), WithScopes(slices.DeleteFunc(DefaultScopes(), func(s string) bool { return s == "links:write" })...))
	shared, err := mute.ShareLinks(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "<https://docs.example.com/a>"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := api.UnfurlMessageContext(ctx, "C0GENERAL", shared.TS, map[string]slack.Attachment{"https://docs.example.com/a": unfurlOf("a")}); slackErr(err) != "missing_scope" {
		t.Errorf("unfurl without links:write: %v", err)
	}
}

// TestUnfurlBeforeAck: an app that unfurls before acknowledging link_shared
// gets cannot_unfurl_url, as Slack documents; after the ack it may.
func TestUnfurlBeforeAck(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithUnfurlDomains("docs.example.com"), WithScopes(append(DefaultScopes(), AIScopes()...)...))
	api := botAPI(s)
	var mu sync.Mutex
	var early error
	var raw json.RawMessage
	startClient(t, s, func(sm *socketmode.Client, e socketmode.Event) {
		if e.Type != socketmode.EventTypeEventsAPI {
			return
		}
		if ls, ok := e.Data.(slackevents.EventsAPIEvent).InnerEvent.Data.(*slackevents.LinkSharedEvent); ok {
			_, _, _, err := api.UnfurlMessage(ls.Channel, ls.MessageTimeStamp, map[string]slack.Attachment{ls.Links[0].URL: unfurlOf("early")})
			mu.Lock()
			early, raw = err, e.Request.Payload
			mu.Unlock()
		}
		_ = sm.Ack(*e.Request)
	})
	shared, err := s.ShareLinks(testContext(t), UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "<https://docs.example.com/a>"})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if slackErr(early) != "cannot_unfurl_url" {
		t.Errorf("unfurl before the ack: %v", early)
	}
	// slack-go's LinkSharedEvent has no unfurl_id nor source: an app reads
	// them from the envelope's payload.
	var p struct {
		Event struct {
			UnfurlID string `json:"unfurl_id"`
			Source   string `json:"source"`
		} `json:"event"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || p.Event.UnfurlID != shared.UnfurlID || p.Event.Source != "conversations_history" {
		t.Errorf("payload's unfurl_id and source = %+v, %v", p.Event, err)
	}
	if _, _, _, err := api.UnfurlMessageByIDContext(testContext(t), shared.UnfurlID, shared.Source, map[string]slack.Attachment{"https://docs.example.com/a": unfurlOf("late")}); err != nil {
		t.Errorf("unfurl after the ack: %v", err)
	}
}
