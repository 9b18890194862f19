package deploy

import (
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
)

// A deployment's live message shows its progress as Slack's plan of three
// task cards, above the text it has always shown (view.go); a workspace
// that refuses plans gets the text alone (bot.Rich). The cards by stage:
//
//	stage          queued       building     live
//	starting       in_progress  pending      pending
//	queued         in_progress  pending      pending
//	in_progress    complete     in_progress  pending
//	success        complete     complete     complete (linked)
//	failure        complete     error        pending
//	refused        error        pending      pending
//	uncertain      error        pending      pending
//	other status   complete     in_progress  pending
const (
	taskQueued   = "queued"
	taskBuilding = "building"
	taskLive     = "live"
)

// sectionMax is Slack's limit on a section's text: a longer text (a
// failure's logs) is sent without the plan, as text alone.
const sectionMax = 3000

// stage is where a deployment is, for its plan.
type stage struct {
	// state is the docs API's status; "" before it answered.
	state docsapi.DeployState
	// refused or uncertain: the start failed, or may have.
	refused, uncertain bool
	// since is when the build started, for the building card.
	since, now time.Time
	// link is the preview's or the site's address when live.
	link string
}

// card is one task card; details "" for none.
func card(id, title string, status slack.TaskCardStatus, details string) *slack.TaskCardBlock {
	c := slack.NewTaskCardBlock(id, title).WithStatus(status)
	if details != "" {
		c.WithDetails(slack.NewRichTextBlock("", slack.NewRichTextSection(slack.NewRichTextSectionTextElement(details, nil))))
	}
	return c
}

// planOf is the plan of req's deployment in project key at stage s.
func planOf(req request, key string, s stage) *slack.PlanBlock {
	const (
		pending = slack.TaskCardStatusPending
		running = slack.TaskCardStatusInProgress
		done    = slack.TaskCardStatusComplete
		failed  = slack.TaskCardStatusError
	)
	title := "Deploying the docs"
	if req.Preview {
		title = "Preview of " + mrkdwn.Cut(req.Branch, 40)
	}
	if key != "" {
		title += " (" + mrkdwn.Cut(key, 40) + ")"
	}
	queued := card(taskQueued, "Queued", running, "Asking the docs platform")
	building := card(taskBuilding, "Building", pending, "")
	live := card(taskLive, "Live", pending, "")
	switch {
	case s.refused:
		queued = card(taskQueued, "Refused", failed, "The docs platform refused it: nothing was deployed")
	case s.uncertain:
		queued = card(taskQueued, "Queued?", failed, "The docs platform did not answer in time")
	case s.state == docsapi.DeployQueued:
		queued = card(taskQueued, "Queued", running, "Waiting for the docs platform to build")
	case s.state == docsapi.DeploySuccess:
		queued = card(taskQueued, "Queued", done, "")
		building = card(taskBuilding, "Built", done, "")
		live = card(taskLive, "Live", done, "")
		if mrkdwn.WebURL(s.link) {
			live.WithSources(slack.NewTaskCardSource(s.link, mrkdwn.Cut(s.link, 80)))
		}
	case s.state == docsapi.DeployFailure:
		queued = card(taskQueued, "Queued", done, "")
		building = card(taskBuilding, "Build failed", failed, "The logs are below")
		live = card(taskLive, "Live", pending, "Not deployed")
	case s.state != "":
		queued = card(taskQueued, "Queued", done, "")
		details := "For " + humanize.Duration(s.now.Sub(s.since))
		if s.state != docsapi.DeployInProgress {
			details = "The docs platform says " + mrkdwn.Cut(string(s.state), 40)
		}
		building = card(taskBuilding, "Building", running, details)
	}
	return slack.NewPlanBlock(title).WithTasks(queued, building, live)
}

// live is a deployment's live message: text, with the plan above it where
// Slack takes plans and the text fits a section.
func live(text string, plan *slack.PlanBlock) bot.Rich {
	without := []slack.MsgOption{slack.MsgOptionText(text, false)}
	m := bot.Rich{Kind: bot.RichPlan, Without: without}
	if len([]rune(text)) <= sectionMax {
		m.With = []slack.MsgOption{slack.MsgOptionText(text, false), slack.MsgOptionBlocks(plan,
			slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil))}
	}
	return m
}

// statusStage is the stage of f's deployment as the API showed it in st.
func statusStage(f follow, st *docsapi.DeployStatus, now time.Time, site string) stage {
	s := stage{state: st.Status, since: st.CreatedAt, now: now, link: site}
	if s.since.IsZero() {
		s.since = f.Started
	}
	if f.Preview {
		s.link = f.PreviewURL
	}
	return s
}
