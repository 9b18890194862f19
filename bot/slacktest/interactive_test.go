package slacktest

import (
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

// interaction is an interactive envelope as the client saw it.
type interaction struct {
	cb      slack.InteractionCallback
	attempt int
	accepts bool
}

// interactions records interactive envelopes and acks each with the
// payload answer returns (nil for none).
func interactions(r *recorder[interaction], answer func(slack.InteractionCallback) any) handler {
	return func(sm *socketmode.Client, e socketmode.Event) {
		if e.Type != socketmode.EventTypeInteractive {
			if e.Request != nil && e.Request.EnvelopeID != "" {
				_ = sm.Ack(*e.Request)
			}
			return
		}
		cb := e.Data.(slack.InteractionCallback)
		r.add(interaction{cb: cb, attempt: e.Request.RetryAttempt, accepts: e.Request.AcceptsResponsePayload})
		if p := answer(cb); p != nil {
			_ = sm.Ack(*e.Request, p)
			return
		}
		_ = sm.Ack(*e.Request)
	}
}

func noAnswer(slack.InteractionCallback) any { return nil }

// buttonMessage posts a bot message with a button and returns its ts.
func buttonMessage(t *testing.T, s *Server) string {
	t.Helper()
	btn := slack.NewButtonBlockElement("approve", "job-7", slack.NewTextBlockObject(slack.PlainTextType, "Approve", false, false))
	blocks := slack.MsgOptionBlocks(slack.NewActionBlock("job_actions", btn))
	_, ts, err := botAPI(s).PostMessageContext(testContext(t), "C0GENERAL", slack.MsgOptionText("Job 7 is ready", false), blocks)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestBlockActions(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithEchoBotMessages(false))
	var seen recorder[interaction]
	startClient(t, s, interactions(&seen, noAnswer))
	ts := buttonMessage(t, s)
	in, err := s.Act(testContext(t), Action{UserID: "U0ALICE", ChannelID: "C0GENERAL", MessageTS: ts, ActionID: "approve"})
	if err != nil {
		t.Fatal(err)
	}
	cb := waitLen(t, &seen, 1)[0].cb
	if cb.Type != slack.InteractionTypeBlockActions || cb.User.ID != "U0ALICE" || cb.TriggerID != in.TriggerID || cb.ResponseURL != in.ResponseURL || in.ResponseURL == "" {
		t.Errorf("callback = type %s user %s trigger %s response_url %s", cb.Type, cb.User.ID, cb.TriggerID, cb.ResponseURL)
	}
	if n := len(cb.ActionCallback.BlockActions); n != 1 {
		t.Fatalf("%d actions, want 1", n)
	}
	act := cb.ActionCallback.BlockActions[0]
	if act.ActionID != "approve" || act.BlockID != "job_actions" || act.Value != "job-7" {
		t.Errorf("action = %+v, want approve/job_actions/job-7", act)
	}
	if cb.Container.Type != "message" || cb.Container.MessageTs != ts || cb.Container.ChannelID != "C0GENERAL" || cb.Message.Timestamp != ts || cb.Channel.ID != "C0GENERAL" {
		t.Errorf("container = %+v, message ts %s, channel %s", cb.Container, cb.Message.Timestamp, cb.Channel.ID)
	}

	// The response_url replaces the message that holds the button.
	if err := slack.PostWebhookContext(testContext(t), in.ResponseURL, &slack.WebhookMessage{Text: "Approved", ReplaceOriginal: true}); err != nil {
		t.Fatal(err)
	}
	if m, _ := s.Message("C0GENERAL", ts); m.Text != "Approved" || !m.Edited {
		t.Errorf("message after replace_original = %+v", m)
	}

	// Redeliver sends the same envelope again with retry_attempt 1.
	if err := s.Redeliver(testContext(t), in.EnvelopeID); err != nil {
		t.Fatal(err)
	}
	if again := waitLen(t, &seen, 2)[1]; again.attempt != 1 || again.cb.TriggerID != in.TriggerID {
		t.Errorf("redelivery = attempt %d trigger %s, want 1 and %s", again.attempt, again.cb.TriggerID, in.TriggerID)
	}

	if _, err := s.Act(testContext(t), Action{UserID: "U0ALICE", ChannelID: "C0GENERAL", MessageTS: ts, ActionID: "nope"}); err == nil {
		t.Error("an action on an element that is not in the message was delivered")
	}
}

func modal(title string, blocks ...slack.Block) slack.ModalViewRequest {
	return slack.ModalViewRequest{
		Type:            slack.VTModal,
		Title:           slack.NewTextBlockObject(slack.PlainTextType, title, false, false),
		Submit:          slack.NewTextBlockObject(slack.PlainTextType, "Run", false, false),
		Blocks:          slack.Blocks{BlockSet: blocks},
		CallbackID:      "agent_form",
		PrivateMetadata: `{"channel":"C0GENERAL"}`,
		NotifyOnClose:   true,
	}
}

func instructionInput() slack.Block {
	return slack.NewInputBlock("instruction", slack.NewTextBlockObject(slack.PlainTextType, "Instruction", false, false), nil,
		slack.NewPlainTextInputBlockElement(nil, "text"))
}

func TestTriggerIDs(t *testing.T) {
	t.Parallel()
	clk := NewManualClock(time.Now())
	s, api := connectedServer(t, WithClock(clk.Now))
	open := func(trigger string) string {
		_, err := api.OpenViewContext(testContext(t), trigger, modal("Docs agent", instructionInput()))
		return slackErr(err)
	}
	cmd := func() string {
		_, trigger, err := s.SendSlashCommand(testContext(t), SlashCommand{Command: "/docs-agent", UserID: "U0ALICE", ChannelID: "C0GENERAL"})
		if err != nil {
			t.Fatal(err)
		}
		return trigger
	}
	used, late := cmd(), cmd()
	if got := open(used); got != "" {
		t.Fatalf("first use of a trigger: %s", got)
	}
	clk.Advance(3*time.Second + time.Millisecond)
	tests := []struct {
		name, trigger, want string
	}{
		{"used", used, "exchanged_trigger_id"},
		{"expired", late, "expired_trigger_id"},
		{"unknown", "123.456.abcdef", "invalid_trigger_id"},
		{"malformed", "not-a-trigger", "invalid_trigger_id"},
	}
	for _, tc := range tests {
		if got := open(tc.trigger); got != tc.want {
			t.Errorf("%s trigger: views.open error %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestViewSubmissionAndClose(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	var seen recorder[interaction]
	startClient(t, s, interactions(&seen, func(cb slack.InteractionCallback) any {
		if cb.Type == slack.InteractionTypeViewSubmission && cb.View.State.Values["instruction"]["text"].Value == "" {
			return slack.NewErrorsViewSubmissionResponse(map[string]string{"instruction": "Say what to do"})
		}
		return nil
	}))
	api := botAPI(s)
	sc, err := s.Shortcut(testContext(t), Shortcut{UserID: "U0BOB", CallbackID: "ask_docs"})
	if err != nil {
		t.Fatal(err)
	}
	if cb := waitLen(t, &seen, 1)[0].cb; cb.Type != slack.InteractionTypeShortcut || cb.CallbackID != "ask_docs" || cb.TriggerID != sc.TriggerID {
		t.Fatalf("shortcut callback = %+v", cb)
	}
	v, err := api.OpenViewContext(testContext(t), sc.TriggerID, modal("Docs agent", instructionInput()))
	if err != nil {
		t.Fatal(err)
	}
	// An empty submission gets the errors answer; the modal stays open.
	if _, err := s.SubmitView(testContext(t), ViewSubmission{ViewID: v.ID}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ViewByID(v.ID); !got.Open || got.Errors["instruction"] == "" {
		t.Fatalf("after an errors answer the view is %+v", got)
	}
	sub, err := s.SubmitView(testContext(t), ViewSubmission{ViewID: v.ID, Values: map[string]map[string]string{"instruction": {"text": "fix typos"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := waitLen(t, &seen, 3)[2]
	cb := got.cb
	if cb.Type != slack.InteractionTypeViewSubmission || !got.accepts || cb.TriggerID != sub.TriggerID || cb.View.CallbackID != "agent_form" ||
		cb.View.PrivateMetadata != `{"channel":"C0GENERAL"}` || cb.View.State.Values["instruction"]["text"].Value != "fix typos" {
		t.Errorf("view_submission = type %s accepts %v callback %q metadata %q state %+v", cb.Type, got.accepts, cb.View.CallbackID, cb.View.PrivateMetadata, cb.View.State)
	}
	if after, _ := s.ViewByID(v.ID); after.Open {
		t.Error("the modal is still open after a plain ack of its submission")
	}

	// A modal with notify_on_close sends view_closed when cancelled.
	ms, err := s.MessageShortcut(testContext(t), MessageShortcut{UserID: "U0ALICE", CallbackID: "explain", ChannelID: "C0GENERAL", MessageTS: buttonMessage(t, s)})
	if err != nil {
		t.Fatal(err)
	}
	mcb := waitLen(t, &seen, 4)[3].cb
	if mcb.Type != slack.InteractionTypeMessageAction || mcb.CallbackID != "explain" || mcb.Channel.ID != "C0GENERAL" || mcb.Message.Text != "Job 7 is ready" || mcb.ResponseURL != ms.ResponseURL || mcb.TriggerID != ms.TriggerID {
		t.Errorf("message_action = %+v", mcb)
	}
	v2, err := api.OpenViewContext(testContext(t), ms.TriggerID, modal("Explain", instructionInput()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CloseView(testContext(t), v2.ID); err != nil {
		t.Fatal(err)
	}
	if cb := waitLen(t, &seen, 5)[4].cb; cb.Type != slack.InteractionTypeViewClosed || cb.View.ID != v2.ID {
		t.Errorf("view_closed = %+v", cb)
	}
}

func TestShortcutAck(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	var seen recorder[interaction]
	startClient(t, s, interactions(&seen, noAnswer))
	in, err := s.Shortcut(testContext(t), Shortcut{UserID: "U0ALICE", CallbackID: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if in.Ack == nil || in.Ack.Payload != nil || in.Ack.EnvelopeID != in.EnvelopeID {
		t.Errorf("ack = %+v, want one without payload for %s", in.Ack, in.EnvelopeID)
	}
	if _, err := s.Shortcut(testContext(t), Shortcut{UserID: "U0NOBODY"}); err == nil {
		t.Error("a shortcut by an unknown user was delivered")
	}
}
