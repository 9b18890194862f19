package bot

import (
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/slack-go/slack"
)

// Slack's newer blocks (plan and task_card, data_visualization, data_table)
// are not taken everywhere: a workspace without them, or an older
// Enterprise Grid policy, answers invalid_blocks. A message that uses them
// is a Rich: the same message twice, with them and without (today's
// message). It is sent with them until Slack refuses them once; then it is
// sent again without, and this replica remembers the refusal under the
// Rich's kind for richRefusalKept, sending that kind without them meanwhile,
// so a live status edited every minute does not meet the refusal every
// minute. The memory is the replica's own: each replica meets the refusal
// once, and a workspace that gains the blocks gets them back within the hour.

// richRefusalKept is how long a refusal of a kind of rich blocks is
// remembered.
const richRefusalKept = time.Hour

// The kinds of rich messages (Rich.Kind).
const (
	// RichPlan is a plan of task cards (a job's or a deployment's progress).
	RichPlan = "plan"
	// RichChart is a data_visualization block.
	RichChart = "chart"
	// RichTable is a data_table block.
	RichTable = "table"
)

// Rich is a message with blocks Slack may refuse, and the same message
// without them: a Message that Post, Edit and EditNow send with them
// unless Slack refused them lately (richRefusalKept), and send again
// without them when Slack refuses them.
type Rich struct {
	// Kind names the blocks that may be refused (RichPlan, RichChart,
	// RichTable): a refusal is remembered under it.
	Kind string
	// With is the message with the rich blocks; Without is the message
	// sent where Slack refuses them. Both are whole messages. A Rich
	// without Without has another fallback than a message (a chart's
	// image): Post answers ErrRichRefused and the caller sends it.
	With, Without []slack.MsgOption
}

func (m Rich) forms() (string, []slack.MsgOption, []slack.MsgOption) {
	return m.Kind, m.With, m.Without
}

// RichReply is a response (Respond) with blocks Slack may refuse, and the
// same response without them.
type RichReply struct {
	// Kind names the blocks that may be refused, as Rich.Kind does.
	Kind string
	// With is the response with the rich blocks, Without the response
	// sent where Slack refuses them.
	With, Without *slack.WebhookMessage
}

func (r RichReply) replies() (string, *slack.WebhookMessage, *slack.WebhookMessage) {
	return r.Kind, r.With, r.Without
}

// ErrRichRefused is Post's answer for a Rich without a Without form that
// Slack refuses, or refused lately: nothing was posted.
var ErrRichRefused = errors.New("bot: Slack refuses these blocks here")

// richOff remembers, by kind, until when rich messages go without their
// rich blocks.
type richOff struct {
	mu    sync.Mutex
	until map[string]time.Time
}

// richRefused reports whether Slack refused rich blocks of kind here
// within the last richRefusalKept.
func (b *Bot) richRefused(kind string) bool {
	off := &b.rich
	off.mu.Lock()
	defer off.mu.Unlock()
	return time.Now().Before(off.until[kind])
}

// refuseRich remembers that Slack refused rich blocks of kind.
func (b *Bot) refuseRich(kind string) {
	r := &b.rich
	r.mu.Lock()
	if r.until == nil {
		r.until = map[string]time.Time{}
	}
	first := !time.Now().Before(r.until[kind])
	r.until[kind] = time.Now().Add(richRefusalKept)
	r.mu.Unlock()
	if first {
		b.log.Warn("Slack refused docsbot's rich blocks; sending these messages without them for a while", "kind", kind, "for", richRefusalKept)
	}
}

// richRefusal reports whether err is Slack refusing a message's blocks.
func richRefusal(err error) bool { return SlackCode(err) == "invalid_blocks" }

// richResponseRefusal reports whether err is a response_url refusing a
// response with rich blocks: it answers a refusal with HTTP 400 and no
// reason, so a 400 to a response with rich blocks is taken as one.
func richResponseRefusal(err error) bool {
	e, ok := errors.AsType[slack.StatusCodeError](err)
	return ok && e.Code == http.StatusBadRequest
}

// form is a message as it is sent now: opts, and, when rich (opts carry
// rich blocks of kind), without where Slack refuses them.
type form struct {
	opts    []slack.MsgOption
	kind    string
	rich    bool
	without []slack.MsgOption
}

// pick is the form of m to send now: with its rich blocks unless it has
// none or Slack refused their kind lately.
func (b *Bot) pick(m Message) form {
	kind, with, without := m.forms()
	if with == nil || b.richRefused(kind) {
		return form{opts: without, kind: kind}
	}
	return form{opts: with, kind: kind, rich: true, without: without}
}
