package visitors

import (
	"encoding/json"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// improvePage is the value of an "improve this page" button
// (bot.ActionImprovePage): the page and its figures over the range, for the
// docs agent's job modal to prefill.
type improvePage struct {
	Path  string `json:"path"`
	Human int64  `json:"human"`
	AI    int64  `json:"ai"`
	Total int64  `json:"total"`
	// Range is the range of the figures, "YYYY-MM-DD..YYYY-MM-DD".
	Range string `json:"range"`
	// Project is the key (bot.ProjectKey) of the docs project the page is
	// in: "" for the implicit project.
	Project string `json:"project,omitempty"`
}

// maxButtonValue is the longest value Slack takes on a button.
const maxButtonValue = 2000

// improveButton is the button that asks the docs agent to improve the page
// at path in the project keyed projectKey, or nil when the path is too long
// for a button's value.
func improveButton(path string, c store.VisitorCounts, r dateRange, projectKey string) *slack.Accessory {
	from, _ := r.Params()
	value, err := json.Marshal(improvePage{Path: path, Human: c.Human, AI: c.AI, Total: c.Total, Range: from + ".." + r.Last.Format(time.DateOnly), Project: projectKey})
	if err != nil || len(value) > maxButtonValue {
		return nil
	}
	btn := slack.NewButtonBlockElement(bot.ActionImprovePage, string(value), slack.NewTextBlockObject(slack.PlainTextType, "Improve this page", false, false))
	btn.AccessibilityLabel = "Ask the docs agent to improve " + mrkdwn.Cut(path, 40)
	return slack.NewAccessory(btn)
}
