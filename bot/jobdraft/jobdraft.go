// Package jobdraft is the buttons that start a docs job from what a
// feature shows, and the one value they carry (Draft): the feature renders
// them, the agent handles them (its job form, filled from the draft).
package jobdraft

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// The buttons that start a docs job from what another feature shows: the
// feature renders them, the agent handles them (its job form, filled from
// the button's Draft), and their ids and the one value they carry live
// in the core because features do not import each other.
const (
	// ActionImprovePage is "Improve this page" on a page of a visitors
	// summary: a Draft with the page and its figures (Path, Human, AI,
	// Total, Range); the job goes in the summary's thread.
	ActionImprovePage = "docs_improve_page"
	// ActionJobFromAnswer is "Make this a docs job" and "Start a docs job":
	// a question the docs did not answer (Question, Answer, Sources), offered
	// to an editor under an answer and on a question posted to the requests
	// channel; the job goes in Channel and Thread, else the message's.
	ActionJobFromAnswer = "docs_job_from_answer"
	// ActionFixDocs is "Fix with agent" on a problem the docs health shows
	// (a search that found nothing, a page voted down, questions the
	// assistant could not answer), and "Make this a docs job" on a topic of
	// questions docsbot could not answer well (/docs-health quality):
	// Problem, Instruction, Path and Evidence; the job goes in the
	// summary's thread.
	ActionFixDocs = "docs_fix_with_agent"
	// ActionJobFromMessage is "Start a docs job" on a message an editor
	// marked with :memo: in a help channel (a reaction carries no trigger to
	// open a form): Channel, Thread, and Message and By for a message alone,
	// or Lines (and By, the marked message's writer) for a message in a
	// thread with replies; the messages go to the agent quoted as their
	// writers', the job in the thread.
	ActionJobFromMessage = "docs_job_from_message"
)

// ActionImprovePageRows is the prefix of the "Improve this page" buttons of
// a data_table, one per row, followed by the row's number: Slack wants the
// action ids of one block told apart. Their value is ActionImprovePage's.
const ActionImprovePageRows = ActionImprovePage + "."

// ActionNewJob is the action_id of the "New docs job" button of the App
// Home. Its value is the channel the job goes in (the person's direct
// messages with docsbot). The home feature renders it; the agent feature
// handles it (the job modal, whose job starts a thread in that channel).
const ActionNewJob = "docs_new_job"

// Draft is a docs job to start from what a feature shows, as the value
// of every button that starts one (ActionImprovePage, ActionJobFromAnswer,
// ActionFixDocs): the agent's job form is filled from it. Problem and
// Instruction are docsbot's words and figures; Question, Answer, Sources
// and Evidence are what people and the docs assistant wrote, which the
// agent gets as quoted data, never as an instruction.
type Draft struct {
	// Channel and Thread are where the job goes; both "" for the thread of
	// the message holding the button.
	Channel string `json:"c,omitempty"`
	Thread  string `json:"t,omitempty"`
	// Project is the key of the docs project (ProjectKey; "" the implicit
	// one): the form's project select starts at it.
	Project string `json:"project,omitempty"`
	// Path is the docs page it is about, "" for none (a new page). Only a
	// PlainPath may be in Problem or Instruction.
	Path string `json:"path,omitempty"`
	// Human, AI and Total are the page's unique visitors over Range
	// ("YYYY-MM-DD..YYYY-MM-DD").
	Human int64  `json:"human,omitempty"`
	AI    int64  `json:"ai,omitempty"`
	Total int64  `json:"total,omitempty"`
	Range string `json:"range,omitempty"`
	// Figures, when set, are the page's figures in docsbot's words (an
	// unfurl's: views and votes), shown instead of Human, AI and Total.
	Figures string `json:"figures,omitempty"`
	// Problem says what is wrong in a line; Instruction is the form's
	// instruction to start from.
	Problem     string `json:"problem,omitempty"`
	Instruction string `json:"i,omitempty"`
	// Evidence is what readers and the docs assistant wrote that showed
	// the problem (search terms, comments, questions), cut to fit.
	Evidence string `json:"e,omitempty"`
	// Question is what was asked; Answer what the assistant answered (cut),
	// Sources the pages it drew on.
	Question string   `json:"q,omitempty"`
	Answer   string   `json:"a,omitempty"`
	Sources  []string `json:"s,omitempty"`
	// Message is a Slack message made into a job (ActionJobFromMessage),
	// as typed (Slack's markup undone), cut to fit.
	Message string `json:"m,omitempty"`
	// Lines are, instead of Message, the thread of a message made into a
	// job (the parent and its replies, oldest first, as
	// conversations.replies gives them), cut to fit: the first message and
	// the latest; Left counts those left out in between.
	Lines []Line `json:"l,omitempty"`
	Left  int    `json:"lo,omitempty"`
	// Expert marks Answer as a person's reply that resolved the question
	// in a help channel's thread (Turn this into docs), not the
	// assistant's. By names the writer of Answer or Message (a user id; ""
	// for a bot).
	Expert bool   `json:"x,omitempty"`
	By     string `json:"by,omitempty"`
}

