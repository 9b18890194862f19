package visitors

import (
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// improveButton is the button that asks the docs agent to improve the page
// at path in the project keyed projectKey, or nil when the path is too long
// for a button's value.
func improveButton(path string, c store.VisitorCounts, r dateRange, projectKey string) *slack.Accessory {
	from, _ := r.Params()
	value := jobdraft.Draft{Path: path, Human: c.Human, AI: c.AI, Total: c.Total, Range: from + ".." + r.Last.Format(time.DateOnly), Project: projectKey}.Value()
	if value == "" {
		return nil
	}
	btn := slack.NewButtonBlockElement(jobdraft.ActionImprovePage, value, slack.NewTextBlockObject(slack.PlainTextType, "Improve this page", false, false))
	btn.AccessibilityLabel = "Ask the docs agent to improve " + mrkdwn.Cut(path, 40)
	return slack.NewAccessory(btn)
}
