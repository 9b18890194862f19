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
	return s.botPostLocked(ch, p["thread_ts"], &msg{text: p["markdown_text"], stream: streamOpen})
}

// chatAppendStream appends markdown_text to a message the bot is streaming
// (chat.appendStream).
func (s *Server) chatAppendStream(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, m, text, code := s.streamingLocked(p, true)
	if code != "" {
		return fail(code)
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
	ch, m, text, code := s.streamingLocked(p, false)
	if code != "" {
		return fail(code)
	}
	blocks, metadata := rawParam(p, "blocks"), rawParam(p, "metadata")
	if blocks != nil {
		if c := validateContent("", blocks, nil, false, s.rulesLocked()); c.code != "" {
			return c.result()
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

// streamingLocked finds the bot's message that p's channel and ts name and
// that is still being streamed, and p's markdown_text (needed when
// needText), or the error Slack answers. s.mu is held.
func (s *Server) streamingLocked(p map[string]string, needText bool) (*channelState, *msg, string, string) {
	ch, m, code := s.messageLocked(p["channel"], p["ts"], "message_not_found")
	text := p["markdown_text"]
	switch {
	case code != "":
		return nil, nil, "", code
	case m.user != s.cfg.botUserID || m.stream != streamOpen:
		return nil, nil, "", "message_not_in_streaming_state"
	case needText && text == "":
		return nil, nil, "", "no_text"
	case utf8.RuneCountInString(text) > MaxStreamTextRunes:
		return nil, nil, "", "msg_too_long"
	}
	return ch, m, text, ""
}
