package slacktest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/slack-go/slack"
)

// Attachment is a file a person attaches to a message (UserMessage.Attach).
type Attachment struct {
	Name string
	// Mimetype is what Slack says of the file, from its name; default
	// application/octet-stream. The bot must not believe it.
	Mimetype string
	// Content is what the file's url_private_download serves.
	Content []byte
	// Fault makes the download answer otherwise than with Content.
	Fault FileFault
	// RedirectTo is where a FileRedirect sends the download: another host.
	RedirectTo string
}

// FileFault is how a download of an attached file goes wrong.
type FileFault int

const (
	// FileServed serves the file's bytes to its workspace's bot token
	// with files:read, as Slack does.
	FileServed FileFault = iota
	// FileSignInPage answers 200 with Slack's HTML sign-in page, whatever
	// the token: what Slack does when the app lacks files:read.
	FileSignInPage
	// FileRedirect answers 302 to Attachment.RedirectTo.
	FileRedirect
	// FileEndless answers 200 with a body that never ends (text lines),
	// until the client stops reading.
	FileEndless
)

// sharedFile is a file a person attached. Guarded by Server.mu.
type sharedFile struct {
	Attachment
	id, team string
	// channel, threadTS and ts say where it was shared (File's).
	channel, threadTS, ts string
	// served counts the bytes written to downloads, an endless body's
	// included; downloads the downloads answered with the file's bytes.
	served    int64
	downloads int
}

// FileDownloads is what was downloaded of an attached file.
type FileDownloads struct {
	// Downloads are the downloads answered with the file (not the sign-in
	// page, a redirect or a refusal).
	Downloads int
	// Served is the bytes written to them, an endless body's included.
	Served int64
}

// SharedFile is what the file id (from the message event's files) was
// downloaded; false for an id no person attached.
func (s *Server) SharedFile(id string) (FileDownloads, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.shared[id]
	if !ok {
		return FileDownloads{}, false
	}
	return FileDownloads{Downloads: f.downloads, Served: f.served}, true
}

// AttachedFiles are the files people attached to their messages, in the
// order they were attached, as File shows them (Name and Title the file's
// name, Completed): where each was shared and what it holds.
func (s *Server) AttachedFiles() []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]File, 0, len(s.sharedOrder))
	for _, id := range s.sharedOrder {
		f := s.shared[id]
		out = append(out, File{ID: f.id, Name: f.Name, Title: f.Name, Content: slices.Clone(f.Content),
			Channel: f.channel, ThreadTS: f.threadTS, MessageTS: f.ts, Completed: true})
	}
	return out
}

// shareFilesLocked records the files of m, stored as the message stored
// (Files by name, empty; Attach with their bytes), and returns the files
// array of the message, as Slack sends it in the event and in history.
// s.mu is held.
func (s *Server) shareFilesLocked(ch *channelState, stored *msg, m UserMessage) []map[string]any {
	all := slices.Clone(m.Attach)
	for _, n := range m.Files {
		all = append(all, Attachment{Name: n})
	}
	team := s.channelWorkspaceLocked(ch).Team
	out := make([]map[string]any, 0, len(all))
	for _, a := range all {
		f := &sharedFile{Attachment: a, id: "F" + strings.ToUpper(randomString(10)), team: team,
			channel: ch.ID, threadTS: stored.threadTSValue(), ts: stored.ts}
		f.Content = slices.Clone(a.Content)
		s.shared[f.id] = f
		s.sharedOrder = append(s.sharedOrder, f.id)
		mimetype := a.Mimetype
		if mimetype == "" {
			mimetype = "application/octet-stream"
		}
		path := "/files-pri/" + team + "-" + f.id + "/"
		out = append(out, map[string]any{
			"id": f.id, "name": a.Name, "title": a.Name, "mimetype": mimetype, "filetype": fileType(a.Name),
			"user": m.UserID, "mode": "hosted", "size": len(a.Content),
			"url_private":          s.base + path + url.PathEscape(a.Name),
			"url_private_download": s.base + path + "download/" + url.PathEscape(a.Name),
			"permalink":            s.base + "/files/" + m.UserID + "/" + f.id + "/" + url.PathEscape(a.Name),
		})
	}
	return out
}

// fileType is Slack's filetype of a name: its extension, or "binary".
func fileType(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 && i < len(name)-1 {
		return strings.ToLower(name[i+1:])
	}
	return "binary"
}

// serveSharedFile answers GET /files-pri/<team>-<id>/[download/]<name> as
// files.slack.com does: the bytes to a bot token of the file's workspace
// with files:read; to any other token, or none, a redirect to the sign-in
// page (200, HTML), carrying the file's path in redir.
func (s *Server) serveSharedFile(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/files-pri/")
	key, _, _ := strings.Cut(rest, "/")
	_, id, _ := strings.Cut(key, "-")
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	f, ok := s.shared[id]
	var mayRead bool
	if ok && token != "" {
		ws, _, code, isBot := s.botTokenLocked(token, map[string]string{"team_id": f.team})
		mayRead = isBot && code == "" && ws != nil && ws.Team == f.team && slices.Contains(s.cfg.scopes, "files:read")
	}
	var a Attachment
	if ok {
		a = f.Attachment
	}
	s.mu.Unlock()
	switch {
	case !ok:
		http.NotFound(w, r)
	case a.Fault == FileSignInPage:
		writePage(w, http.StatusOK, "Sign in to Slack", "Sign in to your workspace to see this file.")
	case !mayRead:
		http.Redirect(w, r, "/files-signin?redir="+url.QueryEscape(r.URL.Path), http.StatusFound)
	case a.Fault == FileRedirect:
		http.Redirect(w, r, a.RedirectTo, http.StatusFound)
	case a.Fault == FileEndless:
		s.serveEndless(w, r, f)
	default:
		w.Header().Set("Content-Type", a.Mimetype)
		n, _ := w.Write(a.Content)
		s.mu.Lock()
		f.downloads++
		f.served += int64(n)
		s.mu.Unlock()
	}
}

// serveEndless writes text lines to w until the client goes away.
func (s *Server) serveEndless(w http.ResponseWriter, r *http.Request, f *sharedFile) {
	w.Header().Set("Content-Type", "text/plain")
	line := []byte(strings.Repeat("an endless log line\n", 64))
	s.mu.Lock()
	f.downloads++
	s.mu.Unlock()
	for r.Context().Err() == nil {
		n, err := w.Write(line)
		s.mu.Lock()
		f.served += int64(n)
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// serveFilesSignIn is the sign-in page a download without access lands on.
func (s *Server) serveFilesSignIn(w http.ResponseWriter, _ *http.Request) {
	writePage(w, http.StatusOK, "Sign in to Slack", "Sign in to your workspace to see this file.")
}

// MessageFiles are the files of the message ts in channel as Slack shows
// them (conversations.history's files), nil when it has none.
func (s *Server) MessageFiles(channel, ts string) []slack.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[channel]
	if !ok {
		return nil
	}
	m, ok := ch.byTS[ts]
	if !ok || len(m.files) == 0 {
		return nil
	}
	var out []slack.File
	if json.Unmarshal(m.files, &out) != nil {
		return nil
	}
	return out
}
