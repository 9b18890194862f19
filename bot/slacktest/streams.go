package slacktest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"
)

// MaxStreamTextRunes is the most characters of markdown one
// chat.startStream, appendStream or stopStream call takes: its
// markdown_text and its markdown_text chunks together.
const MaxStreamTextRunes = 12000

// The states of a streamed message (msg.stream).
const (
	streamNone    = ""          // not a streamed message
	streamOpen    = "streaming" // started, taking appends
	streamStopped = "stopped"   // stopped: a message like any other
)

// StreamTask is a task a streamed message shows, as its task_update chunks
// left it.
type StreamTask struct {
	ID    string
	Title string
	// Status is "pending", "in_progress", "complete" or "error"; "" when no
	// update gave one.
	Status  string
	Details string
	Output  string
	// Sources are the task's url sources as last sent, nil when none.
	Sources json.RawMessage
}

// streamChunk is one element of the chunks argument of the chat.*Stream
// methods: markdown_text, task_update, plan_update or blocks.
type streamChunk struct {
	Type    string                       `json:"type"`
	Text    *string                      `json:"text"`
	ID      string                       `json:"id"`
	Title   *string                      `json:"title"`
	Status  *string                      `json:"status"`
	Details *string                      `json:"details"`
	Output  *string                      `json:"output"`
	Sources json.RawMessage              `json:"sources"`
	Blocks  []map[string]json.RawMessage `json:"blocks"`
}

// streamInput is what one chat.*Stream call brings: its markdown_text and
// its chunks, checked.
type streamInput struct {
	text   string
	raw    []json.RawMessage
	chunks []streamChunk
}

// empty reports whether the call brings neither text nor chunks.
func (in streamInput) empty() bool { return in.text == "" && len(in.chunks) == 0 }

// readStreamInput reads and checks p's markdown_text and chunks as Slack
// does: a chunk of an unknown type, or missing what its type needs, is
// invalid_arguments (the error name is our assumption: Slack documents
// none for chunks); a blocks chunk's blocks are checked like a message's
// (invalid_blocks); more than 12,000 characters of markdown in the call is
// msg_too_long.
func readStreamInput(p map[string]string, rules blockRules) (streamInput, apiResult, bool) {
	in := streamInput{text: p["markdown_text"]}
	total := utf8.RuneCountInString(in.text)
	if raw := rawParam(p, "chunks"); raw != nil {
		if err := json.Unmarshal(raw, &in.raw); err != nil {
			return in, invalidArgs(problem("/chunks", "must be an array of chunks")), false
		}
		for i, r := range in.raw {
			ptr := fmt.Sprintf("/chunks/%d", i)
			var c streamChunk
			if err := json.Unmarshal(r, &c); err != nil {
				return in, invalidArgs(problem(ptr, "invalid chunk")), false
			}
			if msg, blocks := chunkProblem(c, ptr, rules); msg != "" {
				if blocks {
					return in, invalidBlocks(msg).result(), false
				}
				return in, invalidArgs(msg), false
			}
			if c.Type == "markdown_text" {
				total += utf8.RuneCountInString(*c.Text)
			}
			in.chunks = append(in.chunks, c)
		}
	}
	if total > MaxStreamTextRunes {
		return in, fail("msg_too_long"), false
	}
	return in, apiResult{}, true
}

// chunkProblem says what Slack refuses in chunk c at ptr, "" when nothing;
// blocks is set when the problem is in a blocks chunk's blocks.
func chunkProblem(c streamChunk, ptr string, rules blockRules) (msg string, blocks bool) {
	switch c.Type {
	case "markdown_text":
		if c.Text == nil || *c.Text == "" {
			return problem(ptr+"/text", "missing required field: text"), false
		}
	case "task_update":
		switch {
		case c.ID == "":
			return problem(ptr+"/id", "missing required field: id"), false
		case c.Title == nil || *c.Title == "":
			return problem(ptr+"/title", "missing required field: title"), false
		case c.Status != nil && !slices.Contains(taskStatuses, *c.Status):
			return problem(ptr+"/status", "must be one of %v", taskStatuses), false
		case c.Details != nil && utf8.RuneCountInString(*c.Details) > maxTaskTextRunes:
			return problem(ptr+"/details", "must be less than %d characters", maxTaskTextRunes+1), false
		case c.Output != nil && utf8.RuneCountInString(*c.Output) > maxTaskTextRunes:
			return problem(ptr+"/output", "must be less than %d characters", maxTaskTextRunes+1), false
		}
	case "plan_update":
		if c.Title == nil || *c.Title == "" {
			return problem(ptr+"/title", "missing required field: title"), false
		}
	case "blocks":
		if len(c.Blocks) == 0 {
			return problem(ptr+"/blocks", "must hold at least 1 block"), false
		}
		if msg := checkBlocks(c.Blocks, ptr+"/blocks", rules); msg != "" {
			return msg, true
		}
	default:
		return problem(ptr+"/type", "must be one of [markdown_text task_update plan_update blocks]"), false
	}
	return "", false
}

