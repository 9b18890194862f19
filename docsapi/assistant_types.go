package docsapi

import (
	"encoding/base64"
	"encoding/json"
	"log/slog"
)

// Role is the author of a message in a conversation with the assistant.
type Role string

// The roles of the AI SDK 5 UIMessage shape.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
)

// UIMessage is one message of a conversation, in the AI SDK 5 UIMessage shape
// the assistant reads: text parts, and a user message's file parts.
type UIMessage struct {
	// ID identifies the message; [Assistant.Ask] fills in a random one when
	// it is empty.
	ID   string `json:"id"`
	Role Role   `json:"role"`
	// Parts holds the message's text.
	Parts []TextPart `json:"parts"`
	// Files are sent as file parts before the text parts, where AI SDK's
	// own client puts the files a person attaches; only a user message may
	// carry them.
	Files []FilePart `json:"-"`
}

// FilePart is a file sent with a user message: a {"type":"file",
// "mediaType","url","filename"} part of the D1 request.
//
// What the assistant does with one is not documented: the OpenAPI file
// lists the part among a message's parts and says nothing of the media
// types it reads, their size, or whether it fetches an https URL. This
// client assumes it takes images (the platform's own Slack agent reads
// them) and sends their bytes in a data: URL ([DataFile]), as AI SDK's
// client does for a file picked in a browser, so that the service needs
// no access to where the file came from. A service that refuses such a
// question answers 4xx before it answers anything: [Assistant.Ask] then
// returns an error matching [ErrFilesRefused], and the caller may ask
// again without the files.
type FilePart struct {
	// MediaType is the file's IANA media type, such as image/png.
	MediaType string
	// URL is where the file is: a data: URL of its bytes, or an address.
	URL string
	// Filename is the file's name, if any.
	Filename string
}

// DataFile returns a file part holding data, of the media type given, in a
// base64 data: URL (RFC 2397).
func DataFile(mediaType, filename string, data []byte) FilePart {
	return FilePart{MediaType: mediaType, Filename: filename, URL: "data:" + mediaType + ";base64," + base64.StdEncoding.EncodeToString(data)}
}

// TextPart is a {"type":"text","text":...} part of a [UIMessage].
type TextPart struct {
	Type string `json:"type"` // always "text"; Ask sets it
	Text string `json:"text"`
}

// UserText returns a user message holding text. An empty id is filled in by
// [Assistant.Ask].
func UserText(id, text string) UIMessage {
	return UIMessage{ID: id, Role: RoleUser, Parts: []TextPart{{Type: "text", Text: text}}}
}

// AssistantText returns an assistant message holding text, to replay an
// earlier answer in a conversation.
func AssistantText(id, text string) UIMessage {
	return UIMessage{ID: id, Role: RoleAssistant, Parts: []TextPart{{Type: "text", Text: text}}}
}

// AskFilter narrows the pages an answer is grounded on. Empty fields are not
// sent.
type AskFilter struct {
	Version  string   `json:"version,omitempty"`
	Language string   `json:"language,omitempty"`
	Groups   []string `json:"groups,omitempty"`
}

// ThreadKey is the secret that proves the right to continue a thread. The
// service sends it once, when the thread is created; keep it to ask follow-up
// questions. Its printed and logged forms never show it: use string(k) to
// store it.
type ThreadKey string

// String hides the key.
func (k ThreadKey) String() string { return maskedOrEmpty(string(k)) }

// GoString hides the key.
func (k ThreadKey) GoString() string { return maskedOrEmpty(string(k)) }

// LogValue hides the key.
func (k ThreadKey) LogValue() slog.Value { return slog.StringValue(maskedOrEmpty(string(k))) }

func maskedOrEmpty(s string) string {
	if s == "" {
		return ""
	}
	return redacted
}

// Thread names a conversation with the assistant: its id and the key that
// allows continuing it. The zero Thread starts a new conversation.
type Thread struct {
	ID  string
	Key ThreadKey
}

// AskRequest is a question to the assistant
// (POST /v2/assistant/{domain}/message).
type AskRequest struct {
	// Fingerprint identifies the end user (the fp field); "" sends
	// "anonymous".
	Fingerprint string
	// Messages is the conversation so far, ending with the user's question.
	// With a Thread the service keeps the history itself, so sending only the
	// new question is enough (assumed; the AI SDK's own client resends all).
	Messages []UIMessage
	// Thread continues an earlier conversation; the zero value starts one.
	// Its Key is sent in the body, never shown in errors or logs.
	Thread Thread
	// RetrievalPageSize is how many search results the answer is grounded
	// on; 0 sends none (the service uses 5).
	RetrievalPageSize int
	// Filter narrows the pages searched; nil sends none.
	Filter *AskFilter
	// CurrentPath is the docs page the user is on, at most 200 characters.
	CurrentPath string
}

