package bot

import "context"

// Posts in a thread of Slack's assistant pane pass from the feature that
// hears them (the agent hears every DM) to the feature that keeps the pane
// (bot/assistant), through the core, as questions pass to the answers: the
// pane's keeper registers AssistantPosts, and the hearer offers it each
// person's reply in a thread of a direct message (AssistantPost) before
// deciding what the reply is. With no keeper registered nothing is offered.

// AssistantPost is a person's reply in a thread of their direct message
// with the bot: in Slack's assistant pane, every thread is one.
type AssistantPost struct {
	Team, Channel, User string
	// TS is the reply, ThreadTS the thread's first message.
	TS, ThreadTS string
	// Text is the reply as typed, Slack's markup undone.
	Text string
	// Key is the inbox work key of the reply: work queued for it is keyed
	// from it, so that a retry queues nothing twice.
	Key string
}

// AssistantPosts is what the pane's keeper does with a post: it reports
// whether it took the post (a suggested prompt it answers itself), so that
// the hearer does nothing more with it; otherwise the post goes on as any
// reply in a direct message does (a question, a job). Resumable: it is
// called again when the hearer's work is.
type AssistantPosts func(ctx context.Context, p AssistantPost) (taken bool, err error)

// SetAssistantPosts registers the pane's keeper. Register before Run.
func (b *Bot) SetAssistantPosts(f AssistantPosts) { b.assistantPosts = f }

// OfferAssistantPost offers p to the pane's keeper; not taken, without
// error, when no feature keeps the pane.
func (b *Bot) OfferAssistantPost(ctx context.Context, p AssistantPost) (bool, error) {
	if b.assistantPosts == nil {
		return false, nil
	}
	return b.assistantPosts(ctx, p)
}
