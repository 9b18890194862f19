package bot

import "github.com/slack-go/slack"

// Message is what Post, Edit and EditNow send: a Plain message, or a Rich
// one (blocks Slack may refuse, and the same message without them).
type Message interface {
	// forms are the message with its rich blocks (nil: it has none, or
	// another fallback than a message), the message without them, and
	// the kind of its rich blocks ("" for a Plain message).
	forms() (kind string, with, without []slack.MsgOption)
}

// Plain is a message without rich blocks: sent as it is.
type Plain []slack.MsgOption

func (p Plain) forms() (string, []slack.MsgOption, []slack.MsgOption) { return "", nil, p }

// Response is what Respond sends through a command's response_url: a
// Reply, or a RichReply.
type Response interface {
	// replies are the response with its rich blocks (nil: it has none),
	// the response without them, and the kind of its rich blocks.
	replies() (kind string, with, without *slack.WebhookMessage)
}

// Reply is a response without rich blocks: sent as it is.
func Reply(msg *slack.WebhookMessage) Response { return plainReply{msg} }

// plainReply is a Reply.
type plainReply struct{ msg *slack.WebhookMessage }

func (p plainReply) replies() (string, *slack.WebhookMessage, *slack.WebhookMessage) {
	return "", nil, p.msg
}
