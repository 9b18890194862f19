package unfurl

import (
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
)

// rangeWords names the figures' range.
const rangeWords = "the last 30 days"

// pageBlocks is the unfurl of the link l to a page of p's site: its path
// (and project, with several), the figures or why there are none, and,
// with improve, Improve this page.
func pageBlocks(l link, p project.Project, f pageFigures, improve bool) []slack.Block {
	head := ":page_facing_up: *Docs page* `" + mrkdwn.Escape(l.Path) + "`"
	if !p.Implicit {
		head += " of `" + mrkdwn.Escape(p.Name) + "`"
	}
	if l.Title != "" { // named by its title where the docs give one, its path beside it
		head = strings.Replace(head, "*Docs page*", "*"+mrkdwn.Escape(mrkdwn.Cut(l.Title, 150))+"*", 1)
	}
	figures := figuresText(l.Path, f)
	val := jobdraft.Draft{Path: l.Path, Total: f.Views[l.Path], Range: rangeWords, Figures: figures, Project: bot.ProjectKey(p)}
	if f.Views == nil {
		val.Figures = ""
	}
	blocks := []slack.Block{
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, head, false, false), nil, nil),
		slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, mrkdwn.Escape(figures), false, false)),
	}
	if !improve {
		return blocks
	}
	button := slack.NewButtonBlockElement(jobdraft.ActionImprovePage, val.Value(), slack.NewTextBlockObject(slack.PlainTextType, "Improve this page", false, false))
	return append(blocks, slack.NewActionBlock("", button))
}

// figuresText is the page's figures in words, or why there are none.
func figuresText(path string, f pageFigures) string {
	if f.Views == nil {
		return f.Why
	}
	views, ok := f.Views[path]
	viewsText := humanize.Count(views) + " views"
	if !ok && f.ViewsCut {
		viewsText = "views not counted (not among the pages viewed most)"
	}
	votes := f.Votes[path]
	return fmt.Sprintf("%s · 👍 %s · 👎 %s over %s", viewsText, humanize.Count(votes[0]), humanize.Count(votes[1]), rangeWords)
}
