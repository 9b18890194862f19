package slacktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
)

// ErrUnknownEnvelope is returned by Redeliver for an envelope the server never
// sent, or one acknowledged so long ago that it was forgotten (see Redeliver).
var ErrUnknownEnvelope = errors.New("slacktest: unknown envelope")

// SlashCommand runs c as a person would: it sends a slash_commands envelope to
// one connection (round robin; queued until one is open) and waits for the
// client's ack or ctx. A payload in the ack is shown to the user as Slack does
// (ephemeral unless response_type is "in_channel").
func (s *Server) SlashCommand(ctx context.Context, c SlashCommand) (*Ack, error) {
	e, _, err := s.startSlashCommand(c)
	if err != nil {
		return nil, err
	}
	return s.waitAck(ctx, e, 0)
}

// SendSlashCommand runs c like SlashCommand but returns once the envelope is on
// its way, with its envelope id and the trigger id of the invocation.
func (s *Server) SendSlashCommand(ctx context.Context, c SlashCommand) (envelopeID, triggerID string, err error) {
	if err := ctx.Err(); err != nil {
		return "", "", err
	}
	e, trigger, err := s.startSlashCommand(c)
	if err != nil {
		return "", "", err
	}
	return e.id, trigger, nil
}

func (s *Server) startSlashCommand(c SlashCommand) (*envelope, string, error) {
	if !strings.HasPrefix(c.Command, "/") {
		return nil, "", fmt.Errorf("slacktest: slash command %q must start with '/'", c.Command)
	}
	s.mu.Lock()
	ch, ok := s.channels[c.ChannelID]
	if !ok {
		s.mu.Unlock()
		return nil, "", fmt.Errorf("slacktest: slash command in unknown channel %q", c.ChannelID)
	}
	userName, ok := s.users[c.UserID]
	if !ok {
		s.mu.Unlock()
		return nil, "", fmt.Errorf("slacktest: slash command by unknown user %q", c.UserID)
	}
	trigger := s.issueTriggerLocked(c.UserID)
	ru := s.newResponseURLLocked(trigger, ch.ID, c.UserID)
	channelName := ch.Name
	switch {
	case ch.IMUser != "":
		channelName = "directmessage"
	case ch.Private:
		channelName = "privategroup" // what Slack reports for private channels
	}
	w := s.channelWorkspaceLocked(ch)
	payload := map[string]any{
		"token":                 s.verify,
		"team_id":               w.Team,
		"team_domain":           w.Domain,
		"channel_id":            ch.ID,
		"channel_name":          channelName,
		"user_id":               c.UserID,
		"user_name":             userName,
		"command":               c.Command,
		"text":                  c.Text,
		"api_app_id":            s.cfg.appID,
		"is_enterprise_install": fmt.Sprint(s.orgInstalledLocked(w)),
		"response_url":          ru.url,
		"trigger_id":            trigger,
	}
	if w.Enterprise != "" {
		payload["enterprise_id"], payload["enterprise_name"] = w.Enterprise, w.EnterpriseName
	}
	e := s.newEnvelopeLocked(typeSlashCommands, payload)
	e.resp = ru
	s.mu.Unlock()
	s.deliver(e)
	return e, trigger, nil
}

// PostUserMessage posts m as the person m.UserID: it is stored in the channel's
// history (a reply under its thread's parent, updating reply_count and
// latest_reply) and, when the bot is a member of the channel, delivered as a
// message event to one connection (queued until one is open); in an
// assistant thread (OpenAssistantThread) the event carries an
// assistant_thread action token, and in the person's direct message with
// the app their app context (ChangeAppContext). When the text links to the
// app's unfurl domains (WithUnfurlDomains), Slack also sends link_shared,
// in the channel or not (see ShareLinks). It returns after the client's
// acks or ctx. When the bot is not a member, no message event is sent and
// eventID is "".
func (s *Server) PostUserMessage(ctx context.Context, m UserMessage) (ts, eventID string, err error) {
	s.mu.Lock()
	ch, ok := s.channels[m.ChannelID]
	if !ok {
		s.mu.Unlock()
		return "", "", fmt.Errorf("slacktest: message in unknown channel %q", m.ChannelID)
	}
	stored, err := s.storeUserMessageLocked(ch, m)
	if err != nil {
		s.mu.Unlock()
		return "", "", err
	}
	ts = stored.ts
	files := s.shareFilesLocked(ch, stored, m)
	if len(files) > 0 {
		stored.files, _ = json.Marshal(files)
	}
	var envs []*envelope
	if ch.BotMember {
		ev := s.messageEventLocked(ch, stored)
		ev["client_msg_id"] = newUUID()
		if len(files) > 0 {
			ev["subtype"], ev["upload"], ev["files"] = "file_share", false, files
		}
		s.assistantMessageFieldsLocked(ev, ch, stored)
		var e *envelope
		e, eventID = s.callbackLocked(ev)
		envs = append(envs, e)
	}
	if e := s.linkSharedLocked(ch, stored); e != nil {
		envs = append(envs, e)
	}
	s.mu.Unlock()
	s.changed()
	return ts, eventID, s.deliverAll(ctx, envs)
}

