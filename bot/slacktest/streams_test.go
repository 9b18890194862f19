package slacktest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/slack-go/slack"
)

// TestStreams drives a streamed reply with the real slack-go client: it
// grows with each append, is a message like another once stopped, and then
// takes no more appends; a channel needs the recipient, a DM does not.
func TestStreams(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t)
	ctx := testContext(t)
	parent, err := s.Mention(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "how do I rotate keys?"})
	if err != nil {
		t.Fatal(err)
	}
	recipient := []slack.MsgOption{slack.MsgOptionRecipientUserID("U0ALICE"), slack.MsgOptionRecipientTeamID("T0TEST")}
	if _, _, err := api.StartStreamContext(ctx, "C0GENERAL", slack.MsgOptionTS(parent.TS), slack.MsgOptionMarkdownText("x")); slackErr(err) != "invalid_arguments" {
		t.Fatalf("a stream in a channel without its recipient: %v, want invalid_arguments", err)
	}
	_, ts, err := api.StartStreamContext(ctx, "C0GENERAL", append(recipient, slack.MsgOptionTS(parent.TS), slack.MsgOptionMarkdownText("To rotate"))...)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{" a key,", " open *Settings*."} {
		if _, _, err := api.AppendStreamContext(ctx, "C0GENERAL", ts, slack.MsgOptionMarkdownText(part)); err != nil {
			t.Fatal(err)
		}
	}
	m := s.streamed(t, "C0GENERAL", ts)
	if !m.Streaming || m.Text != "To rotate a key, open *Settings*." || m.Appends != 2 || m.ThreadTS != parent.TS {
		t.Fatalf("while streaming: %+v", m)
	}
	blocks := slack.MsgOptionBlocks(slack.NewContextBlock("sources", slack.NewTextBlockObject(slack.MarkdownType, "<https://docs.example.com/keys|Keys>", false, false)))
	if _, _, err := api.StopStreamContext(ctx, "C0GENERAL", ts, blocks); err != nil {
		t.Fatal(err)
	}
	if m := s.streamed(t, "C0GENERAL", ts); m.Streaming || !m.Streamed || !strings.Contains(string(m.Blocks), "docs.example.com/keys") {
		t.Fatalf("once stopped: %+v", m)
	}
	for _, call := range []func() error{
		func() error {
			_, _, err := api.AppendStreamContext(ctx, "C0GENERAL", ts, slack.MsgOptionMarkdownText("more"))
			return err
		},
		func() error { _, _, err := api.StopStreamContext(ctx, "C0GENERAL", ts); return err },
	} {
		if err := call(); slackErr(err) != "message_not_in_streaming_state" {
			t.Errorf("after the stop: %v, want message_not_in_streaming_state", err)
		}
	}
	if _, _, err := api.AppendStreamContext(ctx, "C0GENERAL", ts+"1", slack.MsgOptionMarkdownText("x")); slackErr(err) != "message_not_found" {
		t.Errorf("append to no message: %v", err)
	}
	if _, _, err := api.AppendStreamContext(ctx, "C0GENERAL", parent.TS, slack.MsgOptionMarkdownText("x")); slackErr(err) != "message_not_in_streaming_state" {
		t.Errorf("append to a person's message: %v", err)
	}
	if _, _, err := api.AppendStreamContext(ctx, "C0GENERAL", ts, slack.MsgOptionMarkdownText(strings.Repeat("a", MaxStreamTextRunes+1))); slackErr(err) == "" {
		t.Error("an append over the limit was taken")
	}

	dm, err := s.OpenDM("U0ALICE")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := api.StartStreamContext(ctx, dm, slack.MsgOptionMarkdownText("In a DM")); err != nil {
		t.Errorf("a stream in a DM without recipient: %v", err)
	}
}

// streamed returns the message channel/ts, failing the test when missing.
func (s *Server) streamed(t *testing.T, channel, ts string) Message {
	t.Helper()
	m, ok := s.Message(channel, ts)
	if !ok {
		t.Fatalf("no message %s in %s", ts, channel)
	}
	return m
}

