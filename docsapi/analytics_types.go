package docsapi

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Page-size bounds of the analytics endpoints, as the service documents them.
const (
	MaxViewsLimit         = 250  // views: 1-250, default 50
	MaxSearchesLimit      = 100  // searches: 1-100, default 50
	MaxFeedbackLimit      = 100  // feedback and feedback by page: 1-100, default 50 (by page: 10)
	MaxConversationsLimit = 1000 // assistant conversations: 1-1000, default 100
)

// ErrPageBound is matched by a [*PageBoundError]: a pager reached the most
// pages it was allowed to fetch while the server still reported more.
var ErrPageBound = errors.New("docsapi: page bound reached")

// PageBoundError reports a walk stopped at its bound. The pages before it
// were yielded and are good; more rows exist on the server.
type PageBoundError struct {
	// Endpoint is the walked operation, as [EndpointOf] names it.
	Endpoint string
	// Pages is the number of pages fetched, the bound.
	Pages int
}

// Error reads "docsapi: searches: stopped after 5 pages, the server has more".
func (e *PageBoundError) Error() string {
	return fmt.Sprintf("docsapi: %s: stopped after %d pages, the server has more", e.Endpoint, e.Pages)
}

// Is matches ErrPageBound.
func (e *PageBoundError) Is(target error) bool { return target == ErrPageBound }

// AnalyticsRange is a date range of the analytics endpoints. Zero values leave
// a bound out; the service documents no default range.
type AnalyticsRange struct {
	// From is the first day (YYYY-MM-DD or ISO 8601), inclusive.
	From string
	// To is the end (YYYY-MM-DD or ISO 8601), exclusive: that day is not
	// included.
	To string
}

// ViewsParams selects a range and a page of the page-views report (A2).
type ViewsParams struct {
	AnalyticsRange
	// Limit is the page size, 1 to 250; zero sends none (the service uses 50).
	Limit int
	// Offset is the number of rows to skip, 0 or more.
	Offset int
}

// PageViews holds the content-view events of one page path.
type PageViews struct {
	Path string `json:"path"`
	Counts
}

// ViewsPage is one page of the page-views report. The counts are view
// events, not distinct visitors: Total is Human+AI.
type ViewsPage struct {
	Totals  Counts      `json:"totals"`
	Views   []PageViews `json:"views"`
	HasMore bool        `json:"hasMore"`
}

// SearchesParams selects a range and a page of the search-queries report (A3).
type SearchesParams struct {
	AnalyticsRange
	// Limit is the page size, 1 to 100; zero sends none (the service uses 50).
	Limit int
	// Cursor is a NextCursor of an earlier page; "" starts at the top.
	Cursor string
}

// SearchQuery is one search term of the docs site in the range.
type SearchQuery struct {
	// Query is the term searched for (searchQuery).
	Query string `json:"searchQuery"`
	// Hits is how many times it was searched.
	Hits Count `json:"hits"`
	// CTR is the click-through rate as the service sends it. Its scale is
	// not documented (a fraction or a percentage); see [SearchQuery.ClickRate].
	CTR float64 `json:"ctr"`
	// TopClickedPage is the result clicked most, "" when none was (null).
	TopClickedPage string `json:"topClickedPage"`
	// LastSearchedAt is when it was last searched; nil when absent or in a
	// form the client does not read.
	LastSearchedAt *time.Time `json:"lastSearchedAt,omitempty"`
}

// ClickRate returns the click-through rate as a fraction from 0 to 1.
// Assumption: the scale is not documented, so a value above 1 is read as a
// percentage and divided by 100.
func (q SearchQuery) ClickRate() float64 {
	if q.CTR > 1 {
		return min(q.CTR/100, 1)
	}
	return max(q.CTR, 0)
}

// NoResultClicked reports a search that led nowhere: a zero click-through
// rate, or no top clicked page (either says nobody went on from the
// results). Often the docs lack the topic.
func (q SearchQuery) NoResultClicked() bool { return q.CTR == 0 || q.TopClickedPage == "" }

// SearchesPage is one page of the search-queries report, most searched first.
type SearchesPage struct {
	Searches []SearchQuery `json:"searches"`
	// TotalSearches is the sum of hits in the range, over all terms.
	TotalSearches Count `json:"totalSearches"`
	// NextCursor continues the report; "" on the last page.
	NextCursor string `json:"nextCursor"`
}

// FeedbackSource is the kind of a feedback entry. Values the client does not
// know are kept.
type FeedbackSource string

// The feedback sources the service documents.
const (
	SourceContextual  FeedbackSource = "contextual"   // a thumbs vote with an optional comment
	SourceCodeSnippet FeedbackSource = "code_snippet" // a report on a code block
	SourceAgent       FeedbackSource = "agent"
	SourceThumbsOnly  FeedbackSource = "thumbs_only"
)

// FeedbackStatus is the triage state of a feedback entry.
type FeedbackStatus string

// The feedback states the service documents.
const (
	FeedbackPending    FeedbackStatus = "pending"
	FeedbackInProgress FeedbackStatus = "in_progress"
	FeedbackResolved   FeedbackStatus = "resolved"
	FeedbackDismissed  FeedbackStatus = "dismissed"
)

// FeedbackParams selects a range, filters and a page of the feedback list (A4).
type FeedbackParams struct {
	AnalyticsRange
	// Source keeps one kind of feedback; "" keeps all.
	Source FeedbackSource
	// Status keeps entries in any of these states; none keeps all.
	Status []FeedbackStatus
	// Limit is the page size, 1 to 100; zero sends none (the service uses 50).
	Limit int
	// Cursor is a NextCursor of an earlier page; "" starts at the top.
	Cursor string
}

