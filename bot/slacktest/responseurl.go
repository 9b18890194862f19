package slacktest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// responseURL is a slash command's response_url. Guarded by Server.mu.
type responseURL struct {
	id      string
	url     string
	trigger string
	channel string
	user    string
	created time.Time
	uses    int
	last    *msg // the latest message posted through it (or the ack), for replace/delete_original
}

// responseBody is what a response_url (and a slash command ack payload) accepts.
type responseBody struct {
	Text            string          `json:"text"`
	Blocks          json.RawMessage `json:"blocks"`
	Attachments     json.RawMessage `json:"attachments"`
	ResponseType    string          `json:"response_type"`
	ReplaceOriginal bool            `json:"replace_original"`
	DeleteOriginal  bool            `json:"delete_original"`
}

func (s *Server) newResponseURLLocked(trigger, channel, user string) *responseURL {
	ru := &responseURL{
		id:      randomString(24),
		trigger: trigger,
		channel: channel,
		user:    user,
		created: time.Now(),
	}
	ru.url = s.base + "/response/" + ru.id
	s.responses[ru.id] = ru
	return ru
}

// responseURLLocked is the response_url of address u, if the server issued
// it.
func (s *Server) responseURLLocked(u string) (*responseURL, bool) {
	id, ok := strings.CutPrefix(u, s.base+"/response/")
	if !ok {
		return nil, false
	}
	ru, ok := s.responses[id]
	return ru, ok
}

// serveResponseURL answers POST /response/{id} like Slack's response_url:
// HTTP 200 {"ok":true} when accepted, 404 with used_url / expired_url /
// no_service, 400 with invalid_payload / no_text / invalid_blocks.
func (s *Server) serveResponseURL(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"ok": false, "error": "invalid_method"})
		return
	}
	// RateLimit("response_url", ...) answers like a Web API method over
	// its limit: 429 with Retry-After, nothing posted.
	if retry, limited := s.faults.takeRateLimit("response_url"); limited {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((retry+time.Second-1)/time.Second), 10))
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"ok": false, "error": "ratelimited"})
		return
	}
	id := strings.TrimPrefix(r.URL.Path, "/response/")
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return
	}
	var body responseBody
	bodyErr := json.Unmarshal(bytes.TrimSpace(raw), &body)
	now := time.Now()

	s.mu.Lock()
	ru := s.responses[id]
	post := ResponsePost{
		ResponseType:    body.ResponseType,
		Text:            body.Text,
		Blocks:          cloneRaw(nonNull(body.Blocks)),
		ReplaceOriginal: body.ReplaceOriginal,
		DeleteOriginal:  body.DeleteOriginal,
		At:              now,
	}
	if post.ResponseType == "" {
		post.ResponseType = "ephemeral"
	}
	status, code := http.StatusOK, ""
	switch {
	case ru == nil:
		status, code = http.StatusNotFound, "no_service"
	case now.Sub(ru.created) > s.cfg.respTTL:
		status, code = http.StatusNotFound, "expired_url"
	case ru.uses >= s.cfg.respUses:
		status, code = http.StatusNotFound, "used_url"
	case bodyErr != nil:
		status, code = http.StatusBadRequest, "invalid_payload"
	}
	var echo []*envelope
	if ru != nil {
		post.TriggerID, post.User = ru.trigger, ru.user
		if code == "" {
			if c := validateContent(body.Text, body.Blocks, body.Attachments, !body.DeleteOriginal, s.rulesLocked()); c.code != "" {
				status, code = http.StatusBadRequest, c.code
			} else {
				ru.uses++
				echo = s.applyResponseLocked(ru, body)
			}
		}
	}
	post.Error = code
	s.posts = append(s.posts, post)
	s.mu.Unlock()

	for _, e := range echo {
		s.deliver(e)
	}
	s.changed()
	if code != "" {
		writeJSON(w, status, map[string]any{"ok": false, "error": code})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

// answerAckLocked shows a slash command's ack payload to the user, as Slack does
// with a response in the ack. It does not count as a response_url use.
func (s *Server) answerAckLocked(ru *responseURL, payload json.RawMessage) []*envelope {
	var body responseBody
	if err := json.Unmarshal(payload, &body); err != nil {
		return nil
	}
	if validateContent(body.Text, body.Blocks, body.Attachments, true, s.rulesLocked()).code != "" {
		return nil
	}
	return s.applyResponseLocked(ru, body)
}

// applyResponseLocked posts, replaces or deletes a response message.
func (s *Server) applyResponseLocked(ru *responseURL, body responseBody) []*envelope {
	ch := s.channels[ru.channel]
	var echo []*envelope
	add := func(e *envelope) {
		if e != nil {
			echo = append(echo, e)
		}
	}
	if body.DeleteOriginal {
		if m := ru.last; m != nil {
			ru.last = nil
			if m.ephemeral {
				s.ephemerals = slices.DeleteFunc(s.ephemerals, func(x *msg) bool { return x == m })
			} else if ch != nil {
				s.removeMessageLocked(ch, m)
				add(s.deletedEchoLocked(ch, m))
			}
		}
		return echo
	}
	if m := ru.last; body.ReplaceOriginal && m != nil {
		previous := s.wireLocked(m)
		m.text = body.Text
		m.blocks = cloneRaw(nonNull(body.Blocks))
		m.attachments = cloneRaw(nonNull(body.Attachments))
		if !m.ephemeral && ch != nil {
			m.editedTS = s.nextTSLocked()
			add(s.changedEchoLocked(ch, m, previous))
		}
		return echo
	}
	w := s.homeWorkspaceLocked(ru.user)
	if ch != nil {
		w = s.channelWorkspaceLocked(ch)
	}
	m := &msg{
		ts:          s.nextTSLocked(),
		user:        w.BotUserID,
		botID:       w.BotID,
		appID:       s.cfg.appID,
		text:        body.Text,
		blocks:      cloneRaw(nonNull(body.Blocks)),
		attachments: cloneRaw(nonNull(body.Attachments)),
	}
	if body.ResponseType == "in_channel" && ch != nil {
		s.addMessageLocked(ch, m, nil)
		add(s.botEchoLocked(ch, m))
	} else {
		m.channel = ru.channel
		m.ephemeral = true
		m.forUser = ru.user
		s.ephemerals = append(s.ephemerals, m)
	}
	ru.last = m
	return echo
}

// ResponsePosts lists the posts received on the response_url of the slash
// command with triggerID ("" = all), oldest first, rejected ones included.
func (s *Server) ResponsePosts(triggerID string) []ResponsePost {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []ResponsePost
	for _, p := range s.posts {
		if triggerID == "" || p.TriggerID == triggerID {
			p.Blocks = cloneRaw(p.Blocks)
			out = append(out, p)
		}
	}
	return out
}

// nonNull maps a JSON null (or nothing) to nil.
func nonNull(r json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(r)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil
	}
	return t
}
