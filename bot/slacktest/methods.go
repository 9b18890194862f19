package slacktest

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
)

// authTest answers auth.test for the bot token: its workspace, or for an
// org-wide token without team_id its enterprise.
func (s *Server) authTest(r *apiRequest) apiResult {
	w := r.ws
	fields := map[string]any{
		"url":                   "https://" + w.Domain + ".slack.com/",
		"team":                  w.Name,
		"user":                  s.cfg.botName,
		"team_id":               w.Team,
		"user_id":               w.BotUserID,
		"bot_id":                w.BotID,
		"is_enterprise_install": false,
	}
	if w.Enterprise != "" {
		fields["enterprise_id"] = w.Enterprise
	}
	if r.orgWide {
		fields["is_enterprise_install"] = true
		if r.params["team_id"] == "" {
			fields["url"] = "https://" + strings.ToLower(w.Enterprise) + ".enterprise.slack.com/"
			fields["team"], fields["team_id"] = w.EnterpriseName, w.Enterprise
		}
	}
	return apiResult{fields: fields}
}

// appsConnectionsOpen hands out a single-use Socket Mode URL for the app token.
func (s *Server) appsConnectionsOpen(*apiRequest) apiResult {
	ticket := newUUID()
	s.mu.Lock()
	s.tickets[ticket] = struct{}{}
	s.mu.Unlock()
	host := strings.TrimPrefix(s.base, "http://")
	return apiResult{fields: map[string]any{"url": wsURL(host, ticket, s.cfg.appID)}}
}

// rawParam returns a JSON-valued parameter (blocks, attachments, metadata), nil when absent.
func rawParam(p map[string]string, key string) json.RawMessage {
	v, ok := p[key]
	if !ok || strings.TrimSpace(v) == "" {
		return nil
	}
	return json.RawMessage(v)
}

// validMetadata checks chat.postMessage's metadata: {"event_type":..., "event_payload":{...}}.
func validMetadata(raw json.RawMessage) bool {
	var md struct {
		EventType    string         `json:"event_type"`
		EventPayload map[string]any `json:"event_payload"`
	}
	return json.Unmarshal(raw, &md) == nil && md.EventType != ""
}

// chatPostMessage posts as the bot to a channel (or a thread) it has joined.
func (s *Server) chatPostMessage(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ref := p["channel"]
	if s.ownUserLocked(r.ws, ref) {
		ref = s.dmLocked(ref).ID // a user id posts in the DM with them
	}
	ch, code := s.visibleChannelLocked(r.ws, ref)
	if code != "" {
		return fail(code)
	}
	if !ch.BotMember {
		return fail("not_in_channel")
	}
	blocks, attachments, metadata := rawParam(p, "blocks"), rawParam(p, "attachments"), rawParam(p, "metadata")
	if c := validateContent(p["text"], blocks, attachments, true, s.rulesLocked()); c.code != "" {
		return c.result()
	}
	if metadata != nil && !validMetadata(metadata) {
		return fail("invalid_metadata_format")
	}
	m := &msg{
		text:        p["text"],
		blocks:      cloneRaw(nonNull(blocks)),
		attachments: cloneRaw(nonNull(attachments)),
		metadata:    cloneRaw(metadata),
	}
	res := s.botPostLocked(ch, p["thread_ts"], m)
	if res.err == "" {
		res.fields["message"] = s.wireLocked(m)
	}
	return res
}

// botPostLocked adds m, a new message of the bot's, to ch (in the thread of
// threadTS when set): a post or a stream's start. It answers channel and ts,
// clears the thread's status as a post in it does, and echoes the message;
// thread_not_found when threadTS names no message. s.mu is held.
func (s *Server) botPostLocked(ch *channelState, threadTS string, m *msg) apiResult {
	var parent *msg
	if threadTS != "" {
		if parent = threadParent(ch, threadTS); parent == nil {
			return fail("thread_not_found")
		}
	}
	w := s.channelWorkspaceLocked(ch)
	m.ts, m.user, m.botID, m.appID = s.nextTSLocked(), w.BotUserID, w.BotID, s.cfg.appID
	s.addMessageLocked(ch, m, parent)
	if parent != nil {
		delete(s.statuses, statusKey(ch.ID, parent.ts)) // posting in a thread clears its status
	}
	res := apiResult{fields: map[string]any{"channel": ch.ID, "ts": m.ts}}
	if e := s.botEchoLocked(ch, m); e != nil {
		res.echo = append(res.echo, e)
	}
	return res
}