// Feedback is one feedback entry. The fields past Status belong to one
// source each and are zero for the others.
type Feedback struct {
	ID      string         `json:"id"`
	Path    string         `json:"path"`
	Comment string         `json:"comment"` // "" when none (null)
	Source  FeedbackSource `json:"source"`
	Status  FeedbackStatus `json:"status"`
	// CreatedAt is nil when absent, null or unreadable.
	CreatedAt *time.Time `json:"createdAt,omitempty"`

	// Helpful is the vote of contextual feedback: true for 👍, false for 👎,
	// nil when the entry has none.
	Helpful *bool  `json:"helpful,omitempty"`
	Contact string `json:"contact,omitempty"` // the reader's e-mail, if given

	// Code, Filename and Lang describe the code block a code_snippet entry
	// is about.
	Code     string `json:"code,omitempty"`
	Filename string `json:"filename,omitempty"`
	Lang     string `json:"lang,omitempty"`
}

// ThumbsDown reports a 👎 vote.
func (f Feedback) ThumbsDown() bool { return f.Helpful != nil && !*f.Helpful }

// FeedbackPage is one page of the feedback list.
type FeedbackPage struct {
	Feedback   []Feedback `json:"feedback"`
	NextCursor string     `json:"nextCursor"`
	HasMore    bool       `json:"hasMore"`
}

// FeedbackByPageParams selects the feedback counts per page (A5). The
// service offers only the first page.
type FeedbackByPageParams struct {
	AnalyticsRange
	Source FeedbackSource
	Status []FeedbackStatus
	// Limit is the number of pages, 1 to 100; zero sends none (the service
	// uses 10).
	Limit int
}

// PageFeedback counts the feedback of one docs page.
type PageFeedback struct {
	Path       string `json:"path"`
	ThumbsUp   Count  `json:"thumbsUp"`
	ThumbsDown Count  `json:"thumbsDown"`
	Code       Count  `json:"code"` // code-snippet reports
	Total      Count  `json:"total"`
}

// FeedbackByPage is the feedback counted per docs page.
type FeedbackByPage struct {
	Pages []PageFeedback `json:"feedback"`
	// HasMore reports more pages than Limit had feedback; they cannot be
	// fetched (the endpoint has no cursor), so the list is cut.
	HasMore bool `json:"hasMore"`
}

// ConversationsParams selects a range and a page of the assistant
// conversations (A6).
type ConversationsParams struct {
	AnalyticsRange
	// Limit is the page size, 1 to 1000; zero sends none (the service uses
	// 100).
	Limit int
	// Cursor is a NextCursor of an earlier page; "" starts at the top.
	Cursor string
}

// Resolution says whether the assistant answered a question.
type Resolution string

// The resolution states the service documents.
const (
	Answered   Resolution = "answered"
	Unanswered Resolution = "unanswered"
)

// The response types of a conversation turn.
const (
	ResponseAnswer  = "answer"
	ResponseClarify = "clarifying_question"
)

// Conversation is one user turn with the assistant. The turns of one
// conversation share ThreadID.
//
// Assumption (the documentation disagrees with itself): the row's id is the
// thread's id, the one [Client.ConversationThread] takes, and is not unique per row.
type Conversation struct {
	ThreadID string `json:"id"`
	// At is when the user's message was sent; nil when unreadable.
	At       *time.Time `json:"timestamp,omitempty"`
	Question string     `json:"query"`
	// Answer is the assistant's reply, or the question it asked back.
	Answer string `json:"response"`
	// ResponseType is "answer" or "clarifying_question"; an absent value
	// reads as "answer".
	ResponseType string               `json:"responseType"`
	Sources      []ConversationSource `json:"sources"`
	Resolution   Resolution           `json:"resolutionStatus"`
	// Category is the question's category, "" when none.
	Category string `json:"queryCategory"`
	// PageURL is where the chat started, "" when unknown.
	PageURL string `json:"pageUrl"`
}

// IsAnswered reports whether the turn was resolved. A row without a
// resolution status counts as answered, so that gaps are not overstated.
func (c Conversation) IsAnswered() bool { return c.Resolution != Unanswered }

// ConversationSource is a docs page an answer cited.
type ConversationSource struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// ConversationsPage is one page of the assistant conversations.
type ConversationsPage struct {
	Conversations []Conversation `json:"conversations"`
	NextCursor    string         `json:"nextCursor"`
	HasMore       bool           `json:"hasMore"`
}

// ConversationThread is a conversation with the assistant, message by
// message (A7).
type ConversationThread struct {
	ID        string                `json:"threadId"`
	CreatedAt *time.Time            `json:"createdAt,omitempty"`
	Messages  []ConversationMessage `json:"messages"`
}

// ConversationMessage is one message of a thread.
type ConversationMessage struct {
	ID        string     `json:"id"`
	Role      string     `json:"role"` // "user" or "assistant"
	Content   string     `json:"content"`
	CreatedAt *time.Time `json:"createdAt,omitempty"`
}

// CallerStats counts assistant questions by caller in a range (A8).
type CallerStats struct {
	Web   Count `json:"web"`   // the docs site
	API   Count `json:"api"`   // direct API calls
	Other Count `json:"other"` // integrations, SDKs
	Total Count `json:"total"`
}

// looseFloat decodes any JSON number, a number in a string, or null (0).
type looseFloat float64

func (f *looseFloat) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*f = 0
		return nil
	}
	s := strings.Trim(string(b), `"`)
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return errors.New("not a number")
	}
	*f = looseFloat(v)
	return nil
}
