package pane

import (
	"context"
	"encoding/json"

	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// promptsRequest is what a pane event carries through the inbox: whose
// direct message gets prompts, and the channel they look at.
type promptsRequest struct {
	Team string `json:"team"`
	User string `json:"user"`
	// Channel is the person's direct message with the bot; ThreadTS the
	// pane's thread, "" for app_context_changed.
	Channel  string `json:"channel"`
	ThreadTS string `json:"thread_ts,omitempty"`
	// Context is the channel the person looks at, "" for none.
	Context string `json:"context,omitempty"`
}

// onThreadStarted handles assistant_thread_started and
// assistant_thread_context_changed: prompts for the thread's person and
// the channel they look at, through the inbox (acked once recorded; left
// unacked, for Slack to send again, when Redis cannot take it).
func (p *pane) onThreadStarted(ctx context.Context, r *bot.EventRequest) {
	var th slackevents.AssistantThread
	switch ev := r.Event.InnerEvent.Data.(type) {
	case *slackevents.AssistantThreadStartedEvent:
		th = ev.AssistantThread
	case *slackevents.AssistantThreadContextChangedEvent:
		th = ev.AssistantThread
	}
	if th.UserID == "" || th.ChannelID == "" {
		r.Ack(nil)
		return
	}
	p.accept(ctx, r, promptsRequest{Team: r.Event.TeamID, User: th.UserID, Channel: th.ChannelID,
		ThreadTS: th.ThreadTimeStamp, Context: th.Context.ChannelID})
}

// onAppContext handles app_context_changed (the agent view): the prompts
// follow the first channel the person has open, or the channel of the
// message they look at.
func (p *pane) onAppContext(ctx context.Context, r *bot.EventRequest) {
	ev, ok := r.Event.InnerEvent.Data.(*slackevents.AppContextChangedEvent)
	if !ok || ev.User == "" || ev.Channel == "" {
		r.Ack(nil)
		return
	}
	p.accept(ctx, r, promptsRequest{Team: r.Event.TeamID, User: ev.User, Channel: ev.Channel, Context: contextChannel(ev.Context)})
}

// contextChannel is the channel of the most relevant entity of c that
// names one, "" when none does.
func contextChannel(c slackevents.AppContext) string {
	for _, e := range c.Entities {
		switch {
		case e.Type == slackevents.AppContextEntityChannel && e.Value != "":
			return e.Value
		case e.Type == slackevents.AppContextEntityMessageContext && e.Message != nil && e.Message.ChannelID != "":
			return e.Message.ChannelID
		}
	}
	return ""
}

// accept records the prompts' work keyed by the event, then acks.
func (p *pane) accept(ctx context.Context, r *bot.EventRequest, req promptsRequest) {
	if p.core.Self(ctx).OwnOrBot(&slackevents.MessageEvent{User: req.User}) {
		r.Ack(nil)
		return
	}
	payload, _ := json.Marshal(req)
	key := "ev:" + r.DeliveryID
	if r.DeliveryID == "" {
		// The prefix is the one earlier versions stored: kept.
		key = "assistant:" + req.Team + ":" + req.Channel + ":" + req.ThreadTS + ":" + req.Context
	}
	if !p.core.AcceptEnvelope(ctx, store.Work{Key: key, Kind: workPrompts, Payload: payload}, bot.RedeliveredEvent) {
		return // not acknowledged: Slack sends it again
	}
	r.Ack(nil)
}
