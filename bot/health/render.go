package health

import (
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// How many rows a view shows: the summary a few of each list, a view of one
// list more.
const (
	summaryRows = 3
	viewRows    = 10
)

// shown is how many rows of a list view shows.
func shown(view string) int {
	if view == viewSummary {
		return summaryRows
	}
	return viewRows
}

// The instructions Fix with agent starts from, in docsbot's words only:
// what readers wrote (a search term, a topic, questions, comments) is in
// the problem's evidence, which the agent gets as quoted data, never as an
// instruction (bot.DocsFix).
const (
	searchInstruction    = "Write the docs that readers look for with the search term quoted in the evidence: add a page, or make an existing one findable by that term."
	questionsInstruction = "Document what readers ask about the topic quoted in the evidence, which the docs assistant cannot answer."
)

// render is the message of a view as sight lets it be shown: a header,
// then each list the view has, then what was left out. With sight.Words,
// the rows show the readers' and the assistant's words (search terms,
// comments, code-sample reports, questions and their categories, replies)
// and, when fixes, every problem row has Fix with agent
// (bot.ActionFixDocs). Without, a line says why (sight.Why) and the same
// rows show counts and paths only (searchWithoutWords, pageWithoutWords,
// a category's count), with no button: a
// button's value carries the evidence, which the client can read.
func render(rep *report, view, title, projectKey string, sight bot.Sight, fixes bool) []slack.Block {
	md := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.MarkdownType, s, false, false)
	}
	blocks := []slack.Block{slack.NewSectionBlock(md(title), nil, nil)}
	if !sight.Words {
		blocks = append(blocks, slack.NewContextBlock("", md(":lock: "+sight.Why)))
	}
	n := shown(view)
	words, fixes := sight.Words, fixes && sight.Words
	fix := func(text string, f bot.DocsFix) slack.Block {
		if !fixes {
			return slack.NewSectionBlock(md(text), nil, nil)
		}
		f.Project = projectKey
		return slack.NewSectionBlock(md(text), nil, slack.NewAccessory(slack.NewButtonBlockElement(bot.ActionFixDocs, f.Value(),
			slack.NewTextBlockObject(slack.PlainTextType, "Fix with agent", false, false))))
	}
	if view == viewSummary || view == viewSearches {
		blocks = append(blocks, slack.NewSectionBlock(md("*Searches that found nothing clicked*"), nil, nil))
		rows := 0
		for _, s := range rep.Searches {
			if rows == n {
				break
			}
			if view == viewSummary && !s.Nowhere {
				continue
			}
			rows++
			if !words {
				blocks = append(blocks, slack.NewSectionBlock(md(searchWithoutWords(s)), nil, nil))
				continue
			}
			line := fmt.Sprintf("`%s`: searched %s times, %s clicked", mrkdwn.Escape(mrkdwn.Cut(s.Query, 80)), humanize.Count(s.Hits), clickRate(s.Clicks))
			if s.Nowhere {
				line += " · _found nothing clicked_"
				blocks = append(blocks, fix(line, bot.DocsFix{Problem: fmt.Sprintf("readers searched the docs %d times for one term, quoted in the evidence, and clicked no result", s.Hits),
					Instruction: searchInstruction, Evidence: "search term: " + s.Query}))
				continue
			}
			line += " · most went to `" + mrkdwn.Escape(mrkdwn.Cut(s.Top, 80)) + "`"
			blocks = append(blocks, slack.NewSectionBlock(md(line), nil, nil))
		}
		if rows == 0 {
			blocks = append(blocks, slack.NewContextBlock("", md("None in this range.")))
		}
	}
	if view == viewSummary || view == viewFeedback {
		blocks = append(blocks, slack.NewSectionBlock(md("*Pages readers voted down*"), nil, nil))
		for i, p := range rep.Pages {
			if i == n {
				break
			}
			if !words {
				blocks = append(blocks, slack.NewSectionBlock(md(pageWithoutWords(p)), nil, nil))
				continue
			}
			line := fmt.Sprintf("`%s`: %s 👎, %s 👍", mrkdwn.Escape(mrkdwn.Cut(p.Path, 80)), humanize.Count(p.Down), humanize.Count(p.Up))
			var evidence []string
			for _, c := range p.Comments {
				line += "\n" + mrkdwn.Quote(mrkdwn.Cut(c, 200))
				evidence = append(evidence, "👎 \""+c+"\"")
			}
			for _, s := range p.Snippets {
				line += "\n_Code sample reported_" + fileOf(s.File) + ": " + mrkdwn.Escape(mrkdwn.Cut(s.Comment, 150))
				evidence = append(evidence, "code sample reported"+plainFile(s.File)+": \""+s.Comment+"\"")
			}
			blocks = append(blocks, fix(mrkdwn.Cut(line, 2900), bot.DocsFix{Path: p.Path,
				Problem:     fmt.Sprintf("readers voted the page %s down %d times", p.Path, p.Down),
				Instruction: "Improve the page " + p.Path + " where its readers say it falls short.",
				Evidence:    strings.Join(evidence, "\n")}))
		}
		if len(rep.Pages) == 0 {
			blocks = append(blocks, slack.NewContextBlock("", md("None in this range.")))
		}
	}
	if view == viewSummary || view == viewQuestions {
		blocks = append(blocks, slack.NewSectionBlock(md("*Questions the assistant could not answer*"), nil, nil))
		for i, g := range rep.Questions {
			if i == n {
				break
			}
			if !words {
				blocks = append(blocks, slack.NewSectionBlock(md(fmt.Sprintf("_A category_ (%d)", len(g.Items))), nil, nil))
				continue
			}
			line := fmt.Sprintf("*%s* (%d)", mrkdwn.Escape(mrkdwn.Cut(g.Category, 60)), len(g.Items))
			var evidence []string
			for j, q := range g.Items {
				if j < n {
					line += "\n• " + mrkdwn.Escape(mrkdwn.Cut(q.Text, 150))
					if view != viewSummary && q.Reply != "" {
						line += " — _" + mrkdwn.Escape(mrkdwn.Cut(q.Reply, 120)) + "_"
					}
				}
				evidence = append(evidence, "question: \""+q.Text+"\"; the assistant replied: \""+mrkdwn.Cut(q.Reply, 200)+"\"")
			}
			blocks = append(blocks, fix(mrkdwn.Cut(line, 2900), bot.DocsFix{
				Problem:     fmt.Sprintf("the docs assistant could not answer %d questions readers asked on one topic, quoted in the evidence", len(g.Items)),
				Instruction: questionsInstruction,
				Evidence:    "topic: " + g.Category + "\n" + strings.Join(evidence, "\n")}))
		}
		if len(rep.Questions) == 0 {
			blocks = append(blocks, slack.NewContextBlock("", md("None in this range.")))
		}
	}
	if view == viewSummary || view == viewViews {
		lines := []string{"*Pages viewed most* (view events, human + AI)"}
		for i, v := range rep.Views {
			if i == n {
				break
			}
			lines = append(lines, fmt.Sprintf("%d. `%s`: %s (%s human, %s AI)", i+1, mrkdwn.Escape(mrkdwn.Cut(v.Path, 80)),
				humanize.Count(v.Total), humanize.Count(v.Human), humanize.Count(v.AI)))
		}
		if len(rep.Views) == 0 {
			lines = append(lines, "None in this range.")
		}
		blocks = append(blocks, slack.NewSectionBlock(md(strings.Join(lines, "\n")), nil, nil))
	}
	if len(rep.Notes) > 0 {
		blocks = append(blocks, slack.NewContextBlock("", md(mrkdwn.Escape(strings.Join(rep.Notes, " ")))))
	}
	return blocks
}

