package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// Files people attach, read safely. A feature that takes what people
// attach to a message reads it with b.ReadFiles: each file from its
// url_private_download with the bot token of the workspace ctx names
// (SlackIn), only on Slack's own file host (files.slack.com, or the host
// of SLACK_API_URL: Config.SlackHost), never across a redirect to another
// host (checkRedirect, on every client SlackOptions makes), at most
// FileLimits.MaxBytes each, streamed into a buffer that stops the download
// there, and at most FileLimits.MaxCount a message. What a file is comes
// from its bytes (sniffType), never from its name or what Slack says of it.
// Slack answers a download without files:read with its HTML sign-in page
// (200): that is ErrFilesScope, never a file.

// Defaults of FileLimits.
const (
	DefaultFileMaxBytes = 10 << 20
	DefaultFileMaxCount = 4
	// DefaultFileTextMax is the most characters of attached text files a
	// job's agent gets, all files together.
	DefaultFileTextMax = 20000
)

// FileLimits bound what is read of the files people attach.
type FileLimits struct {
	// MaxBytes is the most read of one file (DOCSBOT_FILE_MAX_BYTES).
	MaxBytes int
	// MaxCount is the most files read of one message
	// (DOCSBOT_FILE_MAX_COUNT).
	MaxCount int
	// TextMax is the most characters of attached text files passed on to
	// a job's agent, all together (DOCSBOT_FILE_TEXT_MAX).
	TextMax int
}

func (l FileLimits) withDefaults() FileLimits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultFileMaxBytes
	}
	if l.MaxCount <= 0 {
		l.MaxCount = DefaultFileMaxCount
	}
	if l.TextMax <= 0 {
		l.TextMax = DefaultFileTextMax
	}
	return l
}

// The errors of reading a file, decided with errors.Is.
var (
	// ErrFilesScope: Slack sent its sign-in page instead of the file.
	ErrFilesScope = errors.New("docsbot cannot read files: the app needs the files:read scope (reinstall)")
	// ErrFileTooLarge: the file is larger than FileLimits.MaxBytes
	// (*FileTooLargeError).
	ErrFileTooLarge = errors.New("bot: file larger than docsbot reads")
	// ErrFileCount: the message has more files than FileLimits.MaxCount.
	ErrFileCount = errors.New("bot: more files than docsbot reads of one message")
	// ErrFileHost: the file's address is not on Slack's file host.
	ErrFileHost = errors.New("bot: file not on Slack's file host; not read")
	// ErrFileRedirect: Slack's file host redirected the download to
	// another host; not followed, the token not sent there.
	ErrFileRedirect = errors.New("bot: file download redirected to another host; not followed")
)

// FileTooLargeError is ErrFileTooLarge: Max the limit, Read the bytes
// read of the download before it stopped (0 when Slack's size said so
// first). Read is at most Max and one read's buffer more, however long the
// body.
type FileTooLargeError struct {
	Max, Read int64
}

func (e *FileTooLargeError) Error() string {
	return fmt.Sprintf("bot: file larger than %d bytes, docsbot's limit", e.Max)
}

func (e *FileTooLargeError) Is(target error) bool { return target == ErrFileTooLarge }

// AttachedFile is a file read from Slack.
type AttachedFile struct {
	// File is what Slack said of it (name, permalink...).
	File slack.File
	// Type is the media type sniffed from Data, such as image/png or
	// text/plain; charset=utf-8.
	Type string
	Data []byte
}

// SkippedFile is a file not read, and why (the errors above, or another).
type SkippedFile struct {
	File slack.File
	Err  error
}

// slackFileHost is the host of Slack's own files.
const slackFileHost = "files.slack.com"

// fileURLOK reports whether the bot token may be sent to raw: https on
// Slack's file host, or on the configured Slack's (Config.SlackHost).
func (b *Bot) fileURLOK(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.User != nil {
		return false
	}
	if b.cfg.SlackHost != "" && u.Host == b.cfg.SlackHost {
		return u.Scheme == "https" || u.Scheme == "http"
	}
	return u.Scheme == "https" && u.Host == slackFileHost
}

// ReadFiles reads the files of a message, in order: the first
// FileLimits.MaxCount are read (ReadFile), the others skipped with
// ErrFileCount.
func (b *Bot) ReadFiles(ctx context.Context, files []slack.File) (read []AttachedFile, skipped []SkippedFile) {
	for i, f := range files {
		if i >= b.cfg.Files.MaxCount {
			skipped = append(skipped, SkippedFile{File: f, Err: ErrFileCount})
			continue
		}
		a, err := b.ReadFile(ctx, f)
		if err != nil {
			skipped = append(skipped, SkippedFile{File: f, Err: err})
			continue
		}
		read = append(read, a)
	}
	return read, skipped
}

// ReadFile reads f from its url_private_download with the bot token of the
// workspace ctx names.
func (b *Bot) ReadFile(ctx context.Context, f slack.File) (AttachedFile, error) {
	limit := int64(b.cfg.Files.MaxBytes)
	if int64(f.Size) > limit {
		return AttachedFile{}, &FileTooLargeError{Max: limit}
	}
	if !b.fileURLOK(f.URLPrivateDownload) {
		return AttachedFile{}, fmt.Errorf("reading file %s: %w", f.ID, ErrFileHost)
	}
	buf := &cappedBuffer{max: limit}
	if err := b.SlackIn(ctx).GetFileContext(ctx, f.URLPrivateDownload, buf); err != nil {
		return AttachedFile{}, fmt.Errorf("reading file %s: %w", f.ID, err)
	}
	data := buf.Bytes()
	typ := sniffType(data)
	if signInPage(f, typ) {
		return AttachedFile{}, fmt.Errorf("reading file %s: %w", f.ID, ErrFilesScope)
	}
	return AttachedFile{File: f, Type: typ, Data: data}, nil
}