// chatUpdate edits one of the bot's messages; fields not sent are kept.
func (s *Server) chatUpdate(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, m, code := s.messageLocked(r.ws, p["channel"], p["ts"], "message_not_found")
	if code != "" {
		return fail(code)
	}
	if m.user != r.ws.BotUserID || m.botID == "" {
		return fail("cant_update_message")
	}
	text, blocks, attachments := m.text, m.blocks, m.attachments
	if v, ok := p["text"]; ok {
		text = v
	}
	if _, ok := p["blocks"]; ok {
		blocks = nonNull(rawParam(p, "blocks"))
	}
	if _, ok := p["attachments"]; ok {
		attachments = nonNull(rawParam(p, "attachments"))
	}
	if c := validateContent(text, blocks, attachments, true, s.rulesLocked()); c.code != "" {
		return c.result()
	}
	metadata := rawParam(p, "metadata")
	if metadata != nil && !validMetadata(metadata) {
		return fail("invalid_metadata_format")
	}
	previous := s.wireLocked(m)
	m.text = text
	m.blocks = cloneRaw(blocks)
	if string(m.blocks) == "[]" {
		m.blocks = nil
	}
	m.attachments = cloneRaw(attachments)
	if metadata != nil {
		m.metadata = cloneRaw(metadata)
	}
	m.editedTS = s.nextTSLocked()
	res := apiResult{fields: map[string]any{"channel": ch.ID, "ts": m.ts, "text": m.text, "message": s.wireLocked(m)}}
	if e := s.changedEchoLocked(ch, m, previous); e != nil {
		res.echo = append(res.echo, e)
	}
	return res
}

// chatPostEphemeral shows a message to one person in a channel the bot has joined.
func (s *Server) chatPostEphemeral(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, code := s.visibleChannelLocked(r.ws, p["channel"])
	if code != "" {
		return fail(code)
	}
	if !ch.BotMember {
		return fail("not_in_channel")
	}
	if _, ok := s.users[p["user"]]; !ok || s.botUserLocked(p["user"]) {
		return fail("user_not_in_channel")
	}
	blocks, attachments := rawParam(p, "blocks"), rawParam(p, "attachments")
	if c := validateContent(p["text"], blocks, attachments, true, s.rulesLocked()); c.code != "" {
		return c.result()
	}
	m := &msg{
		channel:     ch.ID,
		ts:          s.nextTSLocked(),
		user:        r.ws.BotUserID,
		botID:       r.ws.BotID,
		appID:       s.cfg.appID,
		text:        p["text"],
		blocks:      cloneRaw(nonNull(blocks)),
		attachments: cloneRaw(nonNull(attachments)),
		ephemeral:   true,
		forUser:     p["user"],
		threadTS:    p["thread_ts"],
	}
	s.ephemerals = append(s.ephemerals, m)
	res := apiResult{fields: map[string]any{"message_ts": m.ts}}
	return res
}

// conversationsReplies lists a thread, parent first, with cursor pagination.
func (s *Server) conversationsReplies(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, m, code := s.messageLocked(r.ws, p["channel"], p["ts"], "thread_not_found")
	if code != "" {
		return fail(code)
	}
	if res, ok := s.needScope(historyScope(ch)); !ok {
		return res
	}
	if m.parent != nil {
		m = m.parent
	}
	return pageOf(append([]*msg{m}, m.replies...), p, 1000, r.ws.Team)
}

// pageOf answers one page of msgs as conversations.replies and .history do:
// limit (default def, at most 1000) messages from the offset the cursor
// names, with has_more and response_metadata.next_cursor.
func pageOf(msgs []*msg, p map[string]string, def int, team string) apiResult {
	limit := def
	if v, err := strconv.Atoi(p["limit"]); err == nil && v > 0 {
		limit = min(v, 1000)
	}
	offset := 0
	if c := p["cursor"]; c != "" {
		n, ok := decodeCursor(c)
		if !ok || n > len(msgs) {
			return fail("invalid_cursor")
		}
		offset = n
	}
	end := min(offset+limit, len(msgs))
	out := make([]map[string]any, 0, end-offset)
	for _, x := range msgs[offset:end] {
		out = append(out, x.wire(team))
	}
	next := ""
	if end < len(msgs) {
		next = encodeCursor(end)
	}
	return apiResult{fields: map[string]any{
		"messages":          out,
		"has_more":          next != "",
		"response_metadata": map[string]any{"next_cursor": next},
	}}
}

// messageLocked finds the message ts in a channel the caller can see, or
// returns Slack's error code: the channel's, or notFound for the message.
func (s *Server) messageLocked(w *Workspace, channel, ts, notFound string) (*channelState, *msg, string) {
	ch, code := s.visibleChannelLocked(w, channel)
	if code != "" {
		return nil, nil, code
	}
	m, ok := ch.byTS[ts]
	if !ok {
		return nil, nil, notFound
	}
	return ch, m, ""
}

func encodeCursor(offset int) string {
	return base64.StdEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(offset)))
}

func decodeCursor(c string) (int, bool) {
	b, err := base64.StdEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(b), "offset:"))
	return n, err == nil && n >= 0
}
