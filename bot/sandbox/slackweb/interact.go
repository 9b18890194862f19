package slackweb

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// ActionRequest is the body of POST /api/action: the person used the
// element ActionID (a button, an overflow or select option, a feedback
// button) of the message TS in Channel, or of the view ViewID.
type ActionRequest struct {
	Channel  string `json:"channel,omitempty"`
	TS       string `json:"ts,omitempty"`
	ViewID   string `json:"view_id,omitempty"`
	ActionID string `json:"action_id"`
	// Value is the option chosen; "" sends the element's own value.
	Value string `json:"value,omitempty"`
}

// ShortcutRequest is the body of POST /api/shortcut: the person chose the
// message shortcut CallbackID in the menu of the message TS in Channel.
type ShortcutRequest struct {
	Channel    string `json:"channel"`
	TS         string `json:"ts"`
	CallbackID string `json:"callback_id"`
}

// ViewRequest is the body of POST /api/view/submit and /api/view/close:
// the modal ViewID and, when submitted, what was entered in its input
// blocks (by block_id, then action_id).
type ViewRequest struct {
	ViewID string                       `json:"view_id"`
	Values map[string]map[string]string `json:"values,omitempty"`
}

// interaction runs one interaction for the page's person and answers it:
// pending when the bot has not acknowledged it within the ack wait.
func (h *Handler) interaction(w http.ResponseWriter, r *http.Request, refuse refuser, what string,
	run func(ctx context.Context) (slacktest.Interaction, error), done func(slacktest.Interaction, *SendResponse)) {
	ctx, cancel := context.WithTimeout(r.Context(), h.cfg.ackWait)
	defer cancel()
	in, err := run(ctx)
	out := SendResponse{OK: true, EnvelopeID: in.EnvelopeID}
	switch {
	case err == nil:
		if done != nil {
			done(in, &out)
		}
		writeJSON(w, http.StatusOK, out)
	case in.EnvelopeID != "" && errors.Is(err, context.DeadlineExceeded):
		out.Pending = true
		out.Message = h.botName() + " has not answered yet."
		writeJSON(w, http.StatusOK, out)
	default:
		h.cfg.logger.Warn("slackweb: interaction failed", "what", what, "err", err)
		refuse(http.StatusBadRequest, "not_sent", "The "+what+" did not reach "+h.botName()+": it is no longer there.")
	}
}

// serveAction answers POST /api/action.
func (h *Handler) serveAction(w http.ResponseWriter, r *http.Request) {
	var req ActionRequest
	refuse, ok := h.readJSON(w, r, &req)
	if !ok {
		return
	}
	if req.ActionID == "" || (req.ViewID == "") == (req.Channel == "") {
		refuse(http.StatusBadRequest, "invalid_action", "Name an element of a message or of a view.")
		return
	}
	if _, known := h.channel(req.Channel, me(r)); req.Channel != "" && !known {
		refuse(http.StatusNotFound, "channel_not_found", "There is no such channel.")
		return
	}
	h.interaction(w, r, refuse, "click", func(ctx context.Context) (slacktest.Interaction, error) {
		return h.srv.Act(ctx, slacktest.Action{UserID: me(r), ChannelID: req.Channel, MessageTS: req.TS,
			ViewID: req.ViewID, ActionID: req.ActionID, Value: req.Value})
	}, nil)
}

// serveShortcut answers POST /api/shortcut.
func (h *Handler) serveShortcut(w http.ResponseWriter, r *http.Request) {
	var req ShortcutRequest
	refuse, ok := h.readJSON(w, r, &req)
	if !ok {
		return
	}
	if _, known := h.channel(req.Channel, me(r)); !known {
		refuse(http.StatusNotFound, "channel_not_found", "There is no such channel.")
		return
	}
	if !h.knowsShortcut(req.CallbackID) {
		refuse(http.StatusBadRequest, "invalid_shortcut", "The app has no such shortcut.")
		return
	}
	h.interaction(w, r, refuse, "shortcut", func(ctx context.Context) (slacktest.Interaction, error) {
		return h.srv.MessageShortcut(ctx, slacktest.MessageShortcut{UserID: me(r), CallbackID: req.CallbackID,
			ChannelID: req.Channel, MessageTS: req.TS})
	}, nil)
}

