package slackweb_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"slices"
	"sync"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store/redistest"
)

// The test app's ids and texts, which the tests look for.
const (
	shortcutID    = "send_to_docs_agent"
	followUpID    = "follow_up"
	cancelID      = "cancel"
	viewPRID      = "view_pr"
	overflowID    = "more"
	feedbackID    = "feedback"
	refreshID     = "refresh"
	inputBlock    = "instruction"
	inputAction   = "text"
	priorityBlock = "priority"
	badFollowUp   = "bad"
	followUpError = "Say more than that."
	// injection is text that would be markup if the page parsed it as HTML;
	// the app puts it, Slack-escaped, in blocks, a modal and the Home tab.
	injection = "<img src=x onerror=alert(1)>"
)

// seenItem is one thing the test app received: an event or interaction
// type, and its action id or callback id and value.
type seenItem struct {
	Kind, ID, Value, Text string
}

// testApp is a minimal Slack app on slack-go's Socket Mode client, in place
// of the real bot: it answers a mention with blocks in the thread and sets
// the thread's status, echoes a direct message with two uploaded files,
// opens a modal on a button or the message shortcut, answers a submission
// with errors or a post, reacts on Cancel and publishes a Home tab.
type testApp struct {
	api *slack.Client

	mu   sync.Mutex
	seen []seenItem
}

// startApp runs the test app against w's Slack until the test ends.
func (w *world) startApp(t *testing.T) *testApp {
	t.Helper()
	a := &testApp{api: slack.New(w.slack.BotToken(), slack.OptionAPIURL(w.slack.APIURL))}
	ctx, cancel := context.WithCancel(context.Background())
	stop, err := w.slack.Connect(testContext(t), func(sm *socketmode.Client, e socketmode.Event) { a.handle(ctx, t, sm, e) })
	if err != nil {
		cancel()
		t.Fatalf("the test app did not connect: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		stop()
	})
	return a
}

// fail reports an error of the app, unless the test is over and the app
// stopping is what made its call fail.
func fail(ctx context.Context, t *testing.T, format string, args ...any) {
	t.Helper()
	if ctx.Err() == nil {
		t.Errorf(format, args...)
	}
}

func (a *testApp) record(it seenItem) {
	a.mu.Lock()
	a.seen = append(a.seen, it)
	a.mu.Unlock()
}

// wait waits until the app received what match accepts.
func (a *testApp) wait(t *testing.T, what string, match func(seenItem) bool) {
	t.Helper()
	redistest.Until(t, "the app to receive "+what, func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		return slices.ContainsFunc(a.seen, match)
	})
}

func (a *testApp) handle(ctx context.Context, t *testing.T, sm *socketmode.Client, e socketmode.Event) {
	switch e.Type {
	case socketmode.EventTypeEventsAPI:
		sm.Ack(*e.Request)
		ev, _ := e.Data.(slackevents.EventsAPIEvent)
		a.event(ctx, t, ev.InnerEvent.Data)
	case socketmode.EventTypeInteractive:
		cb, _ := e.Data.(slack.InteractionCallback)
		a.interaction(ctx, t, sm, e.Request, cb)
	case socketmode.EventTypeSlashCommand:
		sm.Ack(*e.Request)
	}
}

