package slacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
)

const typeInteractive = "interactive"

// Interaction is an interactive envelope on its way to the app (Act,
// SubmitView, CloseView, Shortcut, MessageShortcut).
type Interaction struct {
	// EnvelopeID names the envelope, for Redeliver.
	EnvelopeID string
	// TriggerID is the trigger id the payload carries ("" for view_closed):
	// it opens one view within 3 s (WithTriggerTTL).
	TriggerID string
	// ResponseURL is the payload's response_url, "" when it has none.
	ResponseURL string
	// Ack is the app's ack (with its payload, such as a view_submission's
	// response_action).
	Ack *Ack
}

// Action is a person using an interactive element (a button, a select
// menu, a feedback button) of a message or a view.
type Action struct {
	UserID string
	// ChannelID and MessageTS name the message holding the element: a
	// message in the channel's history or an ephemeral message shown to
	// UserID. Leave them empty and set ViewID for an element of a modal or
	// Home tab.
	ChannelID string
	MessageTS string
	ViewID    string
	// ActionID is the element's action_id; the element must be in the
	// message's blocks, an app unfurl's under it, or the view's.
	ActionID string
	// Value is the value chosen (a select menu's option value, a feedback
	// button's value); "" sends the element's own value (a button's).
	Value string
}

// ViewSubmission is a person pressing a modal's submit button.
type ViewSubmission struct {
	ViewID string
	// Values are what the person entered: by block_id, then action_id, the
	// value of each input block's element (a select's option value). Every
	// one must name an input element of the view.
	Values map[string]map[string]string
}

// Shortcut is a person running the app's global shortcut CallbackID.
type Shortcut struct {
	UserID     string
	CallbackID string
}

// MessageShortcut is a person running the app's message shortcut
// CallbackID on the message MessageTS of ChannelID.
type MessageShortcut struct {
	UserID     string
	CallbackID string
	ChannelID  string
	MessageTS  string
}

// userObject is the user of an interaction payload.
func (s *Server) userObjectLocked(id string) map[string]any {
	return map[string]any{"id": id, "username": s.users[id], "name": s.users[id], "team_id": s.teamOfLocked(id)}
}

// interactionLocked fills in the fields every interaction payload has:
// the team is the workspace of its channel, else of the person.
func (s *Server) interactionLocked(typ, user string, fields map[string]any) map[string]any {
	w := s.homeWorkspaceLocked(user)
	if c, ok := fields["channel"].(map[string]any); ok {
		if ch, ok := s.channels[c["id"].(string)]; ok {
			w = s.channelWorkspaceLocked(ch)
		}
	}
	var enterprise any
	if w.Enterprise != "" {
		enterprise = map[string]any{"id": w.Enterprise, "name": w.EnterpriseName}
	}
	p := map[string]any{
		"type":                  typ,
		"token":                 s.verify,
		"team":                  map[string]any{"id": w.Team, "domain": w.Domain},
		"user":                  s.userObjectLocked(user),
		"api_app_id":            s.cfg.appID,
		"is_enterprise_install": s.orgInstalledLocked(w),
		"enterprise":            enterprise,
	}
	maps.Copy(p, fields)
	return p
}

// sendInteraction delivers an interactive envelope and waits for its ack.
func (s *Server) sendInteraction(ctx context.Context, e *envelope, in Interaction) (Interaction, error) {
	in.EnvelopeID = e.id
	s.changed()
	s.deliver(e)
	ack, err := s.waitAck(ctx, e, 0)
	in.Ack = ack
	return in, err
}

