package slacktest

import (
	"cmp"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// channelState is a channel and its history. Guarded by Server.mu.
type channelState struct {
	Channel
	top  []*msg          // top-level messages, oldest first
	byTS map[string]*msg // every message in the channel, replies included
}

// msg is a stored message. Guarded by Server.mu.
type msg struct {
	channel     string
	ts          string
	user        string
	userTeam    string // the author's own team when it is not the workspace's (Slack Connect)
	botID       string
	appID       string
	username    string
	text        string
	blocks      json.RawMessage
	attachments json.RawMessage
	metadata    json.RawMessage
	files       json.RawMessage // files shared with the message
	editedTS    string
	reactions   []reaction
	parent      *msg
	replies     []*msg
	ephemeral   bool
	forUser     string
	threadTS    string // for ephemerals, which have no parent pointer
	// stream is the state of a streamed message (streamOpen, streamStopped;
	// streamNone for any other), appends how many chat.appendStream calls
	// it took, halted whether the person's Stop ended it.
	stream  string
	appends int
	halted  bool
	// chunks are a streamed message's chunks as received; tasks what its
	// task_update chunks show, planTitle its last plan_update's title,
	// chunkBlocks its blocks chunks' blocks, displayMode its
	// task_display_mode.
	chunks      []json.RawMessage
	tasks       []StreamTask
	planTitle   string
	chunkBlocks []json.RawMessage
	displayMode string
	// subtype is Slack's message subtype ("assistant_app_thread" for the
	// root of an assistant thread), title that root's title.
	subtype string
	title   string
	// share is the link_shared record of a person's message with links to
	// the app's unfurl domains, and the unfurls the app gave them.
	share *linkShare
}

type reaction struct {
	name  string
	users []string
}

// threadTSValue is the thread_ts Slack reports for m.
func (m *msg) threadTSValue() string {
	switch {
	case m.parent != nil:
		return m.parent.ts
	case len(m.replies) > 0:
		return m.ts
	default:
		return m.threadTS
	}
}

func (m *msg) replyUsers() []string {
	var users []string
	for _, r := range m.replies {
		if !slices.Contains(users, r.user) {
			users = append(users, r.user)
		}
	}
	return users
}

// public copies m into the exported shape.
func (m *msg) public() Message {
	out := Message{
		Channel:    m.channel,
		TS:         m.ts,
		ThreadTS:   m.threadTSValue(),
		User:       m.user,
		BotID:      m.botID,
		Username:   m.username,
		Text:       m.text,
		Blocks:     cloneRaw(m.blocks),
		Metadata:   cloneRaw(m.metadata),
		Edited:     m.editedTS != "",
		ReplyCount: len(m.replies),
		Ephemeral:  m.ephemeral,
		ForUser:    m.forUser,
		Streaming:  m.stream == streamOpen,
		Streamed:   m.stream != streamNone,
		Appends:    m.appends,
		Halted:     m.halted,
		Subtype:    m.subtype,
		PlanTitle:  m.planTitle,
		Tasks:      slices.Clone(m.tasks),
	}
	if m.stream != streamNone {
		out.TaskDisplayMode = cmp.Or(m.displayMode, "timeline")
	}
	for _, c := range m.chunks {
		out.Chunks = append(out.Chunks, cloneRaw(c))
	}
	if len(m.chunkBlocks) > 0 {
		out.ChunkBlocks, _ = json.Marshal(m.chunkBlocks)
	}
	for _, r := range m.reactions {
		out.Reactions = append(out.Reactions, r.name)
	}
	return out
}

// wire renders m as Slack's message object (conversations.replies, chat.* answers, events).
func (m *msg) wire(teamID string) map[string]any {
	w := map[string]any{
		"type": "message",
		"text": m.text,
		"ts":   m.ts,
	}
	if m.user != "" {
		w["user"] = m.user
	}
	if m.botID != "" {
		w["bot_id"] = m.botID
		w["app_id"] = m.appID
		w["team"] = teamID
		w["bot_profile"] = map[string]any{"id": m.botID, "app_id": m.appID, "team_id": teamID, "deleted": false}
	} else if m.user != "" {
		w["team"] = teamID
		if m.userTeam != "" {
			// A person of another organisation in a shared channel: their
			// own team, as Slack Connect sends it.
			w["team"], w["user_team"], w["source_team"] = m.userTeam, m.userTeam, m.userTeam
		}
	}
	if m.username != "" {
		w["username"] = m.username
	}
	if m.subtype != "" {
		w["subtype"] = m.subtype
	}
	if m.subtype == subtypeAssistantThread {
		w["assistant_app_thread"] = map[string]any{"title": m.title, "title_blocks": []any{}, "artifacts": []any{}}
	}
	if len(m.blocks) > 0 {
		w["blocks"] = m.blocks
	}
	if atts := m.allAttachments(); len(atts) > 0 {
		w["attachments"] = atts
	}
	if len(m.metadata) > 0 {
		w["metadata"] = m.metadata
	}
	if len(m.files) > 0 {
		w["files"] = m.files
		w["upload"] = true
	}
	if m.editedTS != "" {
		w["edited"] = map[string]any{"user": m.user, "ts": m.editedTS}
	}
	if ts := m.threadTSValue(); ts != "" {
		w["thread_ts"] = ts
	}
	if m.parent != nil {
		w["parent_user_id"] = m.parent.user
	}
	if n := len(m.replies); n > 0 {
		users := m.replyUsers()
		w["reply_count"] = n
		w["reply_users_count"] = len(users)
		w["reply_users"] = users
		w["latest_reply"] = m.replies[n-1].ts
		w["is_locked"] = false
		w["subscribed"] = false
	}
	if len(m.reactions) > 0 {
		var rs []map[string]any
		for _, r := range m.reactions {
			rs = append(rs, map[string]any{"name": r.name, "users": r.users, "count": len(r.users)})
		}
		w["reactions"] = rs
	}
	return w
}

// sessionThread is the thread an agent session of m's would be scoped to:
// its parent's ts for a reply, else its own.
func (m *msg) sessionThread() string {
	if m.parent != nil {
		return m.parent.ts
	}
	return m.ts
}

func cloneRaw(r json.RawMessage) json.RawMessage {
	if r == nil {
		return nil
	}
	return slices.Clone(r)
}

// nextTSLocked returns a message timestamp: the server's clock (WithClock)
// in microseconds, in Slack's "seconds.micros" form, strictly increasing
// across the server.
func (s *Server) nextTSLocked() string {
	now := s.cfg.now().UnixMicro()
	if now <= s.lastTS {
		now = s.lastTS + 1
	}
	s.lastTS = now
	return fmt.Sprintf("%d.%06d", now/1_000_000, now%1_000_000)
}

// seqLocked returns the next number of the server-wide id sequence.
func (s *Server) seqLocked() uint64 {
	s.seq++
	return s.seq
}

// eventIDLocked returns a unique Events API event id ("Ev...").
func (s *Server) eventIDLocked() string {
	return fmt.Sprintf("Ev%s%06d", strings.ToUpper(randomString(4)), s.seqLocked())
}

// triggerIDLocked returns a unique trigger id in Slack's dotted form.
func (s *Server) triggerIDLocked() string {
	return fmt.Sprintf("%d.%d.%s", s.cfg.now().Unix(), s.seqLocked(), randomHex(16))
}

// newUUID returns a random RFC 4122 version 4 UUID, the form of envelope ids.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func randomHex(n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%x", b)[:n]
}

