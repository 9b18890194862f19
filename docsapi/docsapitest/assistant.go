package docsapitest

import (
	"cmp"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// defaultRetrievalPageSize is the number of pages an answer is grounded on
// when the question does not say.
const defaultRetrievalPageSize = 5

// assistantThread is the server's state of one conversation.
type assistantThread struct {
	id, key     string
	questions   []string
	answers     []string
	firstDeltas []time.Time
	files       []AssistantFile
}

// AssistantThread is what the server holds of a conversation, for tests.
type AssistantThread struct {
	ID string
	// Key is the thread's key, which the thread's questions must send: a
	// test checks it shows nowhere it should not.
	Key string
	// Questions are the questions answered in the thread, in order.
	Questions []string
	// Answers are the answers' texts, in order.
	Answers []string
	// FirstDeltas are when each answer's first text went out, in order, for
	// measures of how soon a client shows it.
	FirstDeltas []time.Time
	// Files are the file parts the questions carried, in order.
	Files []AssistantFile
}

// AssistantFile is a file part of a question ({"type":"file", "mediaType",
// "url", "filename"}), as the assistant received it.
type AssistantFile struct {
	// Question is the index of the question in AssistantThread.Questions.
	Question  int
	MediaType string
	Filename  string
	// Data is the bytes of a data: URL, decoded; nil for another URL.
	Data []byte
	// URL is the part's url when it is not a data: URL.
	URL string
}

// Thread returns the conversation id, or false when there is none.
func (s *Server) Thread(id string) (AssistantThread, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.threads[id]
	if !ok {
		return AssistantThread{}, false
	}
	files := make([]AssistantFile, len(t.files))
	for i, f := range t.files {
		f.Data = slices.Clone(f.Data)
		files[i] = f
	}
	return AssistantThread{ID: t.id, Key: t.key, FirstDeltas: slices.Clone(t.firstDeltas), Questions: append([]string(nil), t.questions...),
		Answers: append([]string(nil), t.answers...), Files: files}, true
}

// ThreadIDs returns the ids of the conversations, in no order.
func (s *Server) ThreadIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.threads))
	for id := range s.threads {
		ids = append(ids, id)
	}
	return ids
}

// Questions returns how many questions the assistant began to answer (each
// costs credits on the real service), in every thread, since the start.
// Requests turned away (401, 404, 429, faults that answer before acting)
// are not questions.
func (s *Server) Questions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.questions
}

// answerPlan is an answer's stream, built before it is written so that
// faults and pacing apply as it goes out.
type answerPlan struct {
	chunks []planChunk
	// thread is the conversation the answer is in.
	thread *assistantThread
	// n is the answer's number, textID the id of its text part.
	n      int
	textID string
}

type planChunk struct {
	data []byte
	kind string // "delta", "text-start", "text-end" or "" for any other
}

