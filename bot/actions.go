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
}

// answerJobMax bounds an AnswerJob's value: a button's value holds 2,000
// characters.
const answerJobMax = 2000

// Value is j as a button's value: JSON within Slack's 2,000 characters, the
// answer cut first, then the sources, then the question.
func (j AnswerJob) Value() string {
	for {
		b, _ := json.Marshal(j)
		if utf8.RuneCount(b) <= answerJobMax {
			return string(b)
		}
		switch {
		case j.Answer != "":
			j.Answer = mrkdwn.Cut(j.Answer, max(utf8.RuneCountInString(j.Answer)-(utf8.RuneCount(b)-answerJobMax)-8, 0))
			if strings.TrimSpace(strings.TrimSuffix(j.Answer, "…")) == "" {
				j.Answer = ""
			}
		case len(j.Sources) > 0:
			j.Sources = j.Sources[:len(j.Sources)-1]
		default:
			j.Question = mrkdwn.Cut(j.Question, max(utf8.RuneCountInString(j.Question)-(utf8.RuneCount(b)-answerJobMax)-8, 1))
		}
	}
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

// ErrNoQuestion is an ActionJobFromAnswer value without a question.
var ErrNoQuestion = errors.New("no question")
