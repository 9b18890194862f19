package docsapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// DefaultDiscoveryURL is the production address of the discovery API: the
// assistant, search and page endpoints.
const DefaultDiscoveryURL = "https://api.mintlify.com/discovery"

// AssistantKeyPrefix begins every assistant key. It begins with [KeyPrefix],
// so a list of secret kinds that holds KeyPrefix covers it too.
const AssistantKeyPrefix = "mint_dsc_"

// MaxCurrentPath is the longest CurrentPath, in characters, a question may
// carry.
const MaxCurrentPath = 200

// MaxSearchPageSize is the largest page size a search accepts.
const MaxSearchPageSize = 50

// WithDiscoveryURL sets the discovery API's address for [NewAssistant], for
// example a local test server's URL with "/discovery". NewClient ignores it,
// as NewAssistant ignores WithBaseURL, so one option list can serve both.
func WithDiscoveryURL(u string) Option { return func(c *Client) { c.rawDiscovery = u } }

// Assistant calls the discovery API of one docs site: questions to the
// assistant, search and pages. It is safe for concurrent use.
type Assistant struct {
	c *Client
}

// NewAssistant returns an assistant client for the docs site domain (the last
// segment of the dashboard URL app.mintlify.com/{org}/{domain}, not the
// project id), authenticated by the assistant key (mint_dsc_…). The options
// are those of [NewClient]; WithDiscoveryURL sets the address (default
// [DefaultDiscoveryURL]). The attempt timeout limits the wait for an answer
// to begin and each silence within it, not a whole answer.
//
// A key of another docs kind (mint_ without dsc_, such as the admin key) is
// rejected, since it cannot work; a key of no known form is let through.
func NewAssistant(key, domain string, opts ...Option) (*Assistant, error) {
	c, err := newClient(key, domain, true, opts)
	if err != nil {
		return nil, err
	}
	if k := c.apiKey.value(); strings.HasPrefix(k, KeyPrefix) && !strings.HasPrefix(k, AssistantKeyPrefix) {
		return nil, &ValidationError{Field: "assistant key", Problem: "is another kind of docs key: the assistant takes a " + AssistantKeyPrefix + " key"}
	}
	return &Assistant{c: c}, nil
}

// String describes the assistant without its key.
func (a *Assistant) String() string {
	if a == nil {
		return "docsapi.Assistant(nil)"
	}
	return fmt.Sprintf("docsapi.Assistant{domain: %q, discoveryURL: %q}", a.c.projectID, a.c.baseURL)
}

// GoString is like String, so that %#v does not print the key either.
func (a *Assistant) GoString() string { return a.String() }

// LogValue keeps the key out of structured logs.
func (a *Assistant) LogValue() slog.Value {
	if a == nil {
		return slog.StringValue("<nil>")
	}
	return slog.GroupValue(slog.String("domain", a.c.projectID), slog.String("discoveryURL", a.c.baseURL))
}

// Ask puts a question to the assistant (POST /v2/assistant/{domain}/message)
// and returns the answer as a stream of events once the service has begun to
// answer. The stream is bound to ctx: cancelling it ends the stream. Close
// the stream when done.
//
// A question costs credits, so it is never asked twice by the client: it is
// retried only on 429 (the service did not take it) or when no connection
// could be opened. Any other failure after sending wraps [ErrOutcomeUnknown];
// a stream that breaks off later gives [ErrStreamCut] from Next.
//
// A 404 to a question in a thread wraps [ErrThreadNotFound]; a 400, 413, 415
// or 422 to a question with files wraps [ErrFilesRefused]. The thread key
// never appears in an error or a log line.
func (a *Assistant) Ask(ctx context.Context, req AskRequest) (*AnswerStream, error) {
	body, err := askBody(req)
	if err != nil {
		return nil, err
	}
	cl := &call{
		method: http.MethodPost, path: a.messagePath(), body: body,
		stream: true, accept: "text/event-stream", secrets: []string{string(req.Thread.Key)},
	}
	res, err := a.c.do(ctx, cl)
	if err != nil {
		if req.Thread.ID != "" {
			err = asThreadNotFound(err)
		}
		if hasFiles(req) {
			err = asFilesRefused(err)
		}
		return nil, err
	}
	return newAnswerStream(ctx, a.c, cl, res.stream, req.Thread), nil
}

func (a *Assistant) messagePath() string {
	return "/v2/assistant/" + url.PathEscape(a.c.projectID) + "/message"
}

