package slackweb

import (
	"cmp"
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

// maxSendBody bounds the body of a POST.
const maxSendBody = 64 << 10

// What a message may carry attached (SendRequest.Files): Slack's ten files
// a message, and a body that holds a few screenshots or logs (the bot reads
// at most DOCSBOT_FILE_MAX_BYTES of each).
const (
	maxSendFiles     = 10
	maxSendFilesBody = 16 << 20
)

// SendRequest is the body of POST /api/send: a line typed in a channel, or
// in a thread when ThreadTS is set, with the files attached to it.
type SendRequest struct {
	Channel  string `json:"channel"`
	Text     string `json:"text"`
	ThreadTS string `json:"thread_ts,omitempty"`
	// Files are attached to the message (not to a command).
	Files []SendFile `json:"files,omitempty"`
}

// SendFile is a file attached to a message: its name, the type the
// browser says (which the bot must not believe, as it must not Slack's)
// and its bytes (base64 in the JSON).
type SendFile struct {
	Name     string `json:"name"`
	Mimetype string `json:"mimetype,omitempty"`
	Data     []byte `json:"data"`
}

// SendResponse is the answer of POST /api/send and of the other POST
// endpoints. On success, Command reports a slash command, sent as
// EnvelopeID; otherwise TS is the posted message, or EnvelopeID the
// interaction (for /api/home, the app_home_opened event's id), and Pending
// says the bot has not acknowledged it yet; Message may carry a note for
// the person. On failure Error is a code and Message
// says what went wrong, in words for the person.
type SendResponse struct {
	OK      bool `json:"ok"`
	Command bool `json:"command,omitempty"`
	// Mention says the line mentioned the bot in a channel: app_mention
	// was sent if the bot is a member, else Message says it was not.
	Mention    bool   `json:"mention,omitempty"`
	EnvelopeID string `json:"envelope_id,omitempty"`
	TS         string `json:"ts,omitempty"`
	Pending    bool   `json:"pending,omitempty"`
	// Channel is the direct message POST /api/dm opened.
	Channel string `json:"channel,omitempty"`
	// Errors are the errors a view_submission's ack answered, by block_id.
	Errors  map[string]string `json:"errors,omitempty"`
	Error   string            `json:"error,omitempty"`
	Message string            `json:"message,omitempty"`
}

// refuser answers a request the page refuses.
type refuser func(status int, code, msg string)

// readJSON decodes a POST's JSON body into v, refusing (and reporting false)
// what is not same-origin JSON of a sane size (maxSendBody).
func (h *Handler) readJSON(w http.ResponseWriter, r *http.Request, v any) (refuser, bool) {
	return h.readJSONUpTo(w, r, v, maxSendBody)
}

// readJSONUpTo is readJSON of a body of at most limit bytes.
func (h *Handler) readJSONUpTo(w http.ResponseWriter, r *http.Request, v any, limit int) (refuser, bool) {
	refuse := func(status int, code, msg string) {
		h.cfg.logger.Info("slackweb: request refused", "path", r.URL.Path, "error", code)
		writeJSON(w, status, SendResponse{Error: code, Message: msg})
	}
	// A JSON content type keeps other sites' pages from posting here: their
	// browsers must ask first (CORS preflight), and this server never agrees.
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" {
		refuse(http.StatusUnsupportedMediaType, "invalid_content_type", "Send JSON.")
		return refuse, false
	}
	if !sameOrigin(r) {
		refuse(http.StatusForbidden, "cross_origin", "Requests from other sites are not accepted.")
		return refuse, false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil || len(body) > limit || json.Unmarshal(body, v) != nil {
		refuse(http.StatusBadRequest, "invalid_json", "The request is not valid JSON (or is too large).")
		return refuse, false
	}
	return refuse, true
}

// serveSend answers POST /api/send.
func (h *Handler) serveSend(w http.ResponseWriter, r *http.Request) {
	var req SendRequest
	refuse, ok := h.readJSONUpTo(w, r, &req, maxSendFilesBody)
	if !ok {
		return
	}
	text := strings.TrimSpace(req.Text)
	ch, known := h.channel(req.Channel, me(r))
	switch {
	case text == "" && len(req.Files) == 0:
		refuse(http.StatusBadRequest, "no_text", "Type a message first.")
		return
	case len(req.Files) > maxSendFiles:
		refuse(http.StatusBadRequest, "too_many_files", "Attach at most 10 files to a message.")
		return
	case len(req.Files) > 0 && strings.HasPrefix(text, "/"):
		refuse(http.StatusBadRequest, "files_with_command", "Files cannot go with a slash command: send them in a message.")
		return
	case utf8.RuneCountInString(text) > slacktest.MaxTextRunes:
		refuse(http.StatusBadRequest, "msg_too_long", "That message is too long for Slack.")
		return
	case !known:
		refuse(http.StatusNotFound, "channel_not_found", "There is no such channel.")
		return
	}

	if strings.HasPrefix(text, "/") {
		name, args, _ := strings.Cut(text, " ")
		if i := strings.IndexAny(name, "\n\t"); i >= 0 {
			name, args = name[:i], text[i+1:]
		}
		h.sendCommand(r.Context(), w, req, me(r), name, strings.TrimSpace(args), refuse)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.cfg.ackWait)
	defer cancel()
	text, mentioned := h.linkMentions(slacktest.Escape(text), req.Channel)
	msg := slacktest.UserMessage{ChannelID: req.Channel, UserID: me(r), Text: text, ThreadTS: req.ThreadTS}
	for _, f := range req.Files {
		msg.Attach = append(msg.Attach, slacktest.Attachment{Name: cmp.Or(strings.TrimSpace(f.Name), "file"), Mimetype: f.Mimetype, Content: f.Data})
	}
	var (
		ts   string
		err  error
		note string
	)
	switch {
	case mentioned && ch.IMUser == "" && ch.BotMember:
		// Slack sends app_mention and the message event for the post.
		var m slacktest.Mentioned
		m, err = h.srv.Mention(ctx, msg)
		ts = m.TS
	case mentioned && ch.IMUser == "":
		ts, _, err = h.srv.PostUserMessage(ctx, msg)
		note = "You mentioned " + h.botName() + ", but it is not in #" + ch.Name + ", so it was not notified. Invite it to the channel first."
	default:
		ts, _, err = h.srv.PostUserMessage(ctx, msg)
	}
	out := SendResponse{OK: true, TS: ts, Mention: mentioned && ch.IMUser == "", Message: note}
	switch {
	case err == nil:
		writeJSON(w, http.StatusOK, out)
	case ts != "":
		// Posted, but the bot has not acknowledged the event (yet): it is
		// queued for the bot like Slack would keep it.
		out.Pending = true
		writeJSON(w, http.StatusOK, out)
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

// sendCommand runs a slash command person typed in a channel.
func (h *Handler) sendCommand(ctx context.Context, w http.ResponseWriter, req SendRequest, person, name, args string,
	refuse refuser) {
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
		UserID:    person,
		ChannelID: req.Channel,
	})
	if err != nil {
		h.cfg.logger.Warn("slackweb: sending the command failed", "command", name, "err", err)
		refuse(http.StatusBadRequest, "command_failed", "The command was not sent. Try again.")
		return
	}
	writeJSON(w, http.StatusOK, SendResponse{OK: true, Command: true, EnvelopeID: envelope})
}

// channel returns the channel id if person sees it.
func (h *Handler) channel(id, person string) (slacktest.Channel, bool) {
	for _, c := range h.srv.Channels() {
		if c.ID == id && h.visible(c, person) {
			return c, true
		}
	}
	return slacktest.Channel{}, false
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
