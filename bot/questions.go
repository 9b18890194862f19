package bot

import (
	"context"
	"strings"

	"github.com/docsbot/docsbot/store"
)

// Questions pass from the feature that hears them (the agent hears every
// mention, DM and thread reply) to the feature that answers them from the
// docs, through the core, as ActionImprovePage passes a page: the hearer
// queues a WorkAsk with a Question, and the answerer registers the kind
// (HandleWork) and what tells its threads (AnswerThreads). With no answerer
// registered (no assistant key), Answers().On is false and nothing is handed
// over.

// WorkAsk is the kind of inbox work of a Question.
const WorkAsk = "ask"

// Ways a Question came (Question.Via).
const (
	ViaAskCommand = "command"  // /docs-ask
	ViaMention    = "mention"  // a mention of the bot
	ViaDM         = "dm"       // a direct message
	ViaReply      = "reply"    // a reply in an answer's thread
	ViaReaction   = "reaction" // a :question: reaction on a message, by the person who reacted
)

// Question is a question for the docs assistant: the payload of a WorkAsk.
type Question struct {
	Team    string `json:"team"`
	Channel string `json:"channel"`
	User    string `json:"user"`
	// TS is the person's message; "" for /docs-ask, whose answer goes under
	// a message of the bot's showing the question.
	TS string `json:"ts,omitempty"`
	// ThreadTS is the thread the message is in, "" when it is not in one:
	// the answer goes in ThreadTS, else under TS.
	ThreadTS string `json:"thread_ts,omitempty"`
	// Text is the question as typed, without the bot's mention or "ask".
	Text string `json:"text"`
	Via  string `json:"via"`
	// Project is the docs project named (project=NAME), "" to decide.
	Project string `json:"project,omitempty"`
	// Implied says Project was not named but is the default of the channel
	// the person looks at (the assistant pane's): one without a docs
	// assistant is passed over, as a channel's default is.
	Implied bool `json:"implied,omitempty"`
	// ResponseURL answers /docs-ask privately; "" for the others.
	ResponseURL string `json:"response_url,omitempty"`
	// Asked marks a question asked of docsbot (a mention, /docs-ask, a
	// reply) that a channel in ModePrivate answers to its asker alone
	// (Via ViaPrivate): shown even without sources.
	Asked bool `json:"asked,omitempty"`
}

// Answers is the hand-off of questions to the answerer (Bot.Answers).
type Answers struct{ b *Bot }

// Answers is the hand-off of questions from the feature that hears them to
// the one that answers them.
func (b *Bot) Answers() Answers { return Answers{b} }

// On reports whether a feature answers questions (it registered WorkAsk).
func (a Answers) On() bool {
	_, ok := a.b.handlers[WorkAsk]
	return ok
}

// AnswerThreads tells whether a Slack thread is an answer's, whose replies
// continue its conversation with the assistant, and whose.
type AnswerThreads func(ctx context.Context, t store.Thread) (AnswerThread, error)

// AnswerThread is what the answerer says of a Slack thread.
type AnswerThread struct {
	// Answer reports that the thread is an answer's, with a conversation
	// going on.
	Answer bool
	// Asker is who asked the conversation's first question; "" when not
	// known (a conversation kept before askers were).
	Asker string
}

// GoesOnWith reports whether a post of user in an answer's thread goes on
// with its conversation, as a question: in a direct message, or when it
// mentions the bot, always (a mention by someone else is a question of
// theirs); in a channel, a plain reply only when it is the asker's.
// Anyone else's reply there ("thanks") is people talking: it costs nothing
// and is left alone.
func (t AnswerThread) GoesOnWith(user string, mention, dm bool) bool {
	return t.Answer && (mention || dm || t.Asker == "" || t.Asker == user)
}

// SetThreads registers the answerer's AnswerThreads. Register before Run.
func (a Answers) SetThreads(f AnswerThreads) { a.b.answerThreads = f }

// Thread says whether t is an answer's thread, and whose; not one,
// without error, when no feature answers questions.
func (a Answers) Thread(ctx context.Context, t store.Thread) (AnswerThread, error) {
	if a.b.answerThreads == nil {
		return AnswerThread{}, nil
	}
	return a.b.answerThreads(ctx, t)
}

// QuestionIn decides whether text, addressed to the bot (a mention or a DM),
// is a question for the docs rather than a job, and returns the question.
// The one rule, which the help text states: from a person who may not start
// jobs (mayStart false), everything is a question; from one who may, text
// that begins with "ask" (then the question) or ends with "?".
func QuestionIn(text string, mayStart bool) (string, bool) {
	t := strings.TrimSpace(text)
	if word, rest, _ := strings.Cut(t, " "); strings.EqualFold(strings.TrimRight(word, ":,"), "ask") {
		return strings.TrimSpace(rest), strings.TrimSpace(rest) != ""
	}
	if !mayStart || strings.HasSuffix(t, "?") {
		return t, t != ""
	}
	return "", false
}
