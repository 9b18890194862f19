package slacktest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
)

// maxUploadBytes bounds one upload to the fake.
const maxUploadBytes = 32 << 20

// File is a file the bot uploaded with files.getUploadURLExternal, the
// upload URL and files.completeUploadExternal (slack-go's UploadFileContext).
type File struct {
	ID string
	// Name is the filename given to files.getUploadURLExternal.
	Name string
	// Title is the title given to files.completeUploadExternal.
	Title   string
	AltText string
	// Content is what was posted to the upload URL.
	Content []byte
	// Channel, ThreadTS and MessageTS say where the file was shared: the
	// channel, the thread's parent ("" at the top) and the message showing
	// it. All "" while the upload is not completed or shared nowhere.
	Channel   string
	ThreadTS  string
	MessageTS string
	// Completed is set by files.completeUploadExternal.
	Completed bool
}

// upload is a file's state. Guarded by Server.mu.
type upload struct {
	File
	length   int
	ticket   string
	uploaded bool
}

// filesGetUploadURLExternal hands out an upload URL for a file of length bytes.
func (s *Server) filesGetUploadURLExternal(r *apiRequest) apiResult {
	p := r.params
	length, err := strconv.Atoi(p["length"])
	switch {
	case p["filename"] == "":
		return invalidArgs("missing required field: filename")
	case err != nil || length <= 0:
		return fail("missing_argument")
	case len(p["alt_txt"]) > 1000:
		return fail("alt_txt_too_large")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := &upload{File: File{ID: "F" + strings.ToUpper(randomString(10)), Name: p["filename"], AltText: p["alt_txt"]}, length: length, ticket: randomString(24)}
	s.uploads[u.ID] = u
	s.uploadOrder = append(s.uploadOrder, u.ID)
	return apiResult{fields: map[string]any{
		"upload_url": s.base + "/upload/v1/" + u.ticket,
		"file_id":    u.ID,
	}}
}

// serveUpload receives a file's bytes at its upload URL: a multipart form
// with the file in any part (slack-go sends "file"), or the raw body. It
// answers 200 "OK - <bytes>" like Slack's upload host.
func (s *Server) serveUpload(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	ticket := strings.TrimPrefix(r.URL.Path, "/upload/v1/")
	content, err := readUpload(r)
	if err != nil {
		http.Error(w, "unreadable upload", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	var found *upload
	for _, u := range s.uploads {
		if u.ticket == ticket && !u.Completed {
			found = u
		}
	}
	if found != nil {
		found.Content = content
		found.uploaded = true
	}
	s.mu.Unlock()
	if found == nil {
		http.Error(w, "upload not found", http.StatusNotFound)
		return
	}
	s.changed()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "OK - %d", len(content))
}

func readUpload(r *http.Request) ([]byte, error) {
	body := http.MaxBytesReader(nil, r.Body, maxUploadBytes)
	ctype, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if !strings.HasPrefix(ctype, "multipart/") {
		return io.ReadAll(body)
	}
	mr := multipart.NewReader(body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err != nil {
			return nil, fmt.Errorf("no file part: %w", err)
		}
		if part.FileName() != "" || part.FormName() == "file" {
			return io.ReadAll(part)
		}
	}
}

// filesCompleteUploadExternal finishes uploads and shares them in
// channel_id (in the thread thread_ts), as one message by the bot.
func (s *Server) filesCompleteUploadExternal(r *apiRequest) apiResult {
	p := r.params
	var list []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	if err := json.Unmarshal([]byte(p["files"]), &list); err != nil || len(list) == 0 {
		return invalidArgs("missing required field: files")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var ups []*upload
	for _, f := range list {
		u, ok := s.uploads[f.ID]
		if !ok || !u.uploaded || u.Completed {
			return fail("file_not_found")
		}
		ups = append(ups, u)
	}
	channel := p["channel_id"]
	if channel == "" {
		channel, _, _ = strings.Cut(p["channels"], ",")
	}
	var ch *channelState
	var parent *msg
	if channel != "" {
		var code string
		if ch, code = s.visibleChannelLocked(r.ws, channel); code != "" {
			return fail(code)
		}
		if !ch.BotMember {
			return fail("not_in_channel")
		}
		if tts := p["thread_ts"]; tts != "" {
			if parent = threadParent(ch, tts); parent == nil {
				return invalidArgs("invalid `thread_ts`")
			}
		}
	}
	var out, shared []map[string]any
	for i, u := range ups {
		u.Completed = true
		u.Title = list[i].Title
		if u.Title == "" {
			u.Title = u.Name
		}
		out = append(out, map[string]any{"id": u.ID, "title": u.Title})
		shared = append(shared, map[string]any{"id": u.ID, "name": u.Name, "title": u.Title, "size": len(u.Content)})
	}
	res := apiResult{fields: map[string]any{"files": out}}
	if ch == nil {
		return res
	}
	filesJSON, _ := json.Marshal(shared)
	m := &msg{
		ts:     s.nextTSLocked(),
		user:   r.ws.BotUserID,
		botID:  r.ws.BotID,
		appID:  s.cfg.appID,
		text:   p["initial_comment"],
		files:  filesJSON,
		blocks: cloneRaw(nonNull(rawParam(p, "blocks"))),
	}
	s.addMessageLocked(ch, m, parent)
	for _, u := range ups {
		u.Channel, u.MessageTS = ch.ID, m.ts
		if parent != nil {
			u.ThreadTS = parent.ts
		}
	}
	if parent != nil {
		delete(s.statuses, statusKey(ch.ID, parent.ts))
	}
	if e := s.botEchoLocked(ch, m); e != nil {
		res.echo = append(res.echo, e)
	}
	return res
}

// Files lists the files the bot uploaded, in the order their upload URLs
// were handed out, completed or not.
func (s *Server) Files() []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]File, 0, len(s.uploadOrder))
	for _, id := range s.uploadOrder {
		f := s.uploads[id].File
		f.Content = cloneRaw(f.Content)
		out = append(out, f)
	}
	return out
}