// ask handles POST {prefix}/v2/assistant/{domain}/message: it reads the
// question, finds or creates the thread, searches the docs and plans the
// answer's stream. Unknown fields and part types are ignored.
func (s *Server) ask(fields map[string]json.RawMessage) *response {
	if _, ok := stringField(fields, "fp"); !ok {
		return errorResponse(http.StatusBadRequest, msgFpRequired)
	}
	var msgs []struct {
		Role  string            `json:"role"`
		Parts []json.RawMessage `json:"parts"`
	}
	if raw, ok := fields["messages"]; !ok || json.Unmarshal(raw, &msgs) != nil || len(msgs) == 0 {
		return errorResponse(http.StatusBadRequest, msgMessagesRequired)
	}
	last := msgs[len(msgs)-1]
	var text []string
	var files []AssistantFile
	for _, p := range last.Parts {
		var part struct{ Type, Text, MediaType, URL, Filename string }
		if json.Unmarshal(p, &part) != nil {
			continue
		}
		switch part.Type {
		case "text":
			text = append(text, part.Text)
		case "file":
			f, ok := fileOfPart(part.MediaType, part.URL, part.Filename)
			if !ok {
				return errorResponse(http.StatusBadRequest, msgBadFile)
			}
			files = append(files, f)
		}
	}
	question := strings.TrimSpace(strings.Join(text, " "))
	if last.Role != "user" || question == "" {
		return errorResponse(http.StatusBadRequest, msgNoQuestion)
	}
	size, ok := intField(fields, "retrievalPageSize", defaultRetrievalPageSize)
	if !ok || size < 1 {
		size = defaultRetrievalPageSize
	}
	threadID, _ := stringField(fields, "threadId")
	threadKey, _ := stringField(fields, "threadKey")
	hits := searchDocs(s.cfg.docs, question, size)

	s.mu.Lock()
	defer s.mu.Unlock()
	var t *assistantThread
	created := false
	if threadID != "" {
		t = s.threads[threadID]
		if t == nil || subtle.ConstantTimeCompare([]byte(threadKey), []byte(t.key)) != 1 {
			return errorResponse(http.StatusNotFound, msgNoThread)
		}
	} else {
		t = &assistantThread{id: s.newThreadIDLocked(), key: newThreadKey()}
		s.threads[t.id] = t
		created = true
	}
	s.questions++
	n := s.questions
	answer := composeAnswer(question, t.questions, hits)
	if names := fileNames(files); names != "" {
		answer = "Looking at " + names + ": " + answer
	}
	for _, f := range files {
		f.Question = len(t.questions)
		t.files = append(t.files, f)
	}
	t.questions = append(t.questions, question)
	t.answers = append(t.answers, answer)

	resp := &response{status: http.StatusOK, header: http.Header{}, stream: s.planAnswer(n, t.id, question, hits, answer)}
	resp.stream.thread = t
	resp.header.Set("Content-Type", "text/event-stream")
	resp.header.Set("Cache-Control", "no-cache")
	resp.header.Set("X-Vercel-Ai-Ui-Message-Stream", "v1")
	if created {
		resp.header.Set("X-Thread-Id", t.id)
		resp.header.Set("X-Thread-Key", t.key)
	}
	return resp
}

