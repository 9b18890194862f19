package slacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
)

// SubmitView delivers a view_submission for the open modal sub.ViewID
// (the top of its stack) with the values entered, and returns after the ack
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
	state := map[string]map[string]any{}
	for blockID, actions := range sub.Values {
		for actionID, value := range actions {
			el, gotBlock, found := findElement(v.def.Blocks, actionID)
			if !found || gotBlock != blockID {
				s.mu.Unlock()
				return Interaction{}, fmt.Errorf("slacktest: view %s has no element %s/%s", v.id, blockID, actionID)
			}
			typ, _ := el["type"].(string)
			entry := map[string]any{"type": typ}
			maps.Copy(entry, elementValue(typ, value))
			if state[blockID] == nil {
				state[blockID] = map[string]any{}
			}
			state[blockID][actionID] = entry
		}
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