// DeliverEvent wraps event (any inner event: message_changed, bot_message,
// member_joined_channel, ...) in an event_callback, delivers it to one
// connection and waits for the ack or ctx. event_ts is added when missing. The
// event id is returned even when ctx ends first.
func (s *Server) DeliverEvent(ctx context.Context, event map[string]any) (eventID string, err error) {
	if _, ok := event["type"]; !ok {
		return "", errors.New("slacktest: event has no type")
	}
	if _, err := json.Marshal(event); err != nil {
		return "", fmt.Errorf("slacktest: event is not JSON: %w", err)
	}
	s.mu.Lock()
	e, id := s.callbackLocked(maps.Clone(event))
	s.mu.Unlock()
	s.deliver(e)
	_, err = s.waitAck(ctx, e, 0)
	return id, err
}

// Redeliver sends the envelope again, unchanged but for retry_attempt (one more
// than its last sending) and retry_reason "timeout", to one connection
// (possibly another than before), as Slack does when it believes a delivery
// failed. It waits for an ack of this sending or ctx.
//
// The server keeps every envelope not yet acknowledged, and the last 10,000
// acknowledged ones; older acknowledged envelopes are forgotten, so that a
// long run does not grow without bound, and Redeliver answers
// ErrUnknownEnvelope for them.
func (s *Server) Redeliver(ctx context.Context, envelopeID string) error {
	s.mu.Lock()
	e, ok := s.envs[envelopeID]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrUnknownEnvelope, envelopeID)
	}
	e.stopTimer()
	e.attempt++
	e.reason = "timeout"
	e.gaveUp, e.lastLost = false, false
	before := e.acks
	s.mu.Unlock()
	s.deliver(e)
	_, err := s.waitAck(ctx, e, before)
	return err
}

// waitAck waits until e has more than n acks and returns the first ack.
func (s *Server) waitAck(ctx context.Context, e *envelope, n int) (*Ack, error) {
	var ack Ack
	err := s.WaitFor(ctx, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if e.acks <= n {
			return false
		}
		ack = *e.firstAck
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("slacktest: waiting for the ack of envelope %s: %w", e.id, err)
	}
	ack.Payload = cloneRaw(ack.Payload)
	return &ack, nil
}

// richTextBlocks is the rich_text block Slack's clients attach to a typed
// message: its text, with each mention of a person (<@U…>) as a user element.
func richTextBlocks(text string) json.RawMessage {
	var elements []map[string]any
	for text != "" {
		i := strings.Index(text, "<@")
		end := -1
		if i >= 0 {
			end = strings.IndexByte(text[i:], '>')
		}
		if i < 0 || end < 0 {
			elements = append(elements, map[string]any{"type": "text", "text": text})
			break
		}
		if i > 0 {
			elements = append(elements, map[string]any{"type": "text", "text": text[:i]})
		}
		id, _, _ := strings.Cut(text[i+2:i+end], "|")
		elements = append(elements, map[string]any{"type": "user", "user_id": id})
		text = text[i+end+1:]
	}
	b, _ := json.Marshal([]map[string]any{{
		"type":     "rich_text",
		"block_id": randomString(5),
		"elements": []map[string]any{{
			"type":     "rich_text_section",
			"elements": elements,
		}},
	}})
	return b
}

// ForgeViewSubmission delivers a view_submission that Slack itself would
// not send: for the open modal viewID (anyone's) but from user, with the
// values given, as a request forged by someone holding the app's
// connection or signing secret would come. It is for tests that the bot
// decides who may act by the payload's user alone and trusts nothing else
// in it. It returns after the ack or ctx; the ack acts on nothing.
func (s *Server) ForgeViewSubmission(ctx context.Context, viewID, user string, values map[string]map[string]string) (Interaction, error) {
	s.mu.Lock()
	v, ok := s.views[viewID]
	if !ok {
		s.mu.Unlock()
		return Interaction{}, fmt.Errorf("slacktest: no view %s", viewID)
	}
	state, err := submittedState(v.def.Blocks, values)
	if err != nil {
		s.mu.Unlock()
		return Interaction{}, fmt.Errorf("slacktest: view %s: %w", v.id, err)
	}
	wire := v.wire(s)
	wire["state"] = map[string]any{"values": state}
	trigger := s.issueTriggerLocked(user)
	e := s.newEnvelopeLocked(typeInteractive, s.interactionLocked("view_submission", user, map[string]any{
		"view": wire, "trigger_id": trigger, "response_urls": []any{},
	}))
	e.accepts = true
	s.mu.Unlock()
	return s.sendInteraction(ctx, e, Interaction{TriggerID: trigger})
}