// Question returns a request asking text in a new conversation.
func Question(text string) AskRequest {
	return AskRequest{Messages: []UIMessage{UserText("", text)}}
}

// AnswerSource is a docs page (or other address) an answer draws on.
type AnswerSource struct {
	// Path is the page's path in the docs, such as "/quickstart", when known:
	// always for search results, for a source-url chunk only when its url is
	// a path.
	Path string
	// URL is the address of a source-url chunk; empty for search results.
	URL string
	// Title is the page title, when given.
	Title string
	// Content is the excerpt the search returned; empty for source-url.
	Content string
}

// Key is what tells sources apart: the path, else the URL.
func (s AnswerSource) Key() string {
	if s.Path != "" {
		return s.Path
	}
	return s.URL
}

// Answer is a whole answer, read to its end by [AnswerStream.Answer].
type Answer struct {
	// Text is the answer's markdown, the text deltas joined.
	Text string
	// Sources are the pages found, in order of first appearance, without
	// repeats.
	Sources []AnswerSource
	// Queries are the search queries the assistant ran.
	Queries []string
	// Thread is the conversation to continue with a follow-up question.
	Thread Thread
	// FinishReason is the finish chunk's reason ("stop", ...), if given.
	FinishReason string
	// Aborted reports that the stream said abort: the answer is incomplete.
	Aborted bool
}

// AnswerEvent is one event of an [AnswerStream]: one of [StartEvent],
// [TextEvent], [ToolCallEvent], [ToolResultEvent], [SourcesEvent],
// [FinishEvent] or [AbortEvent].
type AnswerEvent interface{ answerEvent() }

// StartEvent opens the answer (a start chunk).
type StartEvent struct{ MessageID string }

// TextEvent is a piece of the answer's text (a text-delta chunk).
type TextEvent struct {
	// Delta is the new text, to append to what came before.
	Delta string
	// ID is the text block it belongs to.
	ID string
}

// ToolCallEvent is a tool the assistant calls (a tool-input-available
// chunk), such as its docs search.
type ToolCallEvent struct {
	ID   string
	Name string
	// Query is input.query when the input has one, as the search tool's does.
	Query string
	Input json.RawMessage
}

// ToolResultEvent is a tool's output (a tool-output-available chunk).
type ToolResultEvent struct {
	ID     string
	Name   string // from the matching call, "" when none was seen
	Output json.RawMessage
}

// SourcesEvent lists sources not seen before in this answer, from a
// source-url chunk or from the search tool's results.
type SourcesEvent struct{ Sources []AnswerSource }

// FinishEvent ends the answer (a finish chunk). The stream's next call to
// Next returns io.EOF.
type FinishEvent struct {
	Reason string
	// ThreadID is the thread id the finish chunk carried, at its top level
	// or in messageMetadata; "" when none.
	ThreadID string
	// Metadata is the chunk's messageMetadata as sent, or nil.
	Metadata json.RawMessage
}

// AbortEvent says the answer was stopped before its end (an abort chunk).
// What came before it stands; the stream ends after it without error.
type AbortEvent struct{ Reason string }

func (StartEvent) answerEvent()      {}
func (TextEvent) answerEvent()       {}
func (ToolCallEvent) answerEvent()   {}
func (ToolResultEvent) answerEvent() {}
func (SourcesEvent) answerEvent()    {}
func (FinishEvent) answerEvent()     {}
func (AbortEvent) answerEvent()      {}

// SearchFilter narrows a search. Empty fields are not sent.
type SearchFilter struct {
	Version  string   `json:"version,omitempty"`
	Language string   `json:"language,omitempty"`
	Tag      string   `json:"tag,omitempty"`
	Groups   []string `json:"groups,omitempty"`
}

// SearchParams is a docs search (POST /v1/search/{domain}).
type SearchParams struct {
	// Query is what to search for; it must not be empty.
	Query string
	// PageSize is the number of results, 1 to 50; 0 sends none (10).
	PageSize int
	// ScoreThreshold keeps results scoring at least this, 0 to 1; nil sends
	// none.
	ScoreThreshold *float64
	Filter         *SearchFilter
}

// SearchResult is one page a search found.
type SearchResult struct {
	Path    string
	Content string
	// Title and Description are metadata.title and metadata.description,
	// when the service sends them.
	Title, Description string
	// Metadata is the result's metadata object as sent, or nil.
	Metadata json.RawMessage
}

// Page is the full text of a docs page (POST /v1/page/{domain}).
type Page struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}