func (a *testApp) event(ctx context.Context, t *testing.T, data any) {
	switch ev := data.(type) {
	case *slackevents.AppMentionEvent:
		a.record(seenItem{Kind: "app_mention", Text: ev.Text})
		thread := ev.ThreadTimeStamp
		if thread == "" {
			thread = ev.TimeStamp
		}
		if _, _, err := a.api.PostMessageContext(ctx, ev.Channel, slack.MsgOptionTS(thread),
			slack.MsgOptionText("Job started", false), slack.MsgOptionBlocks(jobBlocks()...)); err != nil {
			fail(ctx, t, "the app's post: %v", err)
		}
		if err := a.api.SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{
			ChannelID: ev.Channel, ThreadTS: thread, Status: "is working…"}); err != nil {
			fail(ctx, t, "the app's status: %v", err)
		}
	case *slackevents.MessageEvent:
		if ev.BotID != "" || ev.User == "" {
			return
		}
		a.record(seenItem{Kind: "message." + ev.ChannelType, Text: ev.Text})
		if ev.ChannelType != "im" {
			return
		}
		if _, _, err := a.api.PostMessageContext(ctx, ev.Channel, slack.MsgOptionText("You said: "+ev.Text, false)); err != nil {
			fail(ctx, t, "the app's answer: %v", err)
		}
		for _, f := range []slack.UploadFileParameters{
			{Filename: "chart.png", Title: "Visitors", Reader: bytes.NewReader(pngImage()), AltTxt: "a chart"},
			{Filename: "visitors.csv", Title: "visitors.csv", Content: "path,visitors\n/docs,12\n"},
		} {
			f.Channel = ev.Channel
			if f.Reader != nil {
				f.FileSize = len(pngImage())
			} else {
				f.FileSize = len(f.Content)
			}
			if _, err := a.api.UploadFileContext(ctx, f); err != nil {
				fail(ctx, t, "the app's upload of %s: %v", f.Filename, err)
			}
		}
		// An image shared nowhere, shown by an image block by its id.
		chart, err := a.api.UploadFileContext(ctx, slack.UploadFileParameters{Filename: "block.png", Reader: bytes.NewReader(pngImage()), FileSize: len(pngImage())})
		if err != nil {
			fail(ctx, t, "the app's upload of block.png: %v", err)
			return
		}
		if _, _, err := a.api.PostMessageContext(ctx, ev.Channel, slack.MsgOptionText("chart", false), slack.MsgOptionBlocks(
			slack.NewImageBlockSlackFile(&slack.SlackFileObject{ID: chart.ID}, "the chart in a block", "chart", nil))); err != nil {
			fail(ctx, t, "the app's image block: %v", err)
		}
	case *slackevents.AppHomeOpenedEvent:
		a.record(seenItem{Kind: "app_home_opened"})
		a.publishHome(ctx, t, ev.User, "Welcome")
	}
}

func (a *testApp) interaction(ctx context.Context, t *testing.T, sm *socketmode.Client, req *socketmode.Request, cb slack.InteractionCallback) {
	switch cb.Type {
	case slack.InteractionTypeBlockActions:
		sm.Ack(*req)
		act := cb.ActionCallback.BlockActions[0]
		value := act.Value
		if act.SelectedOption.Value != "" {
			value = act.SelectedOption.Value
		}
		a.record(seenItem{Kind: "block_actions", ID: act.ActionID, Value: value})
		switch act.ActionID {
		case followUpID:
			a.openModal(ctx, t, cb.TriggerID)
		case cancelID:
			ref := slack.ItemRef{Channel: cb.Channel.ID, Timestamp: cb.Container.MessageTs}
			if err := a.api.AddReactionContext(ctx, "x", ref); err != nil {
				fail(ctx, t, "the app's reaction: %v", err)
			}
			if _, _, err := a.api.PostMessageContext(ctx, cb.Channel.ID, slack.MsgOptionTS(cb.Container.ThreadTs),
				slack.MsgOptionText("Cancelled.", false)); err != nil {
				fail(ctx, t, "the app's post: %v", err)
			}
		case refreshID:
			a.publishHome(ctx, t, cb.User.ID, "Refreshed")
		}
	case slack.InteractionTypeMessageAction:
		sm.Ack(*req)
		a.record(seenItem{Kind: "message_action", ID: cb.CallbackID, Text: cb.Message.Text})
		a.openModal(ctx, t, cb.TriggerID)
	case slack.InteractionTypeViewSubmission:
		text := cb.View.State.Values[inputBlock][inputAction].Value
		priority := cb.View.State.Values[priorityBlock]["choice"].SelectedOption.Value
		a.record(seenItem{Kind: "view_submission", Text: text, Value: priority})
		if text == badFollowUp {
			sm.Ack(*req, map[string]any{"response_action": "errors", "errors": map[string]string{inputBlock: followUpError}})
			return
		}
		sm.Ack(*req)
		if _, _, err := a.api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Follow-up: "+slacktest.Escape(text), false)); err != nil {
			fail(ctx, t, "the app's post: %v", err)
		}
	case slack.InteractionTypeViewClosed:
		sm.Ack(*req)
		a.record(seenItem{Kind: "view_closed"})
	default:
		sm.Ack(*req)
	}
}

