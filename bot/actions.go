package bot

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// ActionImprovePage is the action_id of the "Improve this page" button on a
// page of a visitors summary. Its value is JSON: {"path", "human", "ai",
// "total", "range"}. The visitors feature renders it; the agent feature
// handles it (a job modal about the page, whose job goes in the summary's
// thread). It lives in the core because features do not import each other.
const ActionImprovePage = "docs_improve_page"

// ActionNewJob is the action_id of the "New docs job" button of the App
// Home. Its value is the channel the job goes in (the person's direct
// messages with docsbot). The home feature renders it; the agent feature
// handles it (the job modal, whose job starts a thread in that channel).
const ActionNewJob = "docs_new_job"

// ActionJobFromAnswer is the action_id of "Make this a docs job" and "Start
// a docs job": a question the docs did not answer, made into an agent job.
// Its value is an AnswerJob's (AnswerJob.Value). The answers feature renders
// it (offered to an editor under an answer, and on a question posted to the
// requests channel); the agent feature handles it (the job modal filled with
// the question and the answer, whose job goes in the thread).
const ActionJobFromAnswer = "docs_job_from_answer"

// AnswerJob is a question the docs did not answer, as ActionJobFromAnswer
// carries it.
type AnswerJob struct {
	// Channel and Thread are where the job goes: the answer's thread; both
	// "" for the message holding the button (a question in the requests
	// channel).
	Channel string `json:"c,omitempty"`
	Thread  string `json:"t,omitempty"`
	// Question is what was asked; Answer what the assistant answered (cut),
	// Sources the pages it drew on.
	Question string   `json:"q"`
	Answer   string   `json:"a,omitempty"`
	Sources  []string `json:"s,omitempty"`
	// Project is the docs project that answered ("" the implicit one).
	Project string `json:"p,omitempty"`
	// Expert marks Answer as a person's reply that resolved the question
	// in a help channel's thread (Turn this into docs), not the
	// assistant's; By names them (a user id).
	Expert bool   `json:"x,omitempty"`
	By     string `json:"by,omitempty"`
}

// answerJobMax bounds an AnswerJob's value: a button's value holds 2,000
// characters.
const answerJobMax = 2000

// Value is j as a button's value: JSON within Slack's 2,000 characters, the
// answer cut first, then the sources, then the question.
func (j AnswerJob) Value() string {
	return fitValue(func() any { return j }, func(over int) {
		switch {
		case j.Answer != "":
			j.Answer = cutBy(j.Answer, over)
		case len(j.Sources) > 0:
			j.Sources = j.Sources[:len(j.Sources)-1]
		default:
			j.Question = cutBy(j.Question, over)
		}
	})
}

// fitValue is the JSON of v() as a button's value, within answerJobMax
// characters: while it is longer, shrink cuts v by about the characters
// over (and must make it shorter each time).
func fitValue(v func() any, shrink func(over int)) string {
	for {
		b, _ := json.Marshal(v())
		if n := utf8.RuneCount(b); n <= answerJobMax {
			return string(b)
		} else {
			shrink(n - answerJobMax)
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

// ParseAnswerJob reads an ActionJobFromAnswer value.
func ParseAnswerJob(value string) (AnswerJob, error) {
	var j AnswerJob
	if err := json.Unmarshal([]byte(value), &j); err != nil {
		return AnswerJob{}, fmt.Errorf("bot: a question made into a job: %w", err)
	}
	if strings.TrimSpace(j.Question) == "" {
		return AnswerJob{}, fmt.Errorf("bot: a question made into a job without its question: %w", ErrNoQuestion)
	}
	return j, nil
}

// ErrNoQuestion is an ActionJobFromAnswer value without a question;
// ErrNoInstruction an ActionFixDocs value without an instruction.
var (
	ErrNoQuestion    = errors.New("no question")
	ErrNoInstruction = errors.New("no instruction")
)

// ActionJobFromMessage is the action_id of "Start a docs job" on a
// message an editor marked with :memo: (a reaction carries no trigger to
// open a form): its value is a MessageJob's (MessageJob.Value). The help
// channels render it; the agent handles it (the job modal with the message
// quoted as its writer's, the job in its thread).
const ActionJobFromMessage = "docs_job_from_message"

// MessageJob is a Slack message made into a job, as ActionJobFromMessage
// carries it.
type MessageJob struct {
	// Channel and Thread are where the job goes: the message's thread.
	Channel string `json:"c"`
	Thread  string `json:"t"`
	// Text is the message as typed (Slack's markup undone), cut to fit;
	// By its writer's user id ("" for a bot).
	Text string `json:"m"`
	By   string `json:"by,omitempty"`
}

// Value is j as a button's value, the text cut to fit.
func (j MessageJob) Value() string {
	return fitValue(func() any { return j }, func(over int) { j.Text = cutBy(j.Text, over) })
}

// ParseMessageJob reads an ActionJobFromMessage value.
func ParseMessageJob(value string) (MessageJob, error) {
	var j MessageJob
	if err := json.Unmarshal([]byte(value), &j); err != nil {
		return MessageJob{}, fmt.Errorf("bot: a message made into a job: %w", err)
	}
	if strings.TrimSpace(j.Text) == "" || j.Channel == "" || j.Thread == "" {
		return MessageJob{}, fmt.Errorf("bot: a message made into a job without its message: %w", ErrNoQuestion)
	}
	return j, nil
}

// ActionFixDocs is the action_id of "Fix with agent" on a problem the docs
// health shows (a search that found nothing, a page voted down, questions
// the assistant could not answer). Its value is a DocsFix's (DocsFix.Value).
// The health feature renders it; the agent feature handles it (the job
// modal filled with the evidence, whose job goes in the summary's thread).
const ActionFixDocs = "docs_fix_with_agent"

// DocsFix is a problem of the docs and its evidence, as ActionFixDocs
// carries it.
type DocsFix struct {
	// Problem says what is wrong in a line; Instruction is the form's
	// instruction to start from. Both are docsbot's words and its figures:
	// nothing readers or the assistant wrote (a search term, a topic, a
	// comment), which goes in Evidence.
	Problem     string `json:"p"`
	Instruction string `json:"i"`
	// Path is the page to change, "" when the fix is a new page.
	Path string `json:"path,omitempty"`
	// Evidence is what readers and the docs assistant wrote that the health
	// showed (the search term, the comments, the topic, the questions and
	// what the assistant answered), cut to fit: the agent gets it as quoted
	// data, never as an instruction.
	Evidence string `json:"e,omitempty"`
	// Project is the docs project ("" the implicit one).
	Project string `json:"pr,omitempty"`
}

// Value is f as a button's value, the evidence cut first to fit.
func (f DocsFix) Value() string {
	return fitValue(func() any { return f }, func(over int) {
		if f.Evidence != "" {
			f.Evidence = cutBy(f.Evidence, over)
		} else {
			f.Instruction = cutBy(f.Instruction, over)
		}
	})
}

// ParseDocsFix reads an ActionFixDocs value.
func ParseDocsFix(value string) (DocsFix, error) {
	var f DocsFix
	if err := json.Unmarshal([]byte(value), &f); err != nil {
		return DocsFix{}, fmt.Errorf("bot: a docs fix: %w", err)
	}
	if strings.TrimSpace(f.Instruction) == "" {
		return DocsFix{}, fmt.Errorf("bot: a docs fix without its instruction: %w", ErrNoInstruction)
	}
	return f, nil
}
