package health

import (
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/jobdraft"
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
// instruction (jobdraft.Draft).
const (
	searchInstruction    = "Write the docs that readers look for with the search term quoted in the evidence: add a page, or make an existing one findable by that term."
	questionsInstruction = "Document what readers ask about the topic quoted in the evidence, which the docs assistant cannot answer."
)

// pageFix is the problem and the instruction of a page readers voted
// down: its path in them when it is a jobdraft.PlainPath, else pointing
// at the path, which the agent gets quoted (Draft.Path).
func pageFix(p pageRow) (problem, instruction string) {
	if !jobdraft.PlainPath(p.Path) {
		return fmt.Sprintf("readers voted a page down %d times; its path is quoted in the context", p.Down), jobdraft.PageInstruction
	}
	return fmt.Sprintf("readers voted the page %s down %d times", p.Path, p.Down),
		"Improve the page " + p.Path + " where its readers say it falls short."
}

// render is the message of a view as sight lets it be shown: a header,
// then each list the view has (lists), then what was left out. With
// sight.Words, the rows show the readers' and the assistant's words (search
// terms, comments, code-sample reports, questions and their categories,
// replies) and, when fixes, every problem row has Fix with agent
// (jobdraft.ActionFixDocs). Without, a line says why (sight.Why) and the same
// rows show counts and paths only (searchWithoutWords, pageWithoutWords, a
// category's count), with no button: a button's value carries the
// evidence, which the client can read.
func render(rep *report, view, title, projectKey string, sight bot.Sight, fixes bool) []slack.Block {
	return renderWith(rep, view, title, projectKey, sight, fixes, false)
}

// renderWith is render; with tables, the pages viewed most are Slack's
// data_table (a list without readers' words or buttons: the same for
// everyone), which a workspace may refuse (bot.Rich).
func renderWith(rep *report, view, title, projectKey string, sight bot.Sight, fixes, tables bool) []slack.Block {
	blocks := []slack.Block{section(title)}
	if !sight.Words {
		blocks = append(blocks, slack.NewContextBlock("", md(":lock: "+sight.Why)))
	}
	r := renderer{view: view, n: shown(view), words: sight.Words, fixes: fixes && sight.Words, project: projectKey, tables: tables}
	for _, l := range lists {
		if view == viewSummary || view == l.view {
			blocks = append(blocks, l.render(r, rep)...)
		}
	}
	if len(rep.Notes) > 0 {
		blocks = append(blocks, slack.NewContextBlock("", md(mrkdwn.Escape(strings.Join(rep.Notes, " ")))))
	}
	return blocks
}

// lists are the lists of a report, in the order the summary shows them;
// the view of one list shows that one alone.
var lists = []struct {
	view   string
	render func(renderer, *report) []slack.Block
}{
	{viewSearches, renderer.searches},
	{viewFeedback, renderer.pages},
	{viewQuestions, renderer.questions},
	{viewViews, renderer.views},
}

// renderer renders the lists of one view: n rows of each, with the
// readers' words or without, with Fix with agent buttons or without.
type renderer struct {
	view         string
	n            int
	words, fixes bool
	project      string // the project key a fix names
	tables       bool   // lists without words as data_table blocks
}

// hasTable reports whether view shows a list that renderWith makes a
// data_table of: the pages viewed most, when there are any.
func hasTable(rep *report, view string) bool {
	return (view == viewSummary || view == viewViews) && len(rep.Views) > 0
}

func md(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, s, false, false)
}

func section(text string) slack.Block { return slack.NewSectionBlock(md(text), nil, nil) }

// none is the line of an empty list.
func none() slack.Block { return slack.NewContextBlock("", md("None in this range.")) }

// fix is a problem row: with a Fix with agent button for f when the view
// has fixes.
func (r renderer) fix(text string, f jobdraft.Draft) slack.Block {
	return r.fixAs(text, f, "Fix with agent")
}

// fixAs is fix with the button saying label.
func (r renderer) fixAs(text string, f jobdraft.Draft, label string) slack.Block {
	if !r.fixes {
		return section(text)
	}
	f.Project = r.project
	return slack.NewSectionBlock(md(text), nil, slack.NewAccessory(slack.NewButtonBlockElement(jobdraft.ActionFixDocs, f.Value(),
		slack.NewTextBlockObject(slack.PlainTextType, label, false, false))))
}

// searches lists the search terms: the summary only those whose searches
// found nothing clicked.
func (r renderer) searches(rep *report) []slack.Block {
	blocks := []slack.Block{section("*Searches that found nothing clicked*")}
	rows := 0
	for _, s := range rep.Searches {
		if rows == r.n {
			break
		}
		if r.view == viewSummary && !s.Nowhere {
			continue
		}
		rows++
		if !r.words {
			blocks = append(blocks, section(searchWithoutWords(s)))
			continue
		}
		line := fmt.Sprintf("`%s`: searched %s times, %s clicked", mrkdwn.Escape(mrkdwn.Cut(s.Query, 80)), humanize.Count(s.Hits), clickRate(s.Clicks))
		if s.Nowhere {
			line += " · _found nothing clicked_"
			blocks = append(blocks, r.fix(line, jobdraft.Draft{Problem: fmt.Sprintf("readers searched the docs %d times for one term, quoted in the evidence, and clicked no result", s.Hits),
				Instruction: searchInstruction, Evidence: "search term: " + s.Query}))
			continue
		}
		line += " · most went to `" + mrkdwn.Escape(mrkdwn.Cut(s.Top, 80)) + "`"
		blocks = append(blocks, section(line))
	}
	if rows == 0 {
		blocks = append(blocks, none())
	}
	return blocks
}