func (h *Handler) knowsShortcut(id string) bool {
	for _, s := range h.cfg.shortcuts {
		if s.CallbackID == id {
			return true
		}
	}
	return false
}

// viewRequest reads a ViewRequest naming one of the person's open modals.
func (h *Handler) viewRequest(w http.ResponseWriter, r *http.Request) (ViewRequest, refuser, bool) {
	var req ViewRequest
	refuse, ok := h.readJSON(w, r, &req)
	if !ok {
		return req, refuse, false
	}
	for _, v := range h.srv.OpenModals(me(r)) {
		if v.ID == req.ViewID {
			return req, refuse, true
		}
	}
	refuse(http.StatusNotFound, "view_not_found", "That window is no longer open.")
	return req, refuse, false
}

// serveSubmit answers POST /api/view/submit. The answer carries the errors
// the bot's ack returned (response_action "errors"), by block_id.
func (h *Handler) serveSubmit(w http.ResponseWriter, r *http.Request) {
	req, refuse, ok := h.viewRequest(w, r)
	if !ok {
		return
	}
	h.interaction(w, r, refuse, "form", func(ctx context.Context) (slacktest.Interaction, error) {
		return h.srv.SubmitView(ctx, slacktest.ViewSubmission{ViewID: req.ViewID, Values: req.Values})
	}, func(in slacktest.Interaction, out *SendResponse) {
		if in.Ack == nil {
			return
		}
		var resp struct {
			ResponseAction string            `json:"response_action"`
			Errors         map[string]string `json:"errors"`
		}
		if json.Unmarshal(in.Ack.Payload, &resp) == nil && resp.ResponseAction == "errors" {
			out.Errors = resp.Errors
		}
	})
}

// serveClose answers POST /api/view/close.
func (h *Handler) serveClose(w http.ResponseWriter, r *http.Request) {
	req, refuse, ok := h.viewRequest(w, r)
	if !ok {
		return
	}
	h.interaction(w, r, refuse, "close", func(ctx context.Context) (slacktest.Interaction, error) {
		return h.srv.CloseView(ctx, req.ViewID)
	}, nil)
}

// serveHome answers POST /api/home: the person opened the app's Home tab
// (app_home_opened).
func (h *Handler) serveHome(w http.ResponseWriter, r *http.Request) {
	var req struct{}
	refuse, ok := h.readJSON(w, r, &req)
	if !ok {
		return
	}
	h.interaction(w, r, refuse, "Home tab", func(ctx context.Context) (slacktest.Interaction, error) {
		id, err := h.srv.OpenHome(ctx, me(r))
		return slacktest.Interaction{EnvelopeID: id}, err
	}, nil)
}

// serveDM answers POST /api/dm: the person opened the app's Messages tab,
// the direct message with the bot, which is created the first time.
func (h *Handler) serveDM(w http.ResponseWriter, r *http.Request) {
	var req struct{}
	refuse, ok := h.readJSON(w, r, &req)
	if !ok {
		return
	}
	id, err := h.srv.OpenDM(me(r))
	if err != nil {
		h.cfg.logger.Warn("slackweb: opening the direct message failed", "err", err)
		refuse(http.StatusBadRequest, "not_opened", "The conversation with the app could not be opened.")
		return
	}
	writeJSON(w, http.StatusOK, SendResponse{OK: true, Channel: id})
}

// AssistantRequest opens the app's assistant pane (POST /api/assistant)
// for the acting person, looking at Context ("" for none).
type AssistantRequest struct {
	Context string `json:"context,omitempty"`
}

// serveAssistant opens the assistant pane: a thread in the person's direct
// message with the app, begun as Slack begins it, whose suggested prompts
// the app sets (State.Prompts). The answer's Channel and TS are the thread.
func (h *Handler) serveAssistant(w http.ResponseWriter, r *http.Request) {
	var req AssistantRequest
	refuse, ok := h.readJSON(w, r, &req)
	if !ok {
		return
	}
	th, err := h.srv.OpenAssistantThread(r.Context(), me(r), req.Context)
	if err != nil {
		h.cfg.logger.Warn("slackweb: opening the assistant pane failed", "err", err)
		refuse(http.StatusBadRequest, "not_opened", "The assistant pane could not be opened.")
		return
	}
	writeJSON(w, http.StatusOK, SendResponse{OK: true, Channel: th.Channel, TS: th.ThreadTS})
}
