package ask

import (
	"cmp"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
)

// Feedback values of ActionFeedback.
const (
	feedbackGood = "good"
	feedbackBad  = "bad"
)

// sourcesMax bounds the sources and suggestions listed under an answer.
const sourcesMax = 8

// pageLink is a link to the docs page path titled title: on the docs site
// (a path resolved against it), or to an address the sites allow; any
// other, or a path with no site, is shown as code after the title, not
// linked.
func pageLink(sites mrkdwn.Sites, path, title string) string {
	title = strings.TrimSpace(title)
	if target, ok := sites.Resolve(path); ok {
		return mrkdwn.Link(target, mrkdwn.Disarm(cmp.Or(title, path)))
	}
	inert := mrkdwn.InertMrkdwn(path)
	if title == "" || title == path {
		return inert
	}
	return mrkdwn.SafeText(title, sites) + " " + inert
}

// sourceLink is a link to one source of an answer.
func sourceLink(sites mrkdwn.Sites, s docsapi.AnswerSource) string {
	if s.Path == "" && s.URL != "" {
		return pageLink(sites, s.URL, s.Title)
	}
	return pageLink(sites, s.Path, s.Title)
}

// answerBlocks are what an answer shows under its text: its sources, the
// pages the assistant suggests, 👍/👎, and Ask again when the answer is
// incomplete (again holds the question for it, "" for none).
func answerBlocks(sites mrkdwn.Sites, sources []docsapi.AnswerSource, suggestions []docsapi.Suggestion, again string, turn int) []slack.Block {
	var blocks []slack.Block
	if links := sourceLinks(sites, sources); links != "" {
		blocks = append(blocks, slack.NewContextBlock("sources", slack.NewTextBlockObject(slack.MarkdownType, "*Sources:* "+links, false, false)))
	}
	var sugg []string
	for i, s := range suggestions {
		if i == sourcesMax {
			break
		}
		sugg = append(sugg, pageLink(sites, s.Path, s.Label))
	}
	if len(sugg) > 0 {
		blocks = append(blocks, slack.NewContextBlock("suggestions", slack.NewTextBlockObject(slack.MarkdownType, "*See also:* "+strings.Join(sugg, " · "), false, false)))
	}
	if again != "" {
		blocks = append(blocks, slack.NewActionBlock("again", askAgainButton(again)))
	} else {
		blocks = append(blocks, slack.NewActionBlock("falls_short", slack.NewButtonBlockElement(ActionFallsShort, fallsShortValue(turn),
			slack.NewTextBlockObject(slack.PlainTextType, "The docs don't answer this", false, false))))
	}
	blocks = append(blocks, slack.NewContextActionsBlock("feedback", slack.NewFeedbackButtonsBlockElement(ActionFeedback,
		slack.NewFeedbackButton(slack.NewTextBlockObject(slack.PlainTextType, "Good answer", false, false), feedbackGood),
		slack.NewFeedbackButton(slack.NewTextBlockObject(slack.PlainTextType, "Not helpful", false, false), feedbackBad))))
	return blocks
}

// sourceLinks lists sources once each, at most sourcesMax.
func sourceLinks(sites mrkdwn.Sites, sources []docsapi.AnswerSource) string {
	var links []string
	seen := map[string]bool{}
	for _, s := range sources {
		if k := s.Key(); k == "" || seen[k] || len(links) == sourcesMax {
			continue
		}
		seen[s.Key()] = true
		links = append(links, sourceLink(sites, s))
	}
	return strings.Join(links, " · ")
}

// againValue is what the Ask again button carries: the question, cut to
// what a button's value holds, and its project.
type againValue struct {
	Text    string `json:"q"`
	Project string `json:"p,omitempty"`
}

// askAgainButton asks q again; value is againValue's JSON.
func askAgainButton(value string) *slack.ButtonBlockElement {
	return slack.NewButtonBlockElement(ActionAskAgain, value, slack.NewTextBlockObject(slack.PlainTextType, "Ask again", false, false))
}

// againOf is the Ask again value of question q in project key.
func againOf(q, key string) string {
	v, _ := json.Marshal(againValue{Text: mrkdwn.Cut(q, 1500), Project: key})
	return string(v)
}

// fallsShortValue is the value of an answer's "The docs don't answer this":
// the answer's turn in its conversation ("n:3"), so that the question made a
// job or sent to the docs team is the one this answer answered, not the
// thread's latest; "1" when the turn is not known (as buttons of earlier
// versions say: the latest is taken).
func fallsShortValue(turn int) string {
	if turn <= 0 {
		return "1"
	}
	return "n:" + strconv.Itoa(turn)
}

// turnOfValue reads the turn fallsShortValue wrote, 0 for none.
func turnOfValue(v string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(v, "n:"))
	if err != nil || !strings.HasPrefix(v, "n:") || n <= 0 {
		return 0
	}
	return n
}
