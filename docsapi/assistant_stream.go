package docsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// afterFinishEvents bounds how many events are read past the finish chunk
// while looking for [DONE], so that a connection can be reused.
const afterFinishEvents = 16

// AnswerStream is an answer of the assistant as it arrives: a Server-Sent
// Events stream of AI SDK 5 UI message chunks, decoded into [AnswerEvent]
// values by Next. It starts no goroutine: each Next reads from the
// connection. Use it from one goroutine; only Close may be called from
// another, to stop a Next under way.
type AnswerStream struct {
	c        *Client
	cl       *call
	open     *openStream
	sse      *sseReader
	parent   context.Context
	asked    Thread // the thread the question named
	thread   Thread
	headerID bool // the thread id came from X-Thread-Id

	text     strings.Builder
	sources  []AnswerSource
	seen     map[string]bool
	queries  []string
	tools    map[string]string // tool call id → tool name
	reason   string
	finished bool
	aborted  bool
	queue    []AnswerEvent
	err      error // sticky end: io.EOF or the error
	extra    int   // events read after the finish chunk

	closeOnce sync.Once
	closeErr  error
}

func newAnswerStream(ctx context.Context, c *Client, cl *call, open *openStream, asked Thread) *AnswerStream {
	s := &AnswerStream{
		c: c, cl: cl, open: open, sse: newSSEReader(open), parent: ctx, asked: asked,
		seen: make(map[string]bool), tools: make(map[string]string),
	}
	// The embed guide puts the thread in headers when it is created; the
	// OpenAPI file on the finish chunk. Headers win; see onFinish.
	id, key := strings.TrimSpace(open.header.Get("X-Thread-Id")), strings.TrimSpace(open.header.Get("X-Thread-Key"))
	s.headerID = id != ""
	if id == "" {
		id = asked.ID
	}
	s.thread = Thread{ID: id, Key: ThreadKey(key)}
	if key == "" && id == asked.ID {
		s.thread.Key = asked.Key
	}
	return s
}

// Next returns the next event. At the end of a complete answer (after the
// finish chunk or [DONE], or after an abort) it returns io.EOF. It returns an
// [*AnswerError] (matching [ErrAnswerFailed]) for an error chunk, an error
// matching [ErrStreamCut] when the stream ends before its finish, and the
// context's error when the context given to Ask ends. Chunks of unknown
// types, and events that are not JSON, are skipped. Once Next has returned an
// error it returns the same error again, and the connection is released.
func (s *AnswerStream) Next() (AnswerEvent, error) {
	for {
		if len(s.queue) > 0 {
			ev := s.queue[0]
			s.queue = s.queue[1:]
			return ev, nil
		}
		if s.err != nil {
			return nil, s.err
		}
		data, err := s.sse.next()
		if err != nil {
			s.end(s.readError(err))
			continue
		}
		if s.finished {
			if isDone(data) || s.extra >= afterFinishEvents {
				s.end(io.EOF)
			}
			s.extra++
			continue
		}
		s.handle(data)
	}
}

// Answer reads the rest of the stream and returns the whole answer. On an
// error it also returns what arrived before it, which may be worth showing.
func (s *AnswerStream) Answer() (*Answer, error) {
	var err error
	for err == nil {
		_, err = s.Next()
	}
	a := s.answerSoFar()
	if errors.Is(err, io.EOF) {
		return a, nil
	}
	return a, err
}

func (s *AnswerStream) answerSoFar() *Answer {
	return &Answer{
		Text:         s.text.String(),
		Sources:      s.Sources(),
		Queries:      append([]string(nil), s.queries...),
		Thread:       s.thread,
		FinishReason: s.reason,
		Aborted:      s.aborted,
	}
}

// Text returns the answer's text so far.
func (s *AnswerStream) Text() string { return s.text.String() }

// Sources returns the sources seen so far, in order, without repeats.
func (s *AnswerStream) Sources() []AnswerSource { return append([]AnswerSource(nil), s.sources...) }

// Thread returns the conversation to continue with a follow-up question:
// from the X-Thread-Id and X-Thread-Key headers when the service sent them,
// else from the finish chunk once read, else the thread the question named.
func (s *AnswerStream) Thread() Thread { return s.thread }

// Close releases the connection. It may be called at any time, also from
// another goroutine while Next waits, and more than once. A Next after Close
// returns an error.
func (s *AnswerStream) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.open.close() })
	return s.closeErr
}

