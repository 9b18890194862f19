package bot

import "strings"

// Questions pass to the feature that answers them from the docs as a
// WorkAsk with a Question: from /docs-ask, from the posts it owns (a
// question by mention or DM, a reply in an answer's thread; bot/posts.go),
// from the help channels (a question nobody addressed, a :question:
// reaction). With no answerer registered (no assistant key), nobody
// handles WorkAsk (Router.Handles) and nothing is handed over.

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
	// the person looks at (the pane's): one without a docs
	// assistant is passed over, as a channel's default is.
	Implied bool `json:"implied,omitempty"`
	// ResponseURL answers /docs-ask privately; "" for the others.
	ResponseURL string `json:"response_url,omitempty"`
	// Files are the files attached to the question's message (a mention's,
	// a DM's, a help channel's, a reply's): its images go to the assistant
	// with it.
	Files []FileRef `json:"files,omitempty"`
	// Asked marks a question asked of docsbot (a mention, /docs-ask, a
	// reply) that a channel in ModePrivate answers to its asker alone
	// (Via ViaPrivate): shown even without sources.
	Asked bool `json:"asked,omitempty"`
}

// Handles reports whether some feature does the kind of inbox work: for
// WorkAsk, whether questions are answered from the docs (some project has a
// docs assistant).
func (r Router) Handles(kind string) bool {
	_, ok := r.b.handlers[kind]
	return ok
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
