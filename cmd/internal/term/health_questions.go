package term

import (
	"cmp"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
)

// ReplyExcerpt is how many characters of a reply the questions report keeps.
const ReplyExcerpt = 100

// NoCategory names the category of questions that have none.
const NoCategory = "(no category)"

// QuestionsReport is the assistant's unanswered questions of a range,
// grouped by category, the largest group first.
type QuestionsReport struct {
	From string `json:"from"`
	To   string `json:"to"` // excluded
	// Questions is the number of questions (user turns) read, Unanswered
	// those the assistant did not resolve.
	Questions  int                `json:"questions"`
	Unanswered int                `json:"unanswered"`
	Categories []QuestionCategory `json:"categories"`
	Bound
}

// QuestionCategory is the unanswered questions of one category, newest first.
type QuestionCategory struct {
	Category  string               `json:"category"`
	Questions []UnansweredQuestion `json:"questions"`
}

// UnansweredQuestion is a question the assistant did not resolve.
type UnansweredQuestion struct {
	At       *time.Time `json:"at,omitempty"`
	Question string     `json:"question"`
	// Reply is the start of the assistant's reply (ReplyExcerpt characters).
	Reply string `json:"reply"`
	// ReplyType is "answer" or "clarifying_question" (a question back).
	ReplyType string `json:"replyType"`
	PageURL   string `json:"pageUrl"`
	ThreadID  string `json:"threadId"`
}

// CollectQuestions reads the assistant conversations of a pager
// (docsapi.Client.ConversationPages) and keeps the unanswered questions.
func CollectQuestions(pages iter.Seq2[*docsapi.ConversationsPage, error], from, to string) (*QuestionsReport, error) {
	rep := &QuestionsReport{From: from, To: to, Categories: []QuestionCategory{}}
	index := map[string]int{}
	bound, err := collect(pages, func(p *docsapi.ConversationsPage) {
		for _, c := range p.Conversations {
			rep.Questions++
			if c.IsAnswered() {
				continue
			}
			rep.Unanswered++
			cat := strings.TrimSpace(c.Category)
			if cat == "" {
				cat = NoCategory
			}
			i, ok := index[cat]
			if !ok {
				i = len(rep.Categories)
				index[cat] = i
				rep.Categories = append(rep.Categories, QuestionCategory{Category: cat})
			}
			kind := c.ResponseType
			if kind == "" {
				kind = docsapi.ResponseAnswer
			}
			rep.Categories[i].Questions = append(rep.Categories[i].Questions, UnansweredQuestion{At: c.At, Question: c.Question,
				Reply: Excerpt(c.Answer, ReplyExcerpt), ReplyType: kind, PageURL: c.PageURL, ThreadID: c.ThreadID})
		}
	})
	if err != nil {
		return nil, err
	}
	rep.Bound = bound
	for _, c := range rep.Categories {
		slices.SortStableFunc(c.Questions, func(a, b UnansweredQuestion) int { return newestFirst(a.At, b.At) })
	}
	slices.SortStableFunc(rep.Categories, func(a, b QuestionCategory) int {
		return cmp.Or(cmp.Compare(len(b.Questions), len(a.Questions)), strings.Compare(a.Category, b.Category))
	})
	return rep, nil
}

// replied says how the assistant replied: its words, or the question it
// asked back.
func (q UnansweredQuestion) replied() string {
	if q.ReplyType == docsapi.ResponseClarify {
		return "asked back: " + q.Reply
	}
	if q.Reply == "" {
		return "(no reply)"
	}
	return q.Reply
}

// WriteQuestions writes the report: per category, its questions with when
// they were asked and how the assistant replied.
func WriteQuestions(w io.Writer, r *QuestionsReport, title string) error {
	fmt.Fprintf(w, "Unanswered questions to the assistant, %s: %s of %s questions (%s)\n", title,
		humanize.Count(int64(r.Unanswered)), humanize.Count(int64(r.Questions)), Share(docsapi.Count(r.Unanswered), docsapi.Count(r.Questions)))
	if len(r.Categories) == 0 {
		_, err := fmt.Fprintln(w, "\nThe assistant answered every question.")
		return err
	}
	for _, c := range r.Categories {
		fmt.Fprintf(w, "\n%s (%d)\n", Printable(c.Category), len(c.Questions))
		rows := make([][]string, 0, 2*len(c.Questions))
		for _, q := range c.Questions {
			rows = append(rows, []string{"  " + day(q.At), Excerpt(q.Question, 120)}, []string{"", "  replied: " + q.replied()})
		}
		if err := WriteTable(w, []bool{false, false}, rows); err != nil {
			return err
		}
	}
	return nil
}

// WriteQuestionsCSV writes one row per unanswered question.
func WriteQuestionsCSV(w io.Writer, r *QuestionsReport) error {
	var rows [][]string
	for _, c := range r.Categories {
		for _, q := range c.Questions {
			row := cells(c.Category)
			row = append(row, stamp(q.At))
			row = append(row, cells(q.Question, q.Reply, q.ReplyType, q.PageURL, q.ThreadID)...)
			rows = append(rows, row)
		}
	}
	return writeCSV(w, []string{"category", "asked_at", "question", "reply_excerpt", "reply_type", "page_url", "thread_id"}, rows)
}