// fileOfPart reads a file part: its media type and url are required, and
// a data: URL must decode (base64, or percent-encoded without ;base64).
func fileOfPart(mediaType, rawURL, filename string) (AssistantFile, bool) {
	f := AssistantFile{MediaType: mediaType, Filename: filename}
	if mediaType == "" || rawURL == "" {
		return f, false
	}
	rest, isData := strings.CutPrefix(rawURL, "data:")
	if !isData {
		f.URL = rawURL
		return f, true
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok {
		return f, false
	}
	if strings.HasSuffix(meta, ";base64") {
		b, err := base64.StdEncoding.DecodeString(data)
		f.Data = b
		return f, err == nil
	}
	b, err := url.PathUnescape(data)
	f.Data = []byte(b)
	return f, err == nil
}

// fileNames names a question's files as its answer does ("" for none).
func fileNames(files []AssistantFile) string {
	var names []string
	for _, f := range files {
		names = append(names, cmp.Or(f.Filename, "a file")+" ("+f.MediaType+")")
	}
	return strings.Join(names, ", ")
}

// composeAnswer writes the answer's markdown: the first sentence of the best
// page, a link to it, the question before it in the thread when there was
// one, and the other pages as a suggestions block.
func composeAnswer(question string, earlier []string, hits []DocPage) string {
	var b strings.Builder
	if len(earlier) > 0 {
		b.WriteString("Following up on your earlier question (\"" + earlier[len(earlier)-1] + "\"): ")
	}
	if len(hits) == 0 {
		b.WriteString("I could not find anything about that in the docs.")
		return b.String()
	}
	top := hits[0]
	b.WriteString("According to " + top.Title + ": " + firstSentence(top.Content))
	b.WriteString("\n\nSee [" + top.Title + "](" + top.Path + ") for more.")
	if len(hits) > 1 {
		b.WriteString("\n\n```suggestions\n")
		for _, h := range hits[1:] {
			b.WriteString("(" + h.Title + ")[" + h.Path + "]\n")
		}
		b.WriteString("```")
	}
	return b.String()
}

// splitDeltas cuts text into pieces of four words, spaces kept, so that the
// pieces joined are the text.
func splitDeltas(text string) []string {
	var out []string
	tokens := strings.SplitAfter(text, " ")
	for i := 0; i < len(tokens); i += 4 {
		out = append(out, strings.Join(tokens[i:min(i+4, len(tokens))], ""))
	}
	return out
}

// planAnswer builds the chunks of answer number n, as the AI SDK 5 UI message
// stream carries them.
func (s *Server) planAnswer(n int, threadID, question string, hits []DocPage, answer string) *answerPlan {
	p := &answerPlan{n: n, textID: "txt_" + strconv.Itoa(n)}
	add := func(kind string, v any) {
		b, _ := json.Marshal(v) // maps and strings always encode
		p.chunks = append(p.chunks, planChunk{data: b, kind: kind})
	}
	type m = map[string]any
	id := strconv.Itoa(n)
	callID, textID := "call_"+id, "txt_"+id
	add("", m{"type": "start", "messageId": "msg_" + id})
	add("", m{"type": "start-step"})
	add("", m{"type": "tool-input-start", "toolCallId": callID, "toolName": "search"})
	add("", m{"type": "tool-input-available", "toolCallId": callID, "toolName": "search", "input": m{"query": question}})
	add("", m{"type": "tool-output-available", "toolCallId": callID, "output": m{"results": toResults(hits)}})
	if s.cfg.sourceURLs {
		for i, h := range hits {
			add("", m{"type": "source-url", "sourceId": "src_" + id + "_" + strconv.Itoa(i+1), "url": s.cfg.siteURL + h.Path, "title": h.Title})
		}
	}
	add("", m{"type": "finish-step"})
	add("", m{"type": "start-step"})
	add("text-start", m{"type": "text-start", "id": textID})
	for _, d := range splitDeltas(answer) {
		add("delta", m{"type": "text-delta", "id": textID, "delta": d})
	}
	add("text-end", m{"type": "text-end", "id": textID})
	add("", m{"type": "finish-step"})
	add("", m{"type": "finish", "finishReason": "stop", "threadId": threadID, "messageMetadata": m{"threadId": threadID}})
	return p
}

// writeStream sends a planned answer as Server-Sent Events, flushing each
// event, with the pacing and the stream faults of f. It returns the status
// sent.
func (s *Server) writeStream(w http.ResponseWriter, r *http.Request, resp *response, f *Fault) int {
	if f == nil {
		f = &Fault{}
	}
	if f.Deltas != nil || len(f.SourceURLs) > 0 {
		resp.stream = s.reshape(resp.stream, f)
	}
	for k, v := range resp.header {
		w.Header()[k] = v
	}
	if f.NoThreadHeaders {
		w.Header().Del("X-Thread-Id")
		w.Header().Del("X-Thread-Key")
	}
	w.WriteHeader(resp.status)
	flush := func() {
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
	}
	flush()
	delay := s.cfg.deltaDelay
	if f.DeltaDelay > 0 {
		delay = f.DeltaDelay
	}
	strike := f.CutStream || f.StreamError != ""
	deltas := 0
	for _, c := range resp.stream.chunks {
		if strike && (c.kind == "delta" && deltas == f.AfterDeltas || c.kind == "text-end") {
			if f.CutStream {
				abort(w) // mid-answer, without the end of the chunked body
				return resp.status
			}
			writeEvent(w, mustJSON(map[string]string{"type": "error", "errorText": f.StreamError}))
			writeEvent(w, []byte("[DONE]"))
			flush()
			return resp.status
		}
		if c.kind == "delta" {
			if deltas > 0 && !s.pace(r, f.Pace, delay) {
				abort(w)
				return resp.status
			}
			if deltas == 0 && resp.stream.thread != nil {
				s.mu.Lock()
				resp.stream.thread.firstDeltas = append(resp.stream.thread.firstDeltas, time.Now())
				s.mu.Unlock()
			}
			deltas++
		}
		writeEvent(w, c.data)
		flush()
	}
	writeEvent(w, []byte("[DONE]"))
	flush()
	return resp.status
}

// reshape is plan with the answer's text and source-url chunks of f: its
// text deltas replaced by f.Deltas (when set), and f.SourceURLs sent just
// before the text starts. The thread records the new text as the answer.
func (s *Server) reshape(plan *answerPlan, f *Fault) *answerPlan {
	out := &answerPlan{thread: plan.thread, n: plan.n, textID: plan.textID}
	for _, c := range plan.chunks {
		if c.kind == "text-start" {
			for i, su := range f.SourceURLs {
				b := mustJSON(map[string]any{"type": "source-url", "sourceId": "src_" + strconv.Itoa(plan.n) + "_x" + strconv.Itoa(i+1), "url": su.URL, "title": su.Title})
				out.chunks = append(out.chunks, planChunk{data: b})
			}
			out.chunks = append(out.chunks, c)
			if f.Deltas != nil {
				for _, d := range f.Deltas {
					out.chunks = append(out.chunks, planChunk{data: mustJSON(map[string]any{"type": "text-delta", "id": plan.textID, "delta": d}), kind: "delta"})
				}
			}
			continue
		}
		if c.kind == "delta" && f.Deltas != nil {
			continue
		}
		out.chunks = append(out.chunks, c)
	}
	if f.Deltas != nil && plan.thread != nil {
		s.mu.Lock()
		if n := len(plan.thread.answers); n > 0 {
			plan.thread.answers[n-1] = strings.Join(f.Deltas, "")
		}
		s.mu.Unlock()
	}
	return out
}

// pace waits before a text delta: for a receive from ch when set, then for
// delay. It reports false when the client or the server went away first.
func (s *Server) pace(r *http.Request, ch <-chan struct{}, delay time.Duration) bool {
	if ch != nil {
		select {
		case <-ch:
		case <-r.Context().Done():
			return false
		case <-s.done:
			return false
		}
	}
	return s.sleep(r.Context(), delay)
}

func writeEvent(w http.ResponseWriter, data []byte) {
	_, _ = w.Write([]byte("data: "))
	_, _ = w.Write(data)
	_, _ = w.Write([]byte("\n\n"))
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// newThreadIDLocked returns a new thread id shaped like a ULID (26 Crockford
// base32 characters: the server clock's milliseconds, then bits of a hash of
// a sequence number), as the analytics endpoints show thread ids.
func (s *Server) newThreadIDLocked() string {
	const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	s.threadSeq++
	ms := uint64(s.now().UnixMilli())
	lo, hi := hash(uint64(s.threadSeq), 0x7468726561640001), hash(uint64(s.threadSeq), 0x7468726561640002)
	var out [26]byte
	for i := 9; i >= 0; i-- {
		out[i] = alphabet[ms&31]
		ms >>= 5
	}
	for i := 10; i < 26; i++ {
		v := lo
		if i >= 18 {
			v = hi
		}
		out[i] = alphabet[v&31]
		if i >= 18 {
			hi >>= 5
		} else {
			lo >>= 5
		}
	}
	id := string(out[:])
	for s.threads[id] != nil { // a clash needs the same millisecond and hash: never in practice
		id = id[:25] + string(alphabet[(strings.IndexByte(alphabet, id[25])+1)%32])
	}
	return id
}

// newThreadKey returns a fresh random thread key.
func newThreadKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "tk_" + hex.EncodeToString(b[:])
}
