package slacktest

import (
	"errors"
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

func section(text string) slack.Block {
	return slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil)
}

func sections(n int) []slack.Block {
	out := make([]slack.Block, n)
	for i := range out {
		out[i] = section("x")
	}
	return out
}

// freshTrigger runs a slash command and returns its fresh trigger id.
func freshTrigger(t *testing.T, s *Server) string {
	t.Helper()
	_, tr, err := s.SendSlashCommand(testContext(t), SlashCommand{Command: "/docs-agent", UserID: "U0ALICE", ChannelID: "C0GENERAL"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestViewsOpenValidation(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t)
	unknown := slack.NewSectionBlock(nil, nil, nil)
	tests := []struct {
		name    string
		view    slack.ModalViewRequest
		wantErr string
	}{
		{"valid", modal("Docs agent", sections(100)...), ""},
		{"101 blocks", modal("Docs agent", sections(101)...), "invalid_arguments"},
		{"section text over 3000", modal("Docs agent", section(strings.Repeat("y", 3001))), "invalid_arguments"},
		{"empty section", modal("Docs agent", unknown), "invalid_arguments"},
		{"missing title", func() slack.ModalViewRequest { v := modal("x", section("a")); v.Title = nil; return v }(), "invalid_arguments"},
		{"title over 24", modal(strings.Repeat("t", 25), section("a")), "invalid_arguments"},
		{"private_metadata over 3000", func() slack.ModalViewRequest {
			v := modal("x", section("a"))
			v.PrivateMetadata = strings.Repeat("m", 3001)
			return v
		}(), "invalid_arguments"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := api.OpenViewContext(testContext(t), freshTrigger(t, s), tc.view)
			if got := slackErr(err); got != tc.wantErr {
				t.Errorf("views.open error %q, want %q", got, tc.wantErr)
			}
			var se slack.SlackErrorResponse
			if tc.wantErr != "" && (!errors.As(err, &se) || len(se.ResponseMetadata.Messages) == 0) {
				t.Errorf("invalid_arguments without response_metadata.messages: %v", err)
			}
		})
	}
}

func TestUnknownBlockType(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t)
	sparkles := slack.UnknownBlock{Type: "sparkles"}
	_, _, err := api.PostMessageContext(testContext(t), "C0GENERAL", slack.MsgOptionBlocks(sparkles))
	if got := slackErr(err); got != "invalid_blocks" {
		t.Errorf("chat.postMessage with an unknown block type: %q, want invalid_blocks", got)
	}
	_, err = api.OpenViewContext(testContext(t), freshTrigger(t, s), modal("Docs agent", sparkles))
	if got := slackErr(err); got != "invalid_arguments" {
		t.Errorf("views.open with an unknown block type: %q, want invalid_arguments", got)
	}
}

func TestViewsUpdatePushPublish(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	var seen recorder[interaction]
	startClient(t, s, interactions(&seen, noAnswer))
	api := botAPI(s)
	ctx := testContext(t)
	first := modal("Docs agent", section("step 1"))
	first.ExternalID = "job-7"
	v, err := api.OpenViewContext(ctx, freshTrigger(t, s), first)
	if err != nil {
		t.Fatal(err)
	}
	if v.Type != slack.VTModal || v.ID == "" || v.Hash == "" || v.RootViewID != v.ID || v.CallbackID != "agent_form" {
		t.Fatalf("opened view = %+v", v.View)
	}
	tests := []struct {
		name               string
		externalID, viewID string
		hash               string
		wantErr            string
	}{
		{"by view_id with its hash", "", v.ID, v.Hash, ""},
		{"stale hash", "", v.ID, v.Hash, "hash_conflict"},
		{"by external_id", "job-7", "", "", ""},
		{"unknown view", "", "V0NOPE", "", "not_found"},
	}
	for _, tc := range tests {
		_, err := api.UpdateViewContext(ctx, modal("Docs agent", section(tc.name)), tc.externalID, tc.hash, tc.viewID)
		if got := slackErr(err); got != tc.wantErr {
			t.Errorf("%s: views.update error %q, want %q", tc.name, got, tc.wantErr)
		}
	}
	if got, _ := s.ViewByID(v.ID); got.Updates != 2 || !strings.Contains(string(got.Blocks), "by external_id") || got.Submit != "Run" || got.Close != "" {
		t.Errorf("view after updates = %+v", got)
	}

	// Pushing: an action in the modal gives a trigger; the stack holds three.
	btnView := modal("Docs agent", slack.NewActionBlock("b", slack.NewButtonBlockElement("more", "1", slack.NewTextBlockObject(slack.PlainTextType, "More", false, false))))
	if _, err := api.UpdateViewContext(ctx, btnView, "", "", v.ID); err != nil {
		t.Fatal(err)
	}
	for i, wantErr := range []string{"", "", "push_limit_reached"} {
		in, err := s.Act(ctx, Action{UserID: "U0ALICE", ViewID: v.ID, ActionID: "more"})
		if err != nil {
			t.Fatal(err)
		}
		if cb := waitLen(t, &seen, i+1)[i].cb; cb.Container.Type != "view" || cb.View.ID != v.ID {
			t.Errorf("action in a view: container %+v view %s", cb.Container, cb.View.ID)
		}
		_, err = api.PushViewContext(ctx, in.TriggerID, modal("Step", section("more")))
		if got := slackErr(err); got != wantErr {
			t.Errorf("push %d: error %q, want %q", i+1, got, wantErr)
		}
	}
	if stack := s.OpenModals("U0ALICE"); len(stack) != 3 || stack[0].ID != v.ID || stack[2].RootViewID != v.ID {
		t.Errorf("open modals = %+v, want 3 rooted at %s", stack, v.ID)
	}

	// The Home tab: the latest view per user is kept; a stale hash conflicts.
	home := slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: []slack.Block{section("Welcome")}}}
	h1, err := api.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: "U0BOB", View: home})
	if err != nil {
		t.Fatal(err)
	}
	home.Blocks = slack.Blocks{BlockSet: []slack.Block{section("Your jobs")}}
	if _, err := api.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: "U0BOB", View: home, Hash: &h1.Hash}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: "U0BOB", View: home, Hash: &h1.Hash}); slackErr(err) != "hash_conflict" {
		t.Errorf("publish with a stale hash: %v, want hash_conflict", err)
	}
	if _, err := api.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: "U0NOBODY", View: home}); slackErr(err) != "invalid_arguments" {
		t.Errorf("publish for an unknown user: %v, want invalid_arguments", err)
	}
	if hv, ok := s.HomeView("U0BOB"); !ok || hv.Type != "home" || !strings.Contains(string(hv.Blocks), "Your jobs") || hv.ID != h1.ID {
		t.Errorf("home view = %+v, %v", hv, ok)
	}
}

func TestOpenHome(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	var seen recorder[slackevents.EventsAPIInnerEvent]
	startClient(t, s, innerEvents(&seen))
	home := slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: []slack.Block{section("Welcome")}}}
	v, err := botAPI(s).PublishViewContext(testContext(t), slack.PublishViewContextRequest{UserID: "U0ALICE", View: home})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenHome(testContext(t), "U0ALICE"); err != nil {
		t.Fatal(err)
	}
	ev, ok := waitLen(t, &seen, 1)[0].Data.(*slackevents.AppHomeOpenedEvent)
	if !ok || ev.User != "U0ALICE" || ev.Tab != "home" || ev.View.ID != v.ID || ev.Channel == "" {
		t.Errorf("app_home_opened = %+v", ev)
	}
}
