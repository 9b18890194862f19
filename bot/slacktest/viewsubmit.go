package slacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
)

// SubmitView delivers a view_submission for the open modal sub.ViewID
// (the top of its stack) with the values entered (an input left alone
// submits its initial value, as on Slack), and returns after the ack
// or ctx. The ack's response_action acts as on Slack: none closes the modal,
// "clear" closes its whole stack, "update" replaces it, "push" pushes a new
// modal, "errors" keeps it open with the errors (View.Errors).
func (s *Server) SubmitView(ctx context.Context, sub ViewSubmission) (Interaction, error) {
	s.mu.Lock()
	v, ok := s.views[sub.ViewID]
	if !ok || !v.open || v.def.Type != "modal" || s.topOfLocked(v.root) != v.id {
		s.mu.Unlock()
		return Interaction{}, fmt.Errorf("slacktest: view %s is not an open modal on top of its stack", sub.ViewID)
	}
	state, err := submittedState(v.def.Blocks, sub.Values)
	if err != nil {
		s.mu.Unlock()
		return Interaction{}, fmt.Errorf("slacktest: view %s: %w", v.id, err)
	}
	v.state = state
	v.errors = nil
	trigger := s.issueTriggerLocked(v.user)
	e := s.newEnvelopeLocked(typeInteractive, s.interactionLocked("view_submission", v.user, map[string]any{
		"view":          v.wire(s),
		"trigger_id":    trigger,
		"response_urls": []any{},
	}))
	e.accepts = true
	e.onAckLocked = func(payload json.RawMessage) { s.applyViewResponseLocked(v, payload) }
	s.mu.Unlock()
	return s.sendInteraction(ctx, e, Interaction{TriggerID: trigger})
}

// applyViewResponseLocked acts on a view_submission ack's payload.
func (s *Server) applyViewResponseLocked(v *view, payload json.RawMessage) {
	var resp struct {
		ResponseAction string            `json:"response_action"`
		View           json.RawMessage   `json:"view"`
		Errors         map[string]string `json:"errors"`
	}
	_ = json.Unmarshal(nonNull(payload), &resp)
	switch resp.ResponseAction {
	case "errors":
		v.errors = resp.Errors
	case "update":
		if d, _, ok := parseView(string(resp.View), "modal"); ok {
			v.def = d
			v.hash = s.viewHashLocked()
			v.updates++
		}
	case "push":
		if d, _, ok := parseView(string(resp.View), "modal"); ok && s.depthLocked(v)+1 < maxViewStack {
			if nv, code := s.newViewLocked(d, v.user); code == "" {
				nv.root, nv.previous = v.root, v.id
			}
		}
	case "clear":
		for _, x := range s.stackLocked(v.root) {
			x.open = false
		}
	default:
		v.open = false
	}
}

// CloseView closes the open modal viewID as its person's Cancel button
// would. Slack sends view_closed only for a view with notify_on_close; for
// another the modal just closes and the Interaction is empty.
func (s *Server) CloseView(ctx context.Context, viewID string) (Interaction, error) {
	s.mu.Lock()
	v, ok := s.views[viewID]
	if !ok || !v.open || v.def.Type != "modal" {
		s.mu.Unlock()
		return Interaction{}, fmt.Errorf("slacktest: view %s is not an open modal", viewID)
	}
	v.open = false
	if !v.def.NotifyOnClose {
		s.mu.Unlock()
		s.changed()
		return Interaction{}, nil
	}
	e := s.newEnvelopeLocked(typeInteractive, s.interactionLocked("view_closed", v.user, map[string]any{
		"view":       v.wire(s),
		"is_cleared": false,
	}))
	s.mu.Unlock()
	return s.sendInteraction(ctx, e, Interaction{})
}

// submittedState is a submitted view's state.values: every input block's
// element, with the value entered or null, as Slack sends them. Each entry
// of values must name an input element of blocks.
func submittedState(blocks json.RawMessage, values map[string]map[string]string) (map[string]map[string]any, error) {
	state := map[string]map[string]any{}
	var list []struct {
		Type    string         `json:"type"`
		BlockID string         `json:"block_id"`
		Element map[string]any `json:"element"`
	}
	_ = json.Unmarshal(nonNull(blocks), &list)
	for _, b := range list {
		actionID, _ := b.Element["action_id"].(string)
		if b.Type != "input" || b.BlockID == "" || actionID == "" {
			continue
		}
		typ, _ := b.Element["type"].(string)
		entry := map[string]any{"type": typ, "value": nil}
		v, ok := values[b.BlockID][actionID]
		if !ok {
			// Left as shown: Slack submits the element's initial value.
			v, ok = initialValue(b.Element)
		}
		if ok {
			entry = map[string]any{"type": typ}
			maps.Copy(entry, elementValue(typ, v))
		}
		state[b.BlockID] = map[string]any{actionID: entry}
	}
	for blockID, actions := range values {
		for actionID := range actions {
			if _, ok := state[blockID][actionID]; !ok {
				return nil, fmt.Errorf("no input element %s/%s", blockID, actionID)
			}
		}
	}
	return state, nil
}

// initialValue is what an input element shows before the person types:
// a text input's initial_value, a select's initial_option, the
// conversation, channel or user a select starts on, a time picker's time,
// the people or conversations of a multi select (their ids separated by
// commas, as elementValue takes them).
func initialValue(el map[string]any) (string, bool) {
	for _, k := range []string{"initial_value", "initial_conversation", "initial_channel", "initial_user", "initial_time"} {
		if v, ok := el[k].(string); ok {
			return v, true
		}
	}
	for _, k := range []string{"initial_users", "initial_conversations"} {
		if list, ok := el[k].([]any); ok {
			var ids []string
			for _, u := range list {
				if id, ok := u.(string); ok {
					ids = append(ids, id)
				}
			}
			return strings.Join(ids, ","), true
		}
	}
	if opt, ok := el["initial_option"].(map[string]any); ok {
		if v, ok := opt["value"].(string); ok {
			return v, true
		}
	}
	return "", false
}
