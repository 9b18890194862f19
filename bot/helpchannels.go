package bot

import (
	"encoding/json"
	"strings"
)

// Help channels: a channel's answer mode says how questions asked there are
// answered from the docs. The feature that keeps the modes (bot/helpchannels)
// owns the top-level questions nobody addressed to the bot
// (bot.OrderHelpChannel in the table of posts, posts.go); the answerer reads
// the mode through the help channels' feature value (bot/app hands it over)
// and answers an unasked Question (Via ViaAuto, ViaPrivate) only when its
// answer has sources. What both read is here: the modes, the ways a question
// came, the action ids, ThreadRef and ShareRef; Ask an expert's value and
// the messages both show are in helpmessages.go.

// Answer modes of a channel.
const (
	// ModeMention answers only when asked: /docs-ask, a mention, a DM. The
	// default.
	ModeMention = "mention"
	// ModeAuto also answers every top-level question in its thread,
	// unasked, when the answer has sources.
	ModeAuto = "auto"
	// ModePrivate does what ModeAuto does, shown to the asker alone, who
	// may share it in the thread.
	ModePrivate = "private"
	// ModeOff answers nothing in the channel: a question there is told,
	// privately, where to ask.
	ModeOff = "off"
)

// AnswerModeNames are the modes, in the order people read them.
var AnswerModeNames = []string{ModeAuto, ModePrivate, ModeMention, ModeOff}

// Ways an unasked Question came (Question.Via): a question nobody addressed
// to the bot, in a channel in ModeAuto or ModePrivate.
const (
	ViaAuto    = ModeAuto
	ViaPrivate = ModePrivate
)

// Unasked reports whether q was asked of nobody: docsbot heard it in a help
// channel. Its answer is shown only when it has sources; otherwise the
// asker is told privately that the docs do not cover it.
func (q Question) Unasked() bool { return q.Via == ViaAuto || q.Via == ViaPrivate }

// Action ids the answerer renders and the help channels handle.
const (
	// ActionShareAnswer is "Share in channel" under a private answer: its
	// value is the answer (ShareRef).
	ActionShareAnswer = "docs_share_answer"
	// ActionAskExpert is "Ask an expert" under an answer, or under the
	// note that the docs do not cover a question: its value is the
	// question's thread (ThreadRef).
	ActionAskExpert = "docs_ask_expert"
	// ActionMarkResolved is "Mark resolved" in a thread an expert was
	// called to: its value is the question's thread (ThreadRef).
	ActionMarkResolved = "docs_mark_resolved"
)

// ThreadRef names a question's thread in a button's value:
// "channel:ts[:project]", the project a key (ProjectKey), "" for the
// implicit one.
type ThreadRef struct{ Channel, TS, Project string }

// String is r as a button's value.
func (r ThreadRef) String() string {
	s := r.Channel + ":" + r.TS
	if r.Project != "" {
		s += ":" + r.Project
	}
	return s
}

// Thread is the thread of r, "channel:ts", without its project.
func (r ThreadRef) Thread() string { return r.Channel + ":" + r.TS }

// ParseThreadRef reads a ThreadRef; ok false when v is not one.
func ParseThreadRef(v string) (ThreadRef, bool) {
	ch, rest, ok := strings.Cut(v, ":")
	ts, proj, _ := strings.Cut(rest, ":")
	r := ThreadRef{ch, ts, proj}
	return r, ok && IsSlackID(ch, "CGD") && ts != ""
}

// SharedTextMax bounds the text of an answer shared in its thread (Share in
// channel), in characters: the answerer keeps it so
// (store.Conversation.Last), and the help channels post it as kept.
const SharedTextMax = 2900

// ShareRef names a private answer in Share in channel's value: its thread,
// its asker, whose own conversation in the thread it is in
// (store.ConversationKey), and its turn there (store.Conversation.Answers).
// Values of earlier versions name the thread alone (a ThreadRef): their
// Asker is "" and Turn 0.
type ShareRef struct {
	ThreadRef
	Asker string
	Turn  int
}

// shareValue is ShareRef as a button's value.
type shareValue struct {
	Channel string `json:"c"`
	TS      string `json:"t"`
	Project string `json:"p,omitempty"`
	Asker   string `json:"u"`
	Turn    int    `json:"n"`
}

// String is r as a button's value: JSON, which no ThreadRef is.
func (r ShareRef) String() string {
	b, _ := json.Marshal(shareValue{Channel: r.Channel, TS: r.TS, Project: r.Project, Asker: r.Asker, Turn: r.Turn}) // strings and an int always encode
	return string(b)
}

// ParseShareRef reads a ShareRef, or a ThreadRef of earlier versions (Turn
// 0); ok false when v is neither.
func ParseShareRef(v string) (ShareRef, bool) {
	if !strings.HasPrefix(v, "{") {
		ref, ok := ParseThreadRef(v)
		return ShareRef{ThreadRef: ref}, ok
	}
	var sv shareValue
	if json.Unmarshal([]byte(v), &sv) != nil {
		return ShareRef{}, false
	}
	r := ShareRef{ThreadRef: ThreadRef{Channel: sv.Channel, TS: sv.TS, Project: sv.Project}, Asker: sv.Asker, Turn: sv.Turn}
	return r, IsSlackID(r.Channel, "CGD") && r.TS != "" && IsSlackID(r.Asker, "UW") && r.Turn > 0
}
