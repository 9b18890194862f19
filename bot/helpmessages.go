package bot

import (
	"encoding/json"
	"strings"

	"github.com/slack-go/slack"
)

// The help channels' messages the answerer shows and the help channels show
// again once a button's work is done: Ask an expert's value (ExpertRef),
// the note that the docs do not cover a question (UncoveredNote) and a
// private answer (PrivateAnswer). An ephemeral message is not sent back
// with its button's press, so the help channels build it again from what it
// was made of, with the line saying what was done in the button's place
// (Pressed); both features build it here, so it is the same message.

// ExpertRef names, in Ask an expert's value, the question's thread and what
// the button was under: docsbot's answer, citing the docs (Sourced) or not,
// a private one its asker's turn (Asker and Turn, as ShareRef), or the note
// that the docs do not cover the question (neither). Values of earlier
// versions, and the note's, are a ThreadRef.
type ExpertRef struct {
	ShareRef
	// Sourced is set when the answer cited the docs.
	Sourced bool
	// Answer is set under an answer (not the note).
	Answer bool
}

// expertValue is ExpertRef as a button's value.
type expertValue struct {
	shareValue
	Sourced bool `json:"s,omitempty"`
	Answer  bool `json:"a"`
}

// String is r as a button's value: the ThreadRef under the note, JSON under
// an answer.
func (r ExpertRef) String() string {
	if !r.Answer {
		return r.ThreadRef.String()
	}
	b, _ := json.Marshal(expertValue{shareValue: shareValue{Channel: r.Channel, TS: r.TS, Project: r.Project, Asker: r.Asker, Turn: r.Turn},
		Sourced: r.Sourced, Answer: true}) // strings, bools and an int always encode
	return string(b)
}

// ParseExpertRef reads an ExpertRef, or the ThreadRef of the note and of
// earlier versions; ok false when v is neither.
func ParseExpertRef(v string) (ExpertRef, bool) {
	if !strings.HasPrefix(v, "{") {
		ref, ok := ParseThreadRef(v)
		return ExpertRef{ShareRef: ShareRef{ThreadRef: ref}}, ok
	}
	var ev expertValue
	if json.Unmarshal([]byte(v), &ev) != nil {
		return ExpertRef{}, false
	}
	r := ExpertRef{ShareRef: ShareRef{ThreadRef: ThreadRef{Channel: ev.Channel, TS: ev.TS, Project: ev.Project}, Asker: ev.Asker, Turn: ev.Turn},
		Sourced: ev.Sourced, Answer: ev.Answer}
	asker := r.Asker == "" && r.Turn == 0 || IsSlackID(r.Asker, "UW") && r.Turn > 0
	return r, IsSlackID(r.Channel, "CGD") && r.TS != "" && asker
}

// ExpertButton is Ask an expert about the question of ref.
func ExpertButton(ref ExpertRef) *slack.ButtonBlockElement {
	return slack.NewButtonBlockElement(ActionAskExpert, ref.String(), slack.NewTextBlockObject(slack.PlainTextType, "Ask an expert", false, false))
}

// ShareButton is Share in channel of the private answer ref.
func ShareButton(ref ShareRef) *slack.ButtonBlockElement {
	return slack.NewButtonBlockElement(ActionShareAnswer, ref.String(),
		slack.NewTextBlockObject(slack.PlainTextType, "Share in channel", false, false)).WithStyle(slack.StylePrimary)
}

// Pressed is a button of a help message, or, once its work is done, the
// line saying so (Done, mrkdwn), shown in its place.
type Pressed struct {
	Button slack.BlockElement
	Done   string
}

// DoneLine is the context block saying what a button did, in its place.
func DoneLine(text string) *slack.ContextBlock {
	return slack.NewContextBlock("done", slack.NewTextBlockObject(slack.MarkdownType, "✓ "+text, false, false))
}

// pressedBlocks are an actions block (blockID) of the buttons not done,
// when any, then a line for each one done.
func pressedBlocks(blockID string, ps []Pressed) []slack.Block {
	var buttons []slack.BlockElement
	var out []slack.Block
	for _, p := range ps {
		switch {
		case p.Done != "":
			out = append(out, DoneLine(p.Done))
		case p.Button != nil:
			buttons = append(buttons, p.Button)
		}
	}
	if len(buttons) > 0 {
		out = append([]slack.Block{slack.NewActionBlock(blockID, buttons...)}, out...)
	}
	return out
}

// NotCovered tells the asker of an unasked question that the docs do not
// cover it.
const NotCovered = "docsbot looked in the docs for your question and found nothing that answers it, so it did not answer in the channel."

// UncoveredNote is the note, shown to the asker alone, that the docs do not
// cover their question, with its buttons: Ask an expert (experts set) and,
// for an editor, Make this a docs job.
func UncoveredNote(buttons ...Pressed) []slack.Block {
	blocks := []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, NotCovered, false, false), nil, nil)}
	return append(blocks, pressedBlocks("uncovered", buttons)...)
}

// PrivateAnswer is an answer shown to its asker alone: its text (mrkdwn,
// cut to fit a section), its sources' links ("" for none), and its buttons
// (Share in channel, Ask an expert).
func PrivateAnswer(text, sources string, buttons ...Pressed) []slack.Block {
	blocks := []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil)}
	if sources != "" {
		blocks = append(blocks, slack.NewContextBlock("sources", slack.NewTextBlockObject(slack.MarkdownType, "*Sources:* "+sources, false, false)))
	}
	return append(blocks, pressedBlocks("share", buttons)...)
}