// TestStreamChunks streams a job as a plan with the real slack-go client's
// chunks: task updates replace each other by id, markdown grows the text,
// blocks chunks are kept, and chunks Slack would refuse are refused.
func TestStreamChunks(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t)
	ctx := testContext(t)
	dm, err := s.OpenDM("U0ALICE")
	if err != nil {
		t.Fatal(err)
	}
	ask, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: dm, UserID: "U0ALICE", Text: "deploy the docs"})
	if err != nil {
		t.Fatal(err)
	}
	build := slack.NewTaskUpdateChunk("build", "Build the site")
	build.Status = slack.TaskCardStatusInProgress
	_, ts, err := api.StartStreamContext(ctx, dm, slack.MsgOptionTS(ask), slack.MsgOptionTaskDisplayMode(slack.TaskDisplayModePlan),
		slack.MsgOptionChunks(slack.NewPlanUpdateChunk("Deploying"), build))
	if err != nil {
		t.Fatal(err)
	}
	build.Status, build.Output = slack.TaskCardStatusComplete, "built in 2 min"
	check := slack.NewTaskUpdateChunk("check", "Check the links")
	check.Status = slack.TaskCardStatusPending
	if _, _, err := api.AppendStreamContext(ctx, dm, ts, slack.MsgOptionChunks(slack.NewMarkdownTextChunk("Built. "), build, check)); err != nil {
		t.Fatal(err)
	}
	section := slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "*Preview* ready", false, false), nil, nil)
	if _, _, err := api.AppendStreamContext(ctx, dm, ts, slack.MsgOptionMarkdownText("Checking."), slack.MsgOptionChunks(slack.NewBlocksChunk(section))); err != nil {
		t.Fatal(err)
	}
	m := s.streamed(t, dm, ts)
	want := []StreamTask{
		{ID: "build", Title: "Build the site", Status: "complete", Output: "built in 2 min"},
		{ID: "check", Title: "Check the links", Status: "pending"},
	}
	if m.Text != "Built. Checking." || m.PlanTitle != "Deploying" || m.TaskDisplayMode != "plan" || len(m.Chunks) != 6 || m.Appends != 2 {
		t.Errorf("streamed message: text %q plan %q mode %q, %d chunks, %d appends", m.Text, m.PlanTitle, m.TaskDisplayMode, len(m.Chunks), m.Appends)
	}
	if !reflect.DeepEqual(m.Tasks, want) {
		t.Errorf("tasks = %+v, want %+v", m.Tasks, want)
	}
	if !strings.Contains(string(m.ChunkBlocks), "Preview") {
		t.Errorf("blocks chunk not kept: %s", m.ChunkBlocks)
	}

	bad := slack.NewTaskUpdateChunk("check", "Check the links")
	bad.Status = "done"
	s.RefuseBlockType("data_visualization")
	tests := []struct {
		name string
		opt  slack.MsgOption
		want string
	}{
		{"a task of an unknown status", slack.MsgOptionChunks(bad), "invalid_arguments"},
		{"a task without a title", slack.MsgOptionChunks(slack.NewTaskUpdateChunk("x", "")), "invalid_arguments"},
		{"an unknown chunk", slack.MsgOptionChunks(slack.MarkdownTextChunk{Type: "thinking", Text: "x"}), "invalid_arguments"},
		{"a refused block", slack.MsgOptionChunks(slack.NewBlocksChunk(barChart("Visitors", 1, 2))), "invalid_blocks"},
		{"a chart of 7 series", slack.MsgOptionChunks(slack.NewBlocksChunk(barChart("Visitors", 7, 2))), "invalid_blocks"},
		{"too much markdown", slack.MsgOptionChunks(slack.NewMarkdownTextChunk(strings.Repeat("a", MaxStreamTextRunes/2)), slack.NewMarkdownTextChunk(strings.Repeat("a", MaxStreamTextRunes/2+1))), "msg_too_long"},
		{"nothing", slack.MsgOptionCompose(), "no_text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := api.AppendStreamContext(ctx, dm, ts, tt.opt); slackErr(err) != tt.want {
				t.Errorf("append: %v, want %s", err, tt.want)
			}
		})
	}
	if _, _, err := api.StartStreamContext(ctx, dm, slack.MsgOptionTS(ask), slack.MsgOptionTaskDisplayMode("grid"), slack.MsgOptionMarkdownText("x")); slackErr(err) != "invalid_arguments" {
		t.Errorf("an unknown task_display_mode: %v", err)
	}
	last := slack.NewTaskUpdateChunk("check", "Check the links")
	last.Status = slack.TaskCardStatusComplete
	if _, _, err := api.StopStreamContext(ctx, dm, ts, slack.MsgOptionChunks(last)); err != nil {
		t.Fatal(err)
	}
	if m := s.streamed(t, dm, ts); m.Streaming || m.Tasks[1].Status != "complete" || m.Appends != 2 {
		t.Errorf("once stopped: %+v", m)
	}
}