// Act delivers a block_actions interaction: a's element, found in its
// message or view, with a trigger id and, for a message, the message, its
// container and a response_url whose replace_original and delete_original
// act on that message. It returns after the ack or ctx.
func (s *Server) Act(ctx context.Context, a Action) (Interaction, error) {
	s.mu.Lock()
	if _, ok := s.users[a.UserID]; !ok {
		s.mu.Unlock()
		return Interaction{}, fmt.Errorf("slacktest: action by unknown user %q", a.UserID)
	}
	fields := map[string]any{"state": map[string]any{"values": map[string]any{}}}
	var blocks json.RawMessage
	var m *msg
	switch {
	case a.ViewID != "":
		v, ok := s.views[a.ViewID]
		if !ok || !v.open || (v.user != a.UserID) {
			s.mu.Unlock()
			return Interaction{}, fmt.Errorf("slacktest: view %s is not open for %s", a.ViewID, a.UserID)
		}
		blocks = v.def.Blocks
		fields["container"] = map[string]any{"type": "view", "view_id": v.id}
		fields["view"] = v.wire(s)
	default:
		var ch *channelState
		m, ch = s.actionMessageLocked(a)
		if m == nil {
			s.mu.Unlock()
			return Interaction{}, fmt.Errorf("slacktest: no message %s in %s for %s", a.MessageTS, a.ChannelID, a.UserID)
		}
		blocks = m.blocks
		container := map[string]any{"type": "message", "message_ts": m.ts, "channel_id": a.ChannelID, "is_ephemeral": m.ephemeral}
		if tts := m.threadTSValue(); tts != "" {
			container["thread_ts"] = tts
		}
		fields["container"] = container
		fields["channel"] = map[string]any{"id": a.ChannelID, "name": ch.Name}
		if !m.ephemeral {
			fields["message"] = s.wireLocked(m)
		}
	}
	act, err := actionOf(blocks, a.ActionID, a.Value)
	if err != nil && m != nil && m.share != nil {
		// An element of an app's unfurl under the message: Slack's
		// container is then the attachment (is_app_unfurl).
		for _, u := range m.share.order {
			x := m.share.unfurls[u]
			if got, uerr := actionOf(x.Blocks, a.ActionID, a.Value); uerr == nil {
				act, err = got, nil
				c := fields["container"].(map[string]any)
				c["type"], c["is_app_unfurl"], c["app_unfurl_url"] = "message_attachment", true, u
				break
			}
		}
	}
	if err != nil {
		s.mu.Unlock()
		return Interaction{}, err
	}
	trigger := s.issueTriggerLocked(a.UserID)
	in := Interaction{TriggerID: trigger}
	if m != nil {
		ru := s.newResponseURLLocked(trigger, a.ChannelID, a.UserID)
		ru.last = m
		fields["response_url"] = ru.url
		in.ResponseURL = ru.url
	}
	act["action_ts"] = s.nextTSLocked()
	fields["actions"] = []map[string]any{act}
	fields["trigger_id"] = trigger
	e := s.newEnvelopeLocked(typeInteractive, s.interactionLocked("block_actions", a.UserID, fields))
	s.mu.Unlock()
	return s.sendInteraction(ctx, e, in)
}

// ActAgain delivers the press of earlier (an Act's) once more, as the
// person's other client, still showing the message as it was, sends it
// after the first press changed the message: a new delivery with its own
// trigger id, action_ts and response_url (acting on the message as it now
// stands). Redeliver is the same delivery sent again; this is another.
// It returns after the ack or ctx.
func (s *Server) ActAgain(ctx context.Context, earlier Interaction) (Interaction, error) {
	s.mu.Lock()
	e, ok := s.envs[earlier.EnvelopeID]
	if !ok {
		s.mu.Unlock()
		return Interaction{}, fmt.Errorf("%w: %s", ErrUnknownEnvelope, earlier.EnvelopeID)
	}
	var p map[string]any
	if err := json.Unmarshal(e.payload, &p); err != nil {
		s.mu.Unlock()
		return Interaction{}, fmt.Errorf("slacktest: the earlier press: %w", err)
	}
	u, _ := p["user"].(map[string]any)
	user, _ := u["id"].(string)
	trigger := s.issueTriggerLocked(user)
	in := Interaction{TriggerID: trigger}
	p["trigger_id"] = trigger
	if old, ok := s.responseURLLocked(earlier.ResponseURL); ok {
		// The new response_url acts on the message holding the button, as
		// it now stands (not on what the first press's URL posted since).
		ru := s.newResponseURLLocked(trigger, old.channel, user)
		c, _ := p["container"].(map[string]any)
		ts, _ := c["message_ts"].(string)
		ru.last, _ = s.actionMessageLocked(Action{UserID: user, ChannelID: old.channel, MessageTS: ts})
		p["response_url"], in.ResponseURL = ru.url, ru.url
	}
	if acts, ok := p["actions"].([]any); ok && len(acts) > 0 {
		if act, ok := acts[0].(map[string]any); ok {
			act["action_ts"] = s.nextTSLocked()
		}
	}
	again := s.newEnvelopeLocked(typeInteractive, p)
	s.mu.Unlock()
	return s.sendInteraction(ctx, again, in)
}

// actionMessageLocked finds the message of a, in the channel's history or
// among the ephemerals shown to a.UserID.
func (s *Server) actionMessageLocked(a Action) (*msg, *channelState) {
	ch, ok := s.channels[a.ChannelID]
	if !ok {
		return nil, nil
	}
	if m, ok := ch.byTS[a.MessageTS]; ok {
		return m, ch
	}
	for _, m := range s.ephemerals {
		if m.channel == a.ChannelID && m.ts == a.MessageTS && m.forUser == a.UserID {
			return m, ch
		}
	}
	return nil, nil
}

// findElement finds the interactive element actionID in blocks: a section's
// accessory, an element of an actions or context_actions block, an input
// block's element, or the button of a data_table's action_cell. It returns
// the element and its block's id.
func findElement(blocks json.RawMessage, actionID string) (map[string]any, string, bool) {
	var list []map[string]json.RawMessage
	if json.Unmarshal(nonNull(blocks), &list) != nil {
		return nil, "", false
	}
	for _, blk := range list {
		var blockID string
		_ = json.Unmarshal(blk["block_id"], &blockID)
		var candidates []map[string]any
		for _, key := range []string{"accessory", "element"} {
			var el map[string]any
			if json.Unmarshal(blk[key], &el) == nil && el != nil {
				candidates = append(candidates, el)
			}
		}
		var els []map[string]any
		if json.Unmarshal(blk["elements"], &els) == nil {
			candidates = append(candidates, els...)
		}
		var rows [][]struct {
			Element map[string]any `json:"element"`
		}
		if json.Unmarshal(blk["rows"], &rows) == nil {
			for _, row := range rows {
				for _, cell := range row {
					if cell.Element != nil {
						candidates = append(candidates, cell.Element)
					}
				}
			}
		}
		for _, el := range candidates {
			if id, _ := el["action_id"].(string); id == actionID {
				return el, blockID, true
			}
		}
	}
	return nil, "", false
}