func randomString(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// channelByRefLocked finds a channel of workspace w (nil: of any) by id,
// name or "#name".
func (s *Server) channelByRefLocked(w *Workspace, ref string) *channelState {
	in := func(ch *channelState) bool { return w == nil || s.channelWorkspaceLocked(ch) == w }
	if ch, ok := s.channels[ref]; ok {
		if in(ch) {
			return ch
		}
		return nil
	}
	name := strings.TrimPrefix(ref, "#")
	for _, id := range s.channelOrder {
		if ch := s.channels[id]; ch.Name == name && in(ch) {
			return ch
		}
	}
	return nil
}

// visibleChannelLocked resolves ref as the bot of workspace w sees it:
// unknown channels, channels of another workspace and private channels the
// bot has not joined are channel_not_found.
func (s *Server) visibleChannelLocked(w *Workspace, ref string) (*channelState, string) {
	ch := s.channelByRefLocked(w, ref)
	if ch == nil || (ch.Private && !ch.BotMember) {
		return nil, "channel_not_found"
	}
	return ch, ""
}

// addMessageLocked stores m in ch, under parent when it is a reply.
func (s *Server) addMessageLocked(ch *channelState, m *msg, parent *msg) {
	m.channel = ch.ID
	if parent != nil {
		m.parent = parent
		parent.replies = append(parent.replies, m)
	} else {
		ch.top = append(ch.top, m)
	}
	ch.byTS[m.ts] = m
}

// removeMessageLocked deletes m (and, for a parent, its replies) from ch.
func (s *Server) removeMessageLocked(ch *channelState, m *msg) {
	if m.parent != nil {
		m.parent.replies = slices.DeleteFunc(m.parent.replies, func(r *msg) bool { return r == m })
	} else {
		ch.top = slices.DeleteFunc(ch.top, func(r *msg) bool { return r == m })
		for _, r := range m.replies {
			delete(ch.byTS, r.ts)
		}
	}
	delete(ch.byTS, m.ts)
}

// threadParent resolves a thread_ts: the parent itself, or the parent of
// a reply's ts (Slack files a reply to a reply under the thread's parent).
func threadParent(ch *channelState, threadTS string) *msg {
	m, ok := ch.byTS[threadTS]
	if !ok {
		return nil
	}
	if m.parent != nil {
		return m.parent
	}
	return m
}
