package slackweb

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// maxSendBody bounds the body of POST /api/send.
const maxSendBody = 64 << 10

// SendRequest is the body of POST /api/send: a line typed in a channel, or
// in a thread when ThreadTS is set.
type SendRequest struct {
	Channel  string `json:"channel"`
	Text     string `json:"text"`
	ThreadTS string `json:"thread_ts,omitempty"`
}

// SendResponse is the answer of POST /api/send. On success, Command reports a
// slash command, sent as EnvelopeID; otherwise TS is the posted message and
// Pending says the bot has not acknowledged its event yet. On failure Error
// is a code and Message says what went wrong, in words for the person.
type SendResponse struct {
	OK         bool   `json:"ok"`
	Command    bool   `json:"command,omitempty"`
	EnvelopeID string `json:"envelope_id,omitempty"`
	TS         string `json:"ts,omitempty"`
	Pending    bool   `json:"pending,omitempty"`
	Error      string `json:"error,omitempty"`
	Message    string `json:"message,omitempty"`
}

// serveSend answers POST /api/send.
func (h *Handler) serveSend(w http.ResponseWriter, r *http.Request) {
	refuse := func(status int, code, msg string) {
		h.cfg.logger.Info("slackweb: send refused", "error", code)
		writeJSON(w, status, SendResponse{Error: code, Message: msg})
	}
	// A JSON content type keeps other sites' pages from posting here: their
	// browsers must ask first (CORS preflight), and this server never agrees.
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" {
		refuse(http.StatusUnsupportedMediaType, "invalid_content_type", "Send JSON.")
		return
	}
	if !sameOrigin(r) {
		refuse(http.StatusForbidden, "cross_origin", "Requests from other sites are not accepted.")
		return
	}
	var req SendRequest
	body, err := io.ReadAll(io.LimitReader(r.Body, maxSendBody+1))
	if err != nil || len(body) > maxSendBody || json.Unmarshal(body, &req) != nil {
		refuse(http.StatusBadRequest, "invalid_json", "The request is not valid JSON (or is too large).")
		return
	}
	text := strings.TrimSpace(req.Text)
	switch {
	case text == "":
		refuse(http.StatusBadRequest, "no_text", "Type a message first.")
		return
	case utf8.RuneCountInString(text) > slacktest.MaxTextRunes:
		refuse(http.StatusBadRequest, "msg_too_long", "That message is too long for Slack.")
		return
	case !h.hasChannel(req.Channel):
		refuse(http.StatusNotFound, "channel_not_found", "There is no such channel.")
		return
	}

	if strings.HasPrefix(text, "/") {
		name, args, _ := strings.Cut(text, " ")
		if i := strings.IndexAny(name, "\n\t"); i >= 0 {
			name, args = name[:i], text[i+1:]
		}
		h.sendCommand(r.Context(), w, req, name, strings.TrimSpace(args), refuse)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.cfg.ackWait)
	defer cancel()
	ts, _, err := h.srv.PostUserMessage(ctx, slacktest.UserMessage{
		ChannelID: req.Channel,
		UserID:    h.cfg.user,
		Text:      slacktest.Escape(text),
		ThreadTS:  req.ThreadTS,
	})
	switch {
	case err == nil:
		writeJSON(w, http.StatusOK, SendResponse{OK: true, TS: ts})
	case ts != "":
		// Posted, but the bot has not acknowledged the event (yet): it is
		// queued for the bot like Slack would keep it.
		writeJSON(w, http.StatusOK, SendResponse{OK: true, TS: ts, Pending: true})
	default:
		// The fake's error is for developers: the log has it, the person
		// gets words.
		h.cfg.logger.Warn("slackweb: posting the message failed", "err", err)
		msg := "The message was not posted."
		if _, ok := h.srv.Message(req.Channel, req.ThreadTS); req.ThreadTS != "" && !ok {
			msg = "The message was not posted: the thread it replies to does not exist."
		}
		refuse(http.StatusBadRequest, "not_posted", msg)
	}
}

// sendCommand runs a slash command typed in a channel.
func (h *Handler) sendCommand(ctx context.Context, w http.ResponseWriter, req SendRequest, name, args string,
	refuse func(int, string, string)) {
	if req.ThreadTS != "" {
		refuse(http.StatusBadRequest, "command_in_thread",
			name+" can't be used in a thread. Slash commands work in the channel's message box; reply in the thread to talk to the job.")
		return
	}
	if !h.knowsCommand(name) {
		refuse(http.StatusBadRequest, "invalid_command",
			name+" is not a valid command. In Slack, every message that starts with \"/\" is a command.")
		return
	}
	envelope, _, err := h.srv.SendSlashCommand(ctx, slacktest.SlashCommand{
		Command:   name,
		Text:      slacktest.Escape(args),
		UserID:    h.cfg.user,
		ChannelID: req.Channel,
	})
	if err != nil {
		h.cfg.logger.Warn("slackweb: sending the command failed", "command", name, "err", err)
		refuse(http.StatusBadRequest, "command_failed", "The command was not sent. Try again.")
		return
	}
	writeJSON(w, http.StatusOK, SendResponse{OK: true, Command: true, EnvelopeID: envelope})
}

func (h *Handler) hasChannel(id string) bool {
	return slices.ContainsFunc(h.srv.Channels(), func(c slacktest.Channel) bool { return c.ID == id })
}

func (h *Handler) knowsCommand(name string) bool {
	if len(h.cfg.commands) == 0 {
		return len(name) > 1
	}
	return slices.ContainsFunc(h.cfg.commands, func(c Command) bool { return c.Name == name })
}

// sameOrigin reports whether a request without an Origin header, or with the
// page's own origin, may act.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == r.Host
}