// end makes err the stream's last word and releases the connection.
func (s *AnswerStream) end(err error) {
	s.err = err
	_ = s.Close()
}

// readError explains why reading stopped.
func (s *AnswerStream) readError(err error) error {
	switch {
	case s.finished || s.aborted:
		return io.EOF // the answer was complete; what follows does not matter
	case errors.Is(err, errEventTooLarge):
		return s.c.malformed(s.cl, 200, nil, err)
	case s.parent.Err() != nil:
		return fmt.Errorf("docsapi: %s %s: answer stream: %w", s.cl.method, s.cl.path, s.parent.Err())
	}
	switch cause := context.Cause(s.open.ctx); {
	case errors.Is(cause, errStreamClosed):
		return fmt.Errorf("docsapi: %s %s: %w", s.cl.method, s.cl.path, errStreamClosed)
	case errors.Is(cause, errStalled):
		return &streamCutError{method: s.cl.method, path: s.cl.path, cause: fmt.Errorf("no data for %s", s.open.idle)}
	}
	if errors.Is(err, io.EOF) {
		err = errors.New("the answer ended without a finish chunk or [DONE]")
	}
	return &streamCutError{method: s.cl.method, path: s.cl.path, cause: unwrapURLError(err)}
}

func isDone(data []byte) bool { return string(bytes.TrimSpace(data)) == "[DONE]" }

// chunk holds the fields of every UI message chunk type the stream reads.
// Fields of other types are ignored. The field types are loose (raw JSON)
// where a wrong type in one field should not lose the whole chunk.
type chunk struct {
	Type            string          `json:"type"`
	ID              string          `json:"id"`
	Delta           json.RawMessage `json:"delta"`
	MessageID       string          `json:"messageId"`
	ToolCallID      string          `json:"toolCallId"`
	ToolName        string          `json:"toolName"`
	Input           json.RawMessage `json:"input"`
	Output          json.RawMessage `json:"output"`
	URL             string          `json:"url"`
	Title           string          `json:"title"`
	ErrorText       json.RawMessage `json:"errorText"`
	Reason          string          `json:"reason"`
	FinishReason    string          `json:"finishReason"`
	ThreadID        string          `json:"threadId"`
	ThreadKey       string          `json:"threadKey"`
	MessageMetadata json.RawMessage `json:"messageMetadata"`
}

// handle decodes one event's data and queues its events.
func (s *AnswerStream) handle(data []byte) {
	data = bytes.TrimSpace(data)
	if isDone(data) {
		// [DONE] without a finish: the protocol's end all the same.
		s.end(io.EOF)
		return
	}
	var ch chunk
	if err := json.Unmarshal(data, &ch); err != nil {
		// Some servers put one chunk on each data line of an event; the SSE
		// rules join them. Read them one by one.
		if bytes.IndexByte(data, '\n') >= 0 {
			for _, line := range bytes.Split(data, []byte("\n")) {
				if s.err == nil && !s.finished && len(bytes.TrimSpace(line)) > 0 {
					s.handle(line) // no further split: line holds no LF
				}
			}
		}
		return
	}
	switch ch.Type {
	case "start":
		s.takeThread(ch)
		s.queue = append(s.queue, StartEvent{MessageID: ch.MessageID})
	case "text-delta":
		d := jsonString(ch.Delta)
		if d == "" {
			return
		}
		s.text.WriteString(d)
		s.queue = append(s.queue, TextEvent{Delta: d, ID: ch.ID})
	case "tool-input-start":
		if ch.ToolCallID != "" && ch.ToolName != "" {
			s.tools[ch.ToolCallID] = ch.ToolName
		}
	case "tool-input-available":
		s.toolCall(ch)
	case "tool-output-available":
		s.toolResult(ch)
	case "source-url":
		if ch.URL == "" {
			return
		}
		src := AnswerSource{URL: ch.URL, Title: ch.Title}
		if strings.HasPrefix(ch.URL, "/") && !strings.HasPrefix(ch.URL, "//") {
			src.Path = ch.URL
		}
		s.addSources(src)
	case "finish":
		s.takeThread(ch)
		s.reason = ch.FinishReason
		s.finished = true
		s.queue = append(s.queue, FinishEvent{Reason: ch.FinishReason, ThreadID: finishThreadID(ch), Metadata: ch.MessageMetadata})
	case "message-metadata":
		s.takeThread(ch)
	case "error":
		s.end(&AnswerError{ErrorText: s.scrubbed(jsonText(ch.ErrorText)), Method: s.cl.method, Path: s.cl.path})
	case "abort":
		s.aborted = true
		s.queue = append(s.queue, AbortEvent{Reason: ch.Reason})
	default:
		// text-start, text-end, reasoning-*, start-step, finish-step,
		// tool-input-delta, data-*, and types not known yet: skipped.
	}
}