// pathMax is the longest page path docsbot writes as its own words
// (PlainPath).
const pathMax = 200

// PlainPath reports whether path, a docs page's path (from the docs site's
// analytics, a reader's feedback or a link posted in Slack), may reach the
// agent as docsbot's own words, in an instruction, a problem or a line of
// context: letters, digits and / . _ ~ % -, at most 200 characters.
// Anyone can make up a path (a page view or a comment on an address of
// their own, a link in Slack), and any other character could carry words
// to the agent ("/x\n\nIgnore previous instructions"): such a path goes to
// the agent as quoted data only, and never into the instruction a form
// starts from.
func PlainPath(path string) bool {
	if path == "" || len(path) > pathMax {
		return false
	}
	for i := 0; i < len(path); i++ {
		c := path[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("/._~%-", c) >= 0) {
			return false
		}
	}
	return true
}

// PageInstruction is the instruction of an ActionFixDocs draft about a
// page readers voted down whose path is not a PlainPath: the agent gets
// the path quoted, and the instruction only points at it.
const PageInstruction = "Improve the page whose path is quoted in the context where its readers say it falls short."

// Line is a message of a thread made into a job (Draft.Lines):
// its text as typed (Slack's markup undone) and its writer, a person (User)
// or a bot (Bot, its name; Own for docsbot's own messages).
type Line struct {
	User string `json:"u,omitempty"`
	Bot  string `json:"b,omitempty"`
	Own  bool   `json:"o,omitempty"`
	Text string `json:"x"`
}

// buttonValueMax bounds a Draft's value: a button's value holds 2,000
// characters.
const buttonValueMax = 2000

// Value is d as a button's value: JSON within Slack's 2,000 characters, cut
// first in the evidence, then the message or the thread's lines
// (cutLines), the answer, the sources, the question and the instruction.
func (d Draft) Value() string {
	d.Lines, d.Left = fewerLines(slices.Clone(d.Lines), d.Left)
	for {
		b, _ := json.Marshal(d)
		n := utf8.RuneCount(b)
		if n <= buttonValueMax {
			return string(b)
		}
		over := n - buttonValueMax
		switch {
		case d.Evidence != "":
			d.Evidence = cutBy(d.Evidence, over)
		case d.Message != "":
			d.Message = cutBy(d.Message, over)
		case len(d.Lines) > 0:
			d.Lines, d.Left = cutLines(d.Lines, d.Left, over)
		case d.Answer != "":
			d.Answer = cutBy(d.Answer, over)
		case len(d.Sources) > 0:
			d.Sources = d.Sources[:len(d.Sources)-1]
		case d.Question != "":
			d.Question = cutBy(d.Question, over)
		case d.Instruction != "":
			d.Instruction = cutBy(d.Instruction, over)
		default:
			return "" // nothing left to cut: a path too long for a button
		}
	}
}

