package agent

import (
	"fmt"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// FinishedEvent is the Slack message metadata event type on the bot's result
// messages (payload: job_id, generation, status). The poller looks for it in
// a thread before posting again after a crash; tools count results by it.
const FinishedEvent = "docsbot_job_finished"

// The action ids of the result message's buttons. The View pull request
// button is a link: Slack opens it, and its click needs no answer.
const (
	// ActionFollowUp opens the follow-up modal (value: the thread's ts).
	ActionFollowUp = "agent.followup"
	// ActionFeedback is the 👍/👎 pair (value: feedbackGood or feedbackBad).
	ActionFeedback = "agent.feedback"
	actionViewPR   = "agent.view_pr"
)

// The values of the feedback buttons, and the outcome label they are
// counted under in /metrics.
const (
	feedbackGood = "positive"
	feedbackBad  = "negative"
)

// finishMessage renders the one message posted in a job's thread when a run of
// the job ends: the outcome, a View pull request button when there is one, a
// Follow up button and the feedback buttons; the text says the same for
// clients without Block Kit. Its metadata lets a later replica see that it
// was posted.
// project is the job's project key (bot.ProjectKey), named when not "";
// note, when not "", is a line added under the outcome.
func finishMessage(thread store.Thread, jobID string, generation int64, status docsapi.Status, prLink, project, note string) []slack.MsgOption {
	text := finishText(generation, status, prLink)
	buttons := []slack.BlockElement{}
	if prLink != "" && mrkdwn.WebURL(prLink) {
		pr := slack.NewButtonBlockElement(actionViewPR, "pr", slack.NewTextBlockObject(slack.PlainTextType, "View pull request", false, false))
		pr.URL = prLink
		pr.Style = slack.StylePrimary
		buttons = append(buttons, pr)
	}
	buttons = append(buttons, slack.NewButtonBlockElement(ActionFollowUp, thread.TS,
		slack.NewTextBlockObject(slack.PlainTextType, "Follow up", false, false)))
	blocks := []slack.Block{
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil),
	}
	if l := projectLabel(project); l != "" {
		blocks = append(blocks, slack.NewContextBlock("agent.project", slack.NewTextBlockObject(slack.MarkdownType, l, false, false)))
	}
	if note != "" {
		blocks = append(blocks, slack.NewContextBlock("agent.note", slack.NewTextBlockObject(slack.MarkdownType, note, false, false)))
	}
	blocks = append(blocks,
		slack.NewActionBlock("agent.result", buttons...),
		slack.NewContextActionsBlock("agent.feedback",
			slack.NewFeedbackButtonsBlockElement(ActionFeedback,
				slack.NewFeedbackButton(slack.NewTextBlockObject(slack.PlainTextType, "Good result", false, false), feedbackGood).
					WithAccessibilityLabel("This result was useful"),
				slack.NewFeedbackButton(slack.NewTextBlockObject(slack.PlainTextType, "Bad result", false, false), feedbackBad).
					WithAccessibilityLabel("This result was not useful"))),
	)
	return append(finishTextMessage(jobID, generation, status, prLink, note), slack.MsgOptionBlocks(blocks...))
}

// finishTextMessage is the result message as text alone, for when Slack
// refuses its blocks; its metadata is the same.
func finishTextMessage(jobID string, generation int64, status docsapi.Status, prLink, note string) []slack.MsgOption {
	text := finishText(generation, status, prLink)
	if note != "" {
		text += "\n" + note
	}
	return []slack.MsgOption{
		slack.MsgOptionText(text, false),
		slack.MsgOptionDisableLinkUnfurl(),
		slack.MsgOptionMetadata(slack.SlackMetadata{
			EventType: FinishedEvent,
			EventPayload: map[string]any{
				"job_id":     jobID,
				"generation": generation,
				"status":     string(status),
			},
		}),
	}
}

// finishText says how a run ended and what to do next.
func finishText(generation int64, status docsapi.Status, prLink string) string {
	var text string
	switch {
	case status == docsapi.StatusCompleted && prLink != "":
		text = ":white_check_mark: The docs agent finished and opened a pull request: " + mrkdwn.Link(prLink, prLabel(prLink))
	case status == docsapi.StatusCompleted:
		text = ":white_check_mark: The docs agent finished: no files were changed, so there is no pull request. Follow up to ask for changes."
	case status == docsapi.StatusFailed:
		text = ":x: The docs agent failed on this job. Follow up (or reply in this thread) to try again with more detail."
	case status == docsapi.StatusArchived && prLink != "":
		text = ":file_cabinet: The job was archived. Its pull request: " + mrkdwn.Link(prLink, prLabel(prLink))
	case status == docsapi.StatusArchived:
		text = ":file_cabinet: The job was archived without a pull request."
	default:
		text = ":grey_question: The job ended with status `" + mrkdwn.Escape(string(status)) + "`."
	}
	if generation > 1 {
		text += fmt.Sprintf(" _(follow-up %d)_", generation-1)
	}
	return text
}