// pages lists the pages readers voted down, with their comments and
// code-sample reports.
func (r renderer) pages(rep *report) []slack.Block {
	blocks := []slack.Block{section("*Pages readers voted down*")}
	for i, p := range rep.Pages {
		if i == r.n {
			break
		}
		if !r.words {
			blocks = append(blocks, section(pageWithoutWords(p)))
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
		problem, instruction := pageFix(p)
		blocks = append(blocks, r.fix(mrkdwn.Cut(line, 2900), jobdraft.Draft{Path: p.Path, Problem: problem, Instruction: instruction,
			Evidence: strings.Join(evidence, "\n")}))
	}
	if len(rep.Pages) == 0 {
		blocks = append(blocks, none())
	}
	return blocks
}

// questions lists the categories of questions the assistant could not
// answer, with n questions of each (and, in the view of questions alone,
// the assistant's replies).
func (r renderer) questions(rep *report) []slack.Block {
	blocks := []slack.Block{section("*Questions the assistant could not answer*")}
	for i, g := range rep.Questions {
		if i == r.n {
			break
		}
		if !r.words {
			blocks = append(blocks, section(fmt.Sprintf("_A category_ (%d)", len(g.Items))))
			continue
		}
		line := fmt.Sprintf("*%s* (%d)", mrkdwn.Escape(mrkdwn.Cut(g.Category, 60)), len(g.Items))
		var evidence []string
		for j, q := range g.Items {
			if j < r.n {
				line += "\n• " + mrkdwn.Escape(mrkdwn.Cut(q.Text, 150))
				if r.view != viewSummary && q.Reply != "" {
					line += " — _" + mrkdwn.Escape(mrkdwn.Cut(q.Reply, 120)) + "_"
				}
			}
			evidence = append(evidence, "question: \""+q.Text+"\"; the assistant replied: \""+mrkdwn.Cut(q.Reply, 200)+"\"")
		}
		blocks = append(blocks, r.fix(mrkdwn.Cut(line, 2900), jobdraft.Draft{
			Problem:     fmt.Sprintf("the docs assistant could not answer %d questions readers asked on one topic, quoted in the evidence", len(g.Items)),
			Instruction: questionsInstruction,
			Evidence:    "topic: " + g.Category + "\n" + strings.Join(evidence, "\n")}))
	}
	if len(rep.Questions) == 0 {
		blocks = append(blocks, none())
	}
	if n := rep.ResolvedByExperts; n != nil {
		blocks = append(blocks, section(resolvedLine(*n)))
	}
	return blocks
}

// resolvedLine counts the help channels' threads resolved by experts.
func resolvedLine(n int64) string {
	if n == 1 {
		return "✅ 1 thread in the help channels was resolved by an expert."
	}
	return fmt.Sprintf("✅ %s threads in the help channels were resolved by experts.", humanize.Count(n))
}

// views lists the pages viewed most, in one section.
func (r renderer) views(rep *report) []slack.Block {
	lines := []string{"*Pages viewed most* (view events, human + AI)"}
	for i, v := range rep.Views {
		if i == r.n {
			break
		}
		lines = append(lines, fmt.Sprintf("%d. `%s`: %s (%s human, %s AI)", i+1, mrkdwn.Escape(mrkdwn.Cut(v.Path, 80)),
			humanize.Count(v.Total), humanize.Count(v.Human), humanize.Count(v.AI)))
	}
	if len(rep.Views) == 0 {
		lines = append(lines, "None in this range.")
	}
	if r.tables && len(rep.Views) > 0 {
		t := slack.NewDataTableBlock("Pages viewed most").AddRow(slack.NewDataTableRawTextCell("Page"), slack.NewDataTableRawTextCell("Views"),
			slack.NewDataTableRawTextCell("Human"), slack.NewDataTableRawTextCell("AI"))
		for i, v := range rep.Views {
			if i == r.n {
				break
			}
			path := mrkdwn.Cut(v.Path, 80)
			if path == "" {
				path = "(no path)"
			}
			t.AddRow(slack.NewDataTableRawTextCell(path), count(v.Total), count(v.Human), count(v.AI))
		}
		return []slack.Block{section(lines[0]), t}
	}
	return []slack.Block{section(strings.Join(lines, "\n"))}
}

// count is a data_table cell of n, written as humanize writes it.
func count(n int64) *slack.DataTableRawNumberCell {
	return slack.NewDataTableRawNumberCell(float64(n)).WithText(humanize.Count(n))
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