// apply adds what the call brought to m: the text, then each chunk in
// order (markdown grows the text, a task_update creates or updates its
// task, a plan_update retitles the plan, blocks are added below).
func (in streamInput) apply(m *msg) {
	m.text += in.text
	for i, c := range in.chunks {
		m.chunks = append(m.chunks, cloneRaw(in.raw[i]))
		switch c.Type {
		case "markdown_text":
			m.text += *c.Text
		case "task_update":
			m.updateTask(c)
		case "plan_update":
			m.planTitle = *c.Title
		case "blocks":
			for _, b := range c.Blocks {
				raw, _ := json.Marshal(b)
				m.chunkBlocks = append(m.chunkBlocks, raw)
			}
		}
	}
}

// updateTask applies a task_update chunk to m's tasks: fields it leaves
// out keep their value.
func (m *msg) updateTask(c streamChunk) {
	i := slices.IndexFunc(m.tasks, func(t StreamTask) bool { return t.ID == c.ID })
	if i < 0 {
		m.tasks = append(m.tasks, StreamTask{ID: c.ID})
		i = len(m.tasks) - 1
	}
	t := &m.tasks[i]
	t.Title = *c.Title
	if c.Status != nil {
		t.Status = *c.Status
	}
	if c.Details != nil {
		t.Details = *c.Details
	}
	if c.Output != nil {
		t.Output = *c.Output
	}
	if nonNull(c.Sources) != nil {
		t.Sources = cloneRaw(c.Sources)
	}
}

// chatStartStream starts a streamed reply as the bot (chat.startStream): a
// message in a thread (or at the top of a channel) whose markdown text and
// chunks grow with chat.appendStream until chat.stopStream. Outside a
// direct message it needs recipient_user_id and recipient_team_id, as
// Slack does; task_display_mode is timeline (the default) or plan.
func (s *Server) chatStartStream(r *apiRequest) apiResult {
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
	if ch.IMUser == "" && (p["recipient_user_id"] == "" || p["recipient_team_id"] == "") {
		return apiResult{err: "invalid_arguments", messages: []string{"[ERROR] recipient_user_id and recipient_team_id are required when streaming to channels"}}
	}
	mode := p["task_display_mode"]
	if mode != "" && mode != "timeline" && mode != "plan" {
		return invalidArgs(problem("/task_display_mode", "must be one of [timeline plan]"))
	}
	in, res, ok := readStreamInput(p, s.rulesLocked())
	if !ok {
		return res
	}
	m := &msg{stream: streamOpen, displayMode: mode}
	in.apply(m)
	return s.botPostLocked(ch, p["thread_ts"], m)
}

// chatAppendStream appends markdown_text and chunks to a message the bot
// is streaming (chat.appendStream); a call with neither is no_text.
func (s *Server) chatAppendStream(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, m, code := s.streamingLocked(r.ws, p)
	if code != "" {
		return fail(code)
	}
	in, res, ok := readStreamInput(p, s.rulesLocked())
	if !ok {
		return res
	}
	if in.empty() {
		return fail("no_text")
	}
	in.apply(m)
	m.appends++
	return apiResult{fields: map[string]any{"channel": ch.ID, "ts": m.ts}}
}

// chatStopStream ends a message the bot is streaming (chat.stopStream),
// with optional last markdown_text and chunks, blocks shown under the
// text, and metadata. The agent session of the message's thread, if any,
// takes session_status (default active), as Slack does.
func (s *Server) chatStopStream(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, m, code := s.streamingLocked(r.ws, p)
	if code != "" {
		return fail(code)
	}
	in, res, ok := readStreamInput(p, s.rulesLocked())
	if !ok {
		return res
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
	status := p["session_status"]
	if status != "" && !slices.Contains(sessionStatuses, status) {
		return invalidArgs(problem("/session_status", "must be one of %v", sessionStatuses))
	}
	in.apply(m)
	m.blocks = cloneRaw(nonNull(blocks))
	m.metadata = cloneRaw(metadata)
	m.stream = streamStopped
	if sess := s.sessions[statusKey(ch.ID, m.sessionThread())]; sess != nil {
		sess.setStatus(cmp.Or(status, "active"))
	}
	return apiResult{fields: map[string]any{"channel": ch.ID, "ts": m.ts, "message": s.wireLocked(m)}}
}

// streamingLocked finds the bot's message that p's channel and ts name and
// that is still being streamed, or the error Slack answers. s.mu is held.
func (s *Server) streamingLocked(w *Workspace, p map[string]string) (*channelState, *msg, string) {
	ch, m, code := s.messageLocked(w, p["channel"], p["ts"], "message_not_found")
	switch {
	case code != "":
		return nil, nil, code
	case m.user != w.BotUserID || m.stream != streamOpen:
		return nil, nil, "message_not_in_streaming_state"
	}
	return ch, m, ""
}
