package agent

import (
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
)

// A job's root message shows its progress as Slack's plan of task cards,
// one card per step, in this order; the message without the plan (the
// status line, message()'s blocks) is what a workspace that refuses plans
// gets (bot.Rich). Each card's status follows the root view:
//
//	card      starting     working          completed           failed             archived
//	queued    in_progress  complete         complete            complete           complete
//	started   pending      complete         complete            complete           complete
//	working   pending      in_progress      complete            error              complete
//	pr        pending      pending          complete (or none)  pending            complete (or none)
//	preview   pending      pending          complete (or none)  none               none
//
// A start that did not happen is an error on queued; a job no longer
// followed (untracked) or whose start is unknown, an error on the card it
// stood at. A card of a step that will not happen ("none") shows no
// status, only why; no card is left pending once the run ended but the
// pull request's of a failed run, which a follow-up may open. The pull
// request is named once, by its link (by its label where it has none).
const (
	taskQueued  = "queued"
	taskStarted = "started"
	taskWorking = "working"
	taskPR      = "pr"
	taskPreview = "preview"
)

// taskDetailMax bounds a card's details, in characters.
const taskDetailMax = 200

// planTitle is the plan's title: the job, and its run when a follow-up.
func (v rootView) planTitle() string {
	if v.Generation > 1 {
		return fmt.Sprintf("Docs agent job · follow-up %d", v.Generation-1)
	}
	return "Docs agent job"
}

// card is one task card of the plan; status "" shows none.
func card(id, title string, status slack.TaskCardStatus, details string) *slack.TaskCardBlock {
	c := slack.NewTaskCardBlock(id, title).WithStatus(status)
	if details != "" {
		c.WithDetails(slack.NewRichTextBlock("", slack.NewRichTextSection(
			slack.NewRichTextSectionTextElement(mrkdwn.Cut(details, taskDetailMax), nil))))
	}
	return c
}

// planBlock is the plan of v's job: its steps as task cards.
func (v rootView) planBlock() *slack.PlanBlock {
	const (
		pending = slack.TaskCardStatusPending
		running = slack.TaskCardStatusInProgress
		done    = slack.TaskCardStatusComplete
		failed  = slack.TaskCardStatusError
	)
	queued := card(taskQueued, "Queued", running, "Asking the docs platform to start the agent")
	started := card(taskStarted, "Agent started", pending, "")
	working := card(taskWorking, "Working", pending, "")
	pr := card(taskPR, "Pull request", pending, "Opened when the agent changes files")
	preview := card(taskPreview, "Preview", pending, "The docs platform builds it from the pull request")
	job := ""
	if v.JobID != "" {
		job = "Job " + v.JobID
	}
	switch v.State {
	case stateNotStarted:
		queued = card(taskQueued, "Not started", failed, v.Problem)
	case stateUnknown:
		queued = card(taskQueued, "Queued?", failed, v.Problem)
	case stateWorking, stateFinished, stateUntracked:
		queued = card(taskQueued, "Queued", done, job)
		started = card(taskStarted, "Agent started", done, v.plainDetails())
		working = card(taskWorking, "Working", running, v.workingDetails())
	}
	switch {
	case v.State == stateUntracked:
		working = card(taskWorking, "No longer followed", failed, v.Problem)
	case v.State != stateFinished:
	case v.Status == docsapi.StatusFailed:
		working = card(taskWorking, "Failed", failed, v.tookDetails("The agent failed"))
		pr = card(taskPR, "Pull request", pending, "Not opened: follow up to try again")
		preview = card(taskPreview, "No preview", "", "Nothing to preview: the run failed")
	default:
		working = card(taskWorking, outcomeWord(v.Status), done, v.tookDetails(""))
		pr, preview = v.resultCards()
	}
	return slack.NewPlanBlock(v.planTitle()).WithTasks(queued, started, working, pr, preview)
}

// resultCards are the pull request's and the preview's cards of a run that
// ended without failing.
func (v rootView) resultCards() (pr, preview *slack.TaskCardBlock) {
	if v.PRLink == "" {
		why := "No files were changed, so there is no pull request"
		if v.Status == docsapi.StatusArchived {
			why = "Archived without a pull request"
		}
		return card(taskPR, "No pull request", "", why), card(taskPreview, "No preview", "", "Nothing to preview")
	}
	preview = card(taskPreview, "Preview", slack.TaskCardStatusComplete, "The docs platform builds it from the pull request: its checks link to it")
	if !mrkdwn.WebURL(v.PRLink) {
		pr = card(taskPR, "Pull request opened", slack.TaskCardStatusComplete, prLabel(v.PRLink))
	} else {
		src := slack.NewTaskCardSource(v.PRLink, prLabel(v.PRLink))
		pr = card(taskPR, "Pull request opened", slack.TaskCardStatusComplete, "").WithSources(src)
		preview.WithSources(src)
	}
	if v.Status == docsapi.StatusArchived {
		preview = card(taskPreview, "Preview", "", "The job was archived")
	}
	return pr, preview
}

// plainDetails names the agent's model and branch without markup, "" when
// the API gave neither.
func (v rootView) plainDetails() string {
	var parts []string
	if v.Model != "" {
		parts = append(parts, "Model "+mrkdwn.Cut(v.Model, detailMax))
	}
	if v.Branch != "" {
		parts = append(parts, "branch "+mrkdwn.Cut(v.Branch, detailMax))
	}
	return strings.Join(parts, " · ")
}

// workingDetails is the working card's: the docs API's latest status and
// the time the run has taken.
func (v rootView) workingDetails() string {
	parts := []string{"Status " + mrkdwn.Cut(string(v.Status), detailMax)}
	if v.Status == "" {
		parts[0] = "The agent is working"
	}
	if e := v.elapsed(); e != "" {
		parts = append(parts, e)
	}
	return strings.Join(parts, " · ")
}

// tookDetails is what an ended run's working card says: lead (when not
// "") and the time it took.
func (v rootView) tookDetails(lead string) string {
	var parts []string
	if lead != "" {
		parts = append(parts, lead)
	}
	if e := v.elapsed(); e != "" {
		parts = append(parts, "after "+e)
	}
	return strings.Join(parts, " ")
}
