package slacktest

import (
	"unicode/utf8"
)

// MaxStreamTextRunes is the most characters of markdown_text one
// chat.startStream, appendStream or stopStream call takes.
const MaxStreamTextRunes = 12000

// The states of a streamed message (msg.stream).
const (
	streamNone    = ""          // not a streamed message
	streamOpen    = "streaming" // started, taking appends
	streamStopped = "stopped"   // stopped: a message like any other
)

// chatStartStream starts a streamed reply as the bot (chat.startStream): a
// message in a thread (or at the top of a channel) whose markdown text grows
// with chat.appendStream until chat.stopStream. Outside a direct message it
// needs recipient_user_id and recipient_team_id, as Slack does.
func (s *Server) chatStartStream(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, code := s.visibleChannelLocked(p["channel"])
	if code != "" {
		return fail(code)
	}
	if !ch.BotMember {
		return fail("not_in_channel")
	}
	if ch.IMUser == "" && (p["recipient_user_id"] == "" || p["recipient_team_id"] == "") {
		return apiResult{err: "invalid_arguments", messages: []string{"[ERROR] recipient_user_id and recipient_team_id are required when streaming to channels"}}
	}
	if utf8.RuneCountInString(p["markdown_text"]) > MaxStreamTextRunes {
		return fail("msg_too_long")
	}
	var parent *msg
	if tts := p["thread_ts"]; tts != "" {
		if parent = threadParent(ch, tts); parent == nil {
			return fail("thread_not_found")
		}
	}
	m := &msg{
		ts:     s.nextTSLocked(),
		user:   s.cfg.botUserID,
		botID:  s.cfg.botID,
		appID:  s.cfg.appID,
		text:   p["markdown_text"],
		stream: streamOpen,
	}
	s.addMessageLocked(ch, m, parent)
	if parent != nil {
		delete(s.statuses, statusKey(ch.ID, parent.ts)) // posting in a thread clears its status
	}
	res := apiResult{fields: map[string]any{"channel": ch.ID, "ts": m.ts}}
	if e := s.botEchoLocked(ch, m); e != nil {
		res.echo = append(res.echo, e) // the new message, as a post's
	}
	return res
}

// chatAppendStream appends markdown_text to a message the bot is streaming
// (chat.appendStream).
func (s *Server) chatAppendStream(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, m, code := s.streamingLocked(p["channel"], p["ts"])
	if code != "" {
		return fail(code)
	}
	text := p["markdown_text"]
	switch {
	case text == "":
		return fail("no_text")
	case utf8.RuneCountInString(text) > MaxStreamTextRunes:
		return fail("msg_too_long")
	}
	m.text += text
	m.appends++
	return apiResult{fields: map[string]any{"channel": ch.ID, "ts": m.ts}}
}

// chatStopStream ends a message the bot is streaming (chat.stopStream), with
// optional last markdown_text, blocks shown under the text, and metadata.
func (s *Server) chatStopStream(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, m, code := s.streamingLocked(p["channel"], p["ts"])
	if code != "" {
		return fail(code)
	}
	text := p["markdown_text"]
	if utf8.RuneCountInString(text) > MaxStreamTextRunes {
		return fail("msg_too_long")
	}
	blocks, metadata := rawParam(p, "blocks"), rawParam(p, "metadata")
	if blocks != nil {
		if code := validateContent("", blocks, nil, false); code != "" {
			return fail(code)
		}
	}
	if metadata != nil && !validMetadata(metadata) {
		return fail("invalid_metadata_format")
	}
	m.text += text
	m.blocks = cloneRaw(nonNull(blocks))
	m.metadata = cloneRaw(metadata)
	m.stream = streamStopped
	return apiResult{fields: map[string]any{"channel": ch.ID, "ts": m.ts, "message": m.wire(s.cfg.teamID)}}
}

// streamingLocked finds the bot's message channel/ts that is still being
// streamed, or the error Slack answers. s.mu is held.
func (s *Server) streamingLocked(channel, ts string) (*channelState, *msg, string) {
	ch, m, code := s.messageLocked(channel, ts, "message_not_found")
	switch {
	case code != "":
		return nil, nil, code
	case m.user != s.cfg.botUserID || m.stream != streamOpen:
		return nil, nil, "message_not_in_streaming_state"
	}
	return ch, m, ""
}