// askBody checks a question and encodes it. Message ids left empty get
// random ones; the caller's slice is not changed.
func askBody(req AskRequest) ([]byte, error) {
	if err := checkAsk(req); err != nil {
		return nil, err
	}
	msgs := make([]wireMessage, len(req.Messages))
	for i, m := range req.Messages {
		w := wireMessage{ID: m.ID, Role: m.Role, Parts: make([]any, 0, len(m.Files)+len(m.Parts))}
		if w.ID == "" {
			w.ID = newMessageID()
		}
		for _, f := range m.Files {
			w.Parts = append(w.Parts, wireFile{Type: "file", MediaType: f.MediaType, URL: f.URL, Filename: f.Filename})
		}
		for _, p := range m.Parts {
			w.Parts = append(w.Parts, TextPart{Type: "text", Text: p.Text})
		}
		msgs[i] = w
	}
	fp := strings.TrimSpace(req.Fingerprint)
	if fp == "" {
		fp = "anonymous"
	}
	// Field names of the D1 request; threadKey is the embed guide's, absent
	// from the OpenAPI file (spec section 5.1).
	b, err := json.Marshal(struct {
		Fp                string        `json:"fp"`
		Messages          []wireMessage `json:"messages"`
		ThreadID          string        `json:"threadId,omitempty"`
		ThreadKey         string        `json:"threadKey,omitempty"`
		RetrievalPageSize int           `json:"retrievalPageSize,omitempty"`
		Filter            *AskFilter    `json:"filter,omitempty"`
		CurrentPath       string        `json:"currentPath,omitempty"`
	}{fp, msgs, req.Thread.ID, string(req.Thread.Key), req.RetrievalPageSize, req.Filter, req.CurrentPath})
	if err != nil {
		return nil, fmt.Errorf("docsapi: encoding question: %w", err)
	}
	return b, nil
}

// wireMessage is a UIMessage as the D1 request carries it: its file parts,
// then its text parts.
type wireMessage struct {
	ID    string `json:"id"`
	Role  Role   `json:"role"`
	Parts []any  `json:"parts"`
}

// wireFile is a FilePart as the D1 request carries it.
type wireFile struct {
	Type      string `json:"type"` // "file"
	MediaType string `json:"mediaType"`
	URL       string `json:"url"`
	Filename  string `json:"filename,omitempty"`
}

func checkAsk(req AskRequest) error {
	bad := func(field, problem string) error { return &ValidationError{Field: field, Problem: problem} }
	n := len(req.Messages)
	if n == 0 {
		return bad("messages", "must hold the question")
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleUser, RoleAssistant, RoleSystem:
		default:
			return bad("messages", "role must be user, assistant or system")
		}
		if len(m.Files) > 0 && m.Role != RoleUser {
			return bad("files", "only a user message carries files")
		}
		for _, f := range m.Files {
			if err := checkFile(f); err != nil {
				return err
			}
		}
	}
	last := req.Messages[n-1]
	text := ""
	for _, p := range last.Parts {
		text += p.Text
	}
	if last.Role != RoleUser || strings.TrimSpace(text) == "" {
		return bad("messages", "must end with a user message that has text")
	}
	switch {
	case req.Thread.Key != "" && req.Thread.ID == "":
		return bad("thread", "a thread key needs its thread id")
	case req.RetrievalPageSize < 0:
		return bad("retrieval page size", "must not be negative")
	case utf8.RuneCountInString(req.CurrentPath) > MaxCurrentPath:
		return bad("current path", fmt.Sprintf("must be at most %d characters", MaxCurrentPath))
	}
	// A thread id without its key is let through: the OpenAPI file knows no
	// key, so the service may accept it; the embed guide says it answers 404.
	return nil
}

// checkFile checks a file part: a media type and a data: or https URL.
func checkFile(f FilePart) error {
	bad := func(problem string) error { return &ValidationError{Field: "file", Problem: problem} }
	switch {
	case strings.TrimSpace(f.MediaType) == "":
		return bad("needs its media type")
	case strings.HasPrefix(f.URL, "data:"):
		if _, _, ok := strings.Cut(f.URL, ","); !ok {
			return bad("a data: URL needs a comma before its data")
		}
	default:
		if u, err := url.Parse(f.URL); err != nil || u.Scheme != "https" || u.Host == "" {
			return bad("needs a data: or https URL")
		}
	}
	return nil
}

func newMessageID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "msg_" + hex.EncodeToString(b[:])
}