// searchWithoutWords is a search row with its hits, click-through and the
// page most went to, not its term.
func searchWithoutWords(s searchRow) string {
	line := fmt.Sprintf("_A search term_: searched %s times, %s clicked", humanize.Count(s.Hits), clickRate(s.Clicks))
	if s.Nowhere {
		return line + " · _found nothing clicked_"
	}
	return line + " · most went to `" + mrkdwn.Escape(mrkdwn.Cut(s.Top, 80)) + "`"
}

// pageWithoutWords is a page row with its votes and how many comments and
// code-sample reports it has, not what they say (nor the sample's file).
func pageWithoutWords(p pageRow) string {
	line := fmt.Sprintf("`%s`: %s 👎, %s 👍", mrkdwn.Escape(mrkdwn.Cut(p.Path, 80)), humanize.Count(p.Down), humanize.Count(p.Up))
	if n := len(p.Comments); n > 0 {
		line += " · " + plural(n, "comment", "comments")
	}
	if n := len(p.Snippets); n > 0 {
		line += " · " + plural(n, "code sample reported", "code samples reported")
	}
	return line
}

// plural is "1 comment", "3 comments".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// fileOf is " in `file`", "" for none.
func fileOf(file string) string {
	if file == "" {
		return ""
	}
	return " in `" + mrkdwn.Escape(file) + "`"
}

// plainFile is " in file", "" for none, for the agent.
func plainFile(file string) string {
	if file == "" {
		return ""
	}
	return " in " + file
}

// clickRate reads a click-through rate from 0 to 1 as "12%".
func clickRate(r float64) string { return fmt.Sprintf("%.0f%%", r*100) }