func (a *testApp) openModal(ctx context.Context, t *testing.T, trigger string) {
	text := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
	}
	input := slack.NewPlainTextInputBlockElement(text("What should the agent do?"), inputAction)
	input.Multiline = true
	choice := slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, text("Pick one"), "choice",
		slack.NewOptionBlockObject("high", text("High"), nil), slack.NewOptionBlockObject("low", text("Low"), nil))
	priority := slack.NewInputBlock(priorityBlock, text("Priority"), nil, choice)
	priority.Optional = true
	view := slack.ModalViewRequest{
		Type:          slack.VTModal,
		Title:         text("Follow up"),
		Submit:        text("Send"),
		Close:         text("Cancel"),
		CallbackID:    "follow_up_form",
		NotifyOnClose: true,
		Blocks: slack.Blocks{BlockSet: []slack.Block{
			slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "Tell the agent what to change. "+slacktest.Escape(injection), false, false), nil, nil),
			slack.NewInputBlock(inputBlock, text("Instruction "+injection), text("One instruction, in plain words."), input),
			priority,
		}},
	}
	if _, err := a.api.OpenViewContext(ctx, trigger, view); err != nil {
		fail(ctx, t, "the app's views.open: %v", err)
	}
}

func (a *testApp) publishHome(ctx context.Context, t *testing.T, user, greeting string) {
	text := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
	}
	view := slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: []slack.Block{
		slack.NewHeaderBlock(text(greeting + ", " + injection)),
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "You have *2* jobs running. "+slacktest.Escape(injection), false, false), nil, nil),
		slack.NewDividerBlock(),
		slack.NewActionBlock("home_actions", slack.NewButtonBlockElement(refreshID, "r", text("Refresh"))),
	}}}
	if _, err := a.api.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: user, View: view}); err != nil {
		fail(ctx, t, "the app's views.publish: %v", err)
	}
}

// jobBlocks is the app's answer to a mention: Block Kit with every kind of
// interactive element the page offers.
func jobBlocks() []slack.Block {
	text := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
	}
	pr := slack.NewButtonBlockElement(viewPRID, "pr", text("View PR"))
	pr.URL = "https://example.com/pr/1"
	pr.Style = slack.StylePrimary
	cancel := slack.NewButtonBlockElement(cancelID, "job-1", text("Cancel"))
	cancel.Style = slack.StyleDanger
	return []slack.Block{
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "*Job started* "+slacktest.Escape(injection), false, false), nil,
			slack.NewAccessory(slack.NewOverflowBlockElement(overflowID,
				slack.NewOptionBlockObject("retry", text("Retry"), nil), slack.NewOptionBlockObject("details", text("Details"), nil)))),
		slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, "asked by <@U0ALICE>", false, false)),
		slack.NewDividerBlock(),
		slack.NewActionBlock("job_actions", pr, slack.NewButtonBlockElement(followUpID, "job-1", text("Follow up")), cancel),
		slack.NewContextActionsBlock("job_feedback", slack.NewFeedbackButtonsBlockElement(feedbackID,
			slack.NewFeedbackButton(text("Good"), "good"), slack.NewFeedbackButton(text("Bad"), "bad"))),
	}
}

// pngImage is a small PNG: a chart-like picture.
func pngImage() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 120, 60))
	for x := range 120 {
		for y := range 60 {
			c := color.RGBA{R: 240, G: 244, B: 248, A: 255}
			if y > 60-(x/4+10) && x%20 < 14 {
				c = color.RGBA{R: 18, G: 100, B: 163, A: 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}