// signInPage reports whether a download of f sniffed as typ is Slack's
// sign-in page: HTML, where the file itself is no HTML file.
func signInPage(f slack.File, typ string) bool {
	if !strings.HasPrefix(typ, "text/html") {
		return false
	}
	return f.Filetype != "html" && !strings.HasPrefix(f.Mimetype, "text/html")
}

// cappedBuffer keeps what is written to it up to max bytes; a write past
// max fails with *FileTooLargeError, which stops the download (io.Copy
// reads no more), so that no more than max and one read's buffer of an
// unknown body is ever read. It must not be an io.ReaderFrom (as an
// embedded bytes.Buffer would make it): io.Copy would hand it the whole
// body.
type cappedBuffer struct {
	buf          bytes.Buffer
	max, offered int64
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.offered += int64(len(p))
	if c.offered > c.max {
		return 0, &FileTooLargeError{Max: c.max, Read: c.offered}
	}
	return c.buf.Write(p)
}

func (c *cappedBuffer) Bytes() []byte { return c.buf.Bytes() }

// The magic numbers of the images docsbot takes.
var imageMagic = []struct {
	typ    string
	prefix string
}{
	{"image/png", "\x89PNG\r\n\x1a\n"},
	{"image/jpeg", "\xff\xd8\xff"},
	{"image/gif", "GIF87a"},
	{"image/gif", "GIF89a"},
}

// sniffType is the media type of data, from its bytes: an image only by its
// magic number (PNG, JPEG, GIF, WebP), anything else as
// http.DetectContentType says (which never says image/* for bytes without
// one of theirs).
func sniffType(data []byte) string {
	for _, m := range imageMagic {
		if bytes.HasPrefix(data, []byte(m.prefix)) {
			return m.typ
		}
	}
	if len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP" {
		return "image/webp"
	}
	typ := http.DetectContentType(data)
	if strings.HasPrefix(typ, "image/") {
		// An image of another kind (BMP, ICO): none docsbot passes on.
		return "application/octet-stream"
	}
	return typ
}

// maxRedirects is how many redirects on Slack's own host a request
// follows (as Go's default).
const maxRedirects = 10

// checkRedirect is the redirect policy of the bot's Slack clients
// (SlackOptions): a redirect is followed only on the host (and scheme) the
// request was sent to, so that the token goes nowhere else. A redirect to
// Slack's sign-in page (its redir naming the file's path: what Slack does
// to a download the token may not make) is ErrFilesScope; one to another
// host ErrFileRedirect.
func checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	switch {
	case req.URL.Query().Get("redir") != "" && req.URL.Query().Get("redir") == first.URL.Path:
		return ErrFilesScope
	case req.URL.Host != first.URL.Host || req.URL.Scheme != first.URL.Scheme:
		return ErrFileRedirect
	case len(via) >= maxRedirects:
		return fmt.Errorf("bot: stopped after %d redirects", maxRedirects)
	}
	return nil
}

// FileRef is what a post keeps of a file attached to it, to read it later
// (ReadFiles): what Slack said of it, not its bytes.
type FileRef struct {
	ID        string `json:"id"`
	Name      string `json:"name,omitempty"`
	Mimetype  string `json:"mimetype,omitempty"`
	Size      int    `json:"size,omitempty"`
	URL       string `json:"url,omitempty"` // url_private_download
	Permalink string `json:"permalink,omitempty"`
}

// File is r as slack-go's file, for ReadFiles.
func (r FileRef) File() slack.File {
	return slack.File{ID: r.ID, Name: r.Name, Mimetype: r.Mimetype, Size: r.Size, URLPrivateDownload: r.URL, Permalink: r.Permalink}
}

// fileRefs are the refs of files.
func fileRefs(files []slack.File) []FileRef {
	var out []FileRef
	for _, f := range files {
		out = append(out, FileRef{ID: f.ID, Name: f.Name, Mimetype: f.Mimetype, Size: f.Size, URL: f.URLPrivateDownload, Permalink: f.Permalink})
	}
	return out
}

// ReadRefs reads the files of refs as ReadFiles does.
func (b *Bot) ReadRefs(ctx context.Context, refs []FileRef) (read []AttachedFile, skipped []SkippedFile) {
	files := make([]slack.File, len(refs))
	for i, r := range refs {
		files[i] = r.File()
	}
	return b.ReadFiles(ctx, files)
}

// eventFiles are the files of a message event, which slack-go's
// MessageEvent does not read: from the raw inner event.
func eventFiles(ev slackevents.EventsAPIEvent) []slack.File {
	cb, ok := ev.Data.(*slackevents.EventsAPICallbackEvent)
	if !ok || cb.InnerEvent == nil {
		return nil
	}
	var m struct {
		Files []slack.File `json:"files"`
	}
	if json.Unmarshal(*cb.InnerEvent, &m) != nil {
		return nil
	}
	return m.Files
}

// FileLimits are what the bot reads of attached files (Config.Files).
func (b *Bot) FileLimits() FileLimits { return b.cfg.Files }