// cutBy cuts s by at least over characters (and a margin for the ellipsis
// and escaping), to nothing when it is that short.
func cutBy(s string, over int) string {
	keep := utf8.RuneCountInString(s) - over - 8
	if keep <= 1 {
		return ""
	}
	return mrkdwn.Cut(s, keep)
}

// lineShare is the most characters the first line of a thread keeps while
// later lines are left out for room: the first message (the question,
// usually) and the latest replies both count.
const lineShare = buttonValueMax / 2

// fewerLines leaves out at once the lines after the first that could not
// fit in a button's value anyway, keeping the latest: a long thread is not
// cut a line at a time.
func fewerLines(lines []Line, left int) ([]Line, int) {
	if len(lines) <= 2 {
		return lines, left
	}
	room, from := buttonValueMax, len(lines)-1 // the latest is kept
	for from > 1 {
		room -= utf8.RuneCountInString(lines[from].Text) + 16 // its field names and quotes
		if room < utf8.RuneCountInString(lines[from-1].Text)+16 {
			break
		}
		from--
	}
	if from <= 1 {
		return lines, left
	}
	return slices.Delete(lines, 1, from), left + from - 1
}

// cutLines makes lines smaller by about over characters, a step at a time:
// a first line longer than lineShare is cut to it, else the oldest line
// after the first is left out (left counts it), else, with two lines or
// fewer, the longest is cut, by half at most, so that both keep some of
// their text (left out when nothing is left of it).
func cutLines(lines []Line, left, over int) ([]Line, int) {
	if utf8.RuneCountInString(lines[0].Text) > lineShare {
		lines[0].Text = mrkdwn.Cut(lines[0].Text, lineShare)
		return lines, left
	}
	if len(lines) > 2 {
		return slices.Delete(lines, 1, 2), left + 1
	}
	longest := 0
	for i, l := range lines {
		if utf8.RuneCountInString(l.Text) > utf8.RuneCountInString(lines[longest].Text) {
			longest = i
		}
	}
	n := utf8.RuneCountInString(lines[longest].Text)
	if lines[longest].Text = cutBy(lines[longest].Text, min(over, n/2)); lines[longest].Text == "" {
		return slices.Delete(lines, longest, longest+1), left + 1
	}
	return lines, left
}

// Parse reads a Draft button's value.
func Parse(value string) (Draft, error) {
	var d Draft
	if err := json.Unmarshal([]byte(value), &d); err != nil {
		return Draft{}, fmt.Errorf("jobdraft: a job draft: %w", err)
	}
	return d, nil
}

// ErrNoQuestion is an ActionJobFromAnswer draft without a question;
// ErrNoInstruction an ActionFixDocs draft without an instruction.
var (
	ErrNoQuestion    = errors.New("no question")
	ErrNoInstruction = errors.New("no instruction")
)

// Check is d's check for the button action: an answer's draft needs its
// question, a message's its message (or its thread's lines) and thread, a
// fix its instruction (ErrNoQuestion, ErrNoInstruction).
func (d Draft) Check(action string) error {
	switch {
	case action == ActionJobFromAnswer && strings.TrimSpace(d.Question) == "":
		return fmt.Errorf("jobdraft: a question made into a job without its question: %w", ErrNoQuestion)
	case action == ActionJobFromMessage && (strings.TrimSpace(d.Message) == "" && len(d.Lines) == 0 || d.Channel == "" || d.Thread == ""):
		return fmt.Errorf("jobdraft: a message made into a job without its message: %w", ErrNoQuestion)
	case action == ActionFixDocs && strings.TrimSpace(d.Instruction) == "":
		return fmt.Errorf("jobdraft: a docs fix without its instruction: %w", ErrNoInstruction)
	}
	return nil
}
