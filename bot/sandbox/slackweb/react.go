package slackweb

import (
	"context"
	"errors"
	"net/http"
	"slices"
)

// Reaction is an emoji the page offers to react to a message with
// ([WithReactions]).
type Reaction struct {
	// Name is the emoji's name without colons, such as "question".
	Name string `json:"name"`
	// Description says what the app does with it, in plain text.
	Description string `json:"description,omitempty"`
}

// ReactRequest is the body of POST /api/react: the person reacts to the
// message TS in Channel with Name, one of the reactions the page offers.
type ReactRequest struct {
	Channel string `json:"channel"`
	TS      string `json:"ts"`
	Name    string `json:"name"`
}

// React adds a reaction to a message as the person (POST /api/react).
func (c Client) React(ctx context.Context, r ReactRequest) (SendResponse, int, error) {
	return c.post(ctx, "/api/react", r)
}

// serveReact answers POST /api/react: the reaction is added as the person's
// reactions.add adds it, and reaction_added goes to the app when it is in
// the channel; pending when the app has not acknowledged it within the
// ack wait.
func (h *Handler) serveReact(w http.ResponseWriter, r *http.Request) {
	var req ReactRequest
	refuse, ok := h.readJSON(w, r, &req)
	if !ok {
		return
	}
	if _, known := h.channel(req.Channel, me(r)); !known {
		refuse(http.StatusNotFound, "channel_not_found", "There is no such channel.")
		return
	}
	if !slices.ContainsFunc(h.cfg.reactions, func(x Reaction) bool { return x.Name == req.Name }) {
		refuse(http.StatusBadRequest, "invalid_name", "The page does not offer that reaction.")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.cfg.ackWait)
	defer cancel()
	err := h.srv.React(ctx, me(r), req.Channel, req.TS, req.Name)
	switch {
	case err == nil:
		writeJSON(w, http.StatusOK, SendResponse{OK: true})
	case errors.Is(err, context.DeadlineExceeded):
		writeJSON(w, http.StatusOK, SendResponse{OK: true, Pending: true, Message: h.botName() + " has not answered yet."})
	default:
		h.cfg.logger.Info("slackweb: reaction refused", "err", err)
		refuse(http.StatusBadRequest, "not_reacted", "The reaction was not added: you reacted so already, or the message is gone.")
	}
}
