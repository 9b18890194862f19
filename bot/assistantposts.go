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

// AssistantTake is what the pane's keeper made of a post.
type AssistantTake struct {
	// Taken: the keeper took the post (a suggested prompt it answers
	// itself), so that the hearer does nothing more with it.
	Taken bool
	// Project, for a post not taken, is the docs project its question or
	// job goes to: the default of the channel the person looks at beside
	// the pane (Projects().Resolve with that channel), "" when the post
	// names one (project=NAME) or that channel has none: then the post's
	// project is decided as any DM's.
	Project string
}

// AssistantPosts is what the pane's keeper does with a post: taken, or
// going on as any reply in a direct message does (a question, a job), to
// the project it says. Resumable: it is called again when the hearer's
// work is.
type AssistantPosts func(ctx context.Context, p AssistantPost) (AssistantTake, error)

// Pane is the core's side of the assistant pane: b.Pane().
type Pane struct{ b *Bot }

// Pane is where the pane's keeper registers and the hearer offers posts.
func (b *Bot) Pane() Pane { return Pane{b} }

// SetPosts registers the pane's keeper. Register before Run.
func (p Pane) SetPosts(f AssistantPosts) { p.b.assistantPosts = f }

// Offer offers post to the pane's keeper; not taken, without error, when
// no feature keeps the pane.
func (p Pane) Offer(ctx context.Context, post AssistantPost) (AssistantTake, error) {
	if p.b.assistantPosts == nil {
		return AssistantTake{}, nil
	}
	return p.b.assistantPosts(ctx, post)
}
