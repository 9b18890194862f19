package bot

import (
	"strconv"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
)

// ProjectQuestion asks a person, privately, which docs project something
// is for, when nothing decides it (project.Resolution.Ask): one button per
// project, whose value tells the feature that asked what to do there. Every
// feature asks with it, so the question reads and routes the same way.
type ProjectQuestion struct {
	// Question is what is asked: "Which docs project is this for?".
	Question string
	// About is what the question is about, shown after it on its line:
	// mrkdwn, escaped (a command, in code); "" for nothing.
	About string
	// Quote is text quoted under the question (an instruction); plain, it
	// is escaped here. "" for none.
	Quote string
	// Noun is what project=NAME goes in: "command", "instruction".
	Noun string
	// Action starts the buttons' action ids: the button of the i-th choice
	// is Action followed by i. The feature handles them all with one route
	// (Bot.HandleBlockActions).
	Action string
	// Value is the value of the button of project p.
	Value func(p project.Project) string
}

// The most buttons a question has, and the longest value a button holds:
// Slack's limits on an actions block and a button.
const (
	maxProjectButtons  = 25
	maxProjectValueLen = 2000
)

// Message returns the question about choices. text says it in words,
// with the projects and how to name one: what notifications, and a place
// without the buttons, show. blocks has the question and a button per
// project, or is nil when the buttons do not fit (more than Slack holds in
// a block, a value longer than a button holds): ask with text alone.
func (q ProjectQuestion) Message(choices []project.Project) (text string, blocks []slack.Block) {
	line := q.Question
	if q.About != "" {
		line += " " + q.About
	}
	names := make(choiceNames, len(choices))
	for i, p := range choices {
		names[i] = p.Name
	}
	text = line + "\n" + project.Hint(names, q.Noun)
	if len(choices) > maxProjectButtons {
		return text, nil
	}
	buttons := make([]slack.BlockElement, 0, len(choices))
	for i, p := range choices {
		value := q.Value(p)
		if len(value) > maxProjectValueLen {
			return text, nil
		}
		buttons = append(buttons, slack.NewButtonBlockElement(q.Action+strconv.Itoa(i), value,
			slack.NewTextBlockObject(slack.PlainTextType, mrkdwn.Cut(p.Name, 70), false, false)))
	}
	if q.Quote != "" {
		line += "\n" + mrkdwn.Quote(q.Quote)
	}
	note := "docsbot remembers your choice for your next " + q.Noun + "s outside a project's channel. You can also write `project=NAME` at the start or the end of a " + q.Noun + "."
	return text, []slack.Block{
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, line, false, false), nil, nil),
		slack.NewActionBlock(q.Action+"buttons", buttons...),
		slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, note, false, false)),
	}
}

// choiceNames are the names of the projects a question offers, in order
// (project.Names).
type choiceNames []string

// Names returns the names.
func (n choiceNames) Names() []string { return n }