// actionOf renders the action of element actionID of blocks as Slack sends
// it in block_actions.
func actionOf(blocks json.RawMessage, actionID, value string) (map[string]any, error) {
	el, blockID, ok := findElement(blocks, actionID)
	if !ok {
		return nil, fmt.Errorf("slacktest: no element with action_id %q in the blocks", actionID)
	}
	typ, _ := el["type"].(string)
	act := map[string]any{"type": typ, "action_id": actionID, "block_id": blockID}
	if t, ok := el["text"]; ok {
		act["text"] = t
	}
	if value == "" {
		value, _ = el["value"].(string)
	}
	maps.Copy(act, elementValue(typ, value))
	return act, nil
}

// elementValue is how an element of type typ reports value: the
// conversation, channel or user of those selects (selected_conversation,
// ...), the people of a multi-users select (selected_users; value holds
// their ids separated by commas), selected_option for other select menus,
// value otherwise.
func elementValue(typ, value string) map[string]any {
	switch typ {
	case "conversations_select":
		return map[string]any{"selected_conversation": value}
	case "channels_select":
		return map[string]any{"selected_channel": value}
	case "users_select":
		return map[string]any{"selected_user": value}
	case "multi_users_select":
		return map[string]any{"selected_users": idList(value)}
	case "multi_conversations_select":
		return map[string]any{"selected_conversations": idList(value)}
	case "timepicker":
		return map[string]any{"selected_time": nilIfEmpty(value)}
	}
	if strings.HasSuffix(typ, "_select") && !strings.HasPrefix(typ, "multi_") {
		return map[string]any{"selected_option": map[string]any{
			"text":  map[string]any{"type": "plain_text", "text": value},
			"value": value,
		}}
	}
	return map[string]any{"value": value}
}

// idList is ids separated by commas, as a multi select's value.
func idList(value string) []string {
	ids := []string{}
	for id := range strings.SplitSeq(value, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// nilIfEmpty is value, or null for none (a time picker left empty).
func nilIfEmpty(value string) any {
	if value == "" {
		return nil
	}
	return value
}

// Shortcut delivers a global shortcut (type shortcut) with a trigger id
// and returns after the ack or ctx.
func (s *Server) Shortcut(ctx context.Context, sc Shortcut) (Interaction, error) {
	s.mu.Lock()
	if _, ok := s.users[sc.UserID]; !ok {
		s.mu.Unlock()
		return Interaction{}, fmt.Errorf("slacktest: shortcut by unknown user %q", sc.UserID)
	}
	trigger := s.issueTriggerLocked(sc.UserID)
	e := s.newEnvelopeLocked(typeInteractive, s.interactionLocked("shortcut", sc.UserID, map[string]any{
		"callback_id": sc.CallbackID,
		"trigger_id":  trigger,
		"action_ts":   s.nextTSLocked(),
	}))
	s.mu.Unlock()
	return s.sendInteraction(ctx, e, Interaction{TriggerID: trigger})
}

// MessageShortcut delivers a message shortcut (type message_action) with
// the message, its channel, a trigger id and a response_url, and returns
// after the ack or ctx.
func (s *Server) MessageShortcut(ctx context.Context, ms MessageShortcut) (Interaction, error) {
	s.mu.Lock()
	_, known := s.users[ms.UserID]
	ch, ok := s.channels[ms.ChannelID]
	var m *msg
	if ok {
		m = ch.byTS[ms.MessageTS]
	}
	if !known || m == nil {
		s.mu.Unlock()
		return Interaction{}, fmt.Errorf("slacktest: message shortcut by %q on unknown message %s in %s", ms.UserID, ms.MessageTS, ms.ChannelID)
	}
	trigger := s.issueTriggerLocked(ms.UserID)
	ru := s.newResponseURLLocked(trigger, ch.ID, ms.UserID)
	e := s.newEnvelopeLocked(typeInteractive, s.interactionLocked("message_action", ms.UserID, map[string]any{
		"callback_id":  ms.CallbackID,
		"trigger_id":   trigger,
		"action_ts":    s.nextTSLocked(),
		"response_url": ru.url,
		"channel":      map[string]any{"id": ch.ID, "name": ch.Name},
		"message_ts":   m.ts,
		"message":      s.wireLocked(m),
	}))
	s.mu.Unlock()
	return s.sendInteraction(ctx, e, Interaction{TriggerID: trigger, ResponseURL: ru.url})
}