// toolCall queues a tool's call, its name kept for its result; a search's
// query is kept for the answer's record (an unnamed call's too).
func (s *AnswerStream) toolCall(ch chunk) {
	if ch.ToolCallID != "" && ch.ToolName != "" {
		s.tools[ch.ToolCallID] = ch.ToolName
	}
	ev := ToolCallEvent{ID: ch.ToolCallID, Name: ch.ToolName, Input: ch.Input}
	var in struct {
		Query json.RawMessage `json:"query"`
	}
	if json.Unmarshal(ch.Input, &in) == nil {
		ev.Query = jsonString(in.Query)
	}
	if ev.Query != "" && (ev.Name == "search" || ev.Name == "") {
		s.queries = append(s.queries, ev.Query)
	}
	s.queue = append(s.queue, ev)
}

// toolResult queues a tool's result under the name its call gave. Sources
// come from the search tool's results ([ext] in the spec): those of an
// unnamed call are read too, when they have the shape.
func (s *AnswerStream) toolResult(ch chunk) {
	name := s.tools[ch.ToolCallID]
	s.queue = append(s.queue, ToolResultEvent{ID: ch.ToolCallID, Name: name, Output: ch.Output})
	if name != "search" && name != "" {
		return
	}
	results, err := decodeSearchResults(ch.Output)
	if err != nil {
		return
	}
	var found []AnswerSource
	for _, r := range results {
		if r.Path != "" {
			found = append(found, AnswerSource{Path: r.Path, Title: r.Title, Content: r.Content})
		}
	}
	s.addSources(found...)
}

// addSources queues the sources not seen before.
func (s *AnswerStream) addSources(srcs ...AnswerSource) {
	var fresh []AnswerSource
	for _, src := range srcs {
		if k := src.Key(); !s.seen[k] {
			s.seen[k] = true
			fresh = append(fresh, src)
		}
	}
	if len(fresh) > 0 {
		s.sources = append(s.sources, fresh...)
		s.queue = append(s.queue, SourcesEvent{Sources: fresh})
	}
}

// finishThreadID reads a thread id at the chunk's top level or in its
// messageMetadata.
func finishThreadID(ch chunk) string {
	id, _ := chunkThread(ch)
	return id
}

func chunkThread(ch chunk) (id, key string) {
	id, key = ch.ThreadID, ch.ThreadKey
	var md struct {
		ThreadID  json.RawMessage `json:"threadId"`
		ThreadKey json.RawMessage `json:"threadKey"`
	}
	if json.Unmarshal(ch.MessageMetadata, &md) == nil {
		if id == "" {
			id = jsonString(md.ThreadID)
		}
		if key == "" {
			key = jsonString(md.ThreadKey)
		}
	}
	return strings.TrimSpace(id), strings.TrimSpace(key)
}

// takeThread reads a thread from a chunk when no header named one. A key is
// taken only with the id it belongs to. (That a chunk may carry a key is an
// assumption: no source shows one there.)
func (s *AnswerStream) takeThread(ch chunk) {
	if s.headerID {
		return
	}
	id, key := chunkThread(ch)
	if id == "" {
		return
	}
	if id != s.thread.ID {
		s.thread = Thread{ID: id}
		if id == s.asked.ID {
			s.thread.Key = s.asked.Key
		}
	}
	if key != "" {
		s.thread.Key = ThreadKey(key)
	}
}

// jsonText reads a JSON string, or shows any other value as JSON.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil || len(raw) == 0 || string(raw) == "null" {
		return s
	}
	return string(raw)
}

// scrubbed puts a text of the service on one line, short, without the key or
// a thread key.
func (s *AnswerStream) scrubbed(text string) string {
	return oneLine(s.c.redact(text, string(s.asked.Key), string(s.thread.Key)), maxJSONMessage)
}
