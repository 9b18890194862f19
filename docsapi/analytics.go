package docsapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The analytics endpoints beyond the visitors export. Each call is one
// request of the organisation's analytics budget (100 an hour, shared by all
// of them and the visitors export); [EndpointOf] names them, so that a
// caller can count what it spends.
// Every call is a GET and is retried like other reads.
//
// Decoding is tolerant: unknown fields are ignored, counts may be written as
// any JSON number (12.0), a missing or null text field reads as "", and a
// timestamp in an unknown form reads as nil. The list of a page must be
// present (an answer without it is not this endpoint's answer); a null list
// reads as empty.

// Views returns one page of the page-views report
// (GET /v1/analytics/{projectId}/views). Zero fields of p are not sent.
func (c *Client) Views(ctx context.Context, p ViewsParams) (*ViewsPage, error) {
	if err := checkViewsParams(p); err != nil {
		return nil, err
	}
	return c.viewsPage(ctx, p)
}

// ViewPages walks the page-views report from p.Offset on, p.Limit rows a
// page (250 when 0), adding the limit to the offset while the server reports
// more. It fetches at most maxPages pages (the client's [WithMaxPages] when
// 0 or less); when the bound is reached with more to come it yields a
// [*PageBoundError] (matching [ErrPageBound]) after the last page. It also
// stops with an error on a failed request, a page that repeats the previous
// one, or an empty page that claims more follow.
func (c *Client) ViewPages(ctx context.Context, p ViewsParams, maxPages int) iter.Seq2[*ViewsPage, error] {
	if p.Limit == 0 {
		p.Limit = MaxViewsLimit
	}
	if err := checkViewsParams(p); err != nil {
		return failed[*ViewsPage](err)
	}
	return walk(EndpointViews, c.bound(maxPages), func() func() (*ViewsPage, bool, error) {
		p := p
		var prev []PageViews
		n := 0
		return func() (*ViewsPage, bool, error) {
			n++
			page, err := c.viewsPage(ctx, p)
			if err != nil {
				return nil, false, err
			}
			if n > 1 && len(page.Views) > 0 && slices.Equal(page.Views, prev) {
				return nil, false, fmt.Errorf("docsapi: views page %d (offset %d) repeats the previous page: the server is not paging", n, p.Offset)
			}
			if page.HasMore && len(page.Views) == 0 {
				return nil, false, fmt.Errorf("docsapi: views page %d (offset %d) is empty but claims more rows follow", n, p.Offset)
			}
			prev = page.Views
			p.Offset += p.Limit
			return page, page.HasMore, nil
		}
	})
}

// Searches returns one page of the search-queries report, most searched
// first (GET /v1/analytics/{projectId}/searches).
func (c *Client) Searches(ctx context.Context, p SearchesParams) (*SearchesPage, error) {
	if err := checkCursorParams(p.AnalyticsRange, p.Limit, MaxSearchesLimit); err != nil {
		return nil, err
	}
	page, _, err := c.searchesPage(ctx, p)
	return page, err
}

// SearchPages walks the search-queries report from p.Cursor on, p.Limit rows
// a page (100 when 0), following NextCursor until it is null. The bound is
// that of [Client.ViewPages]. It stops with an error on a failed request, on
// a page that claims more but gives no cursor (ErrMalformedResponse), and on
// a cursor that repeats the one just used.
func (c *Client) SearchPages(ctx context.Context, p SearchesParams, maxPages int) iter.Seq2[*SearchesPage, error] {
	if p.Limit == 0 {
		p.Limit = MaxSearchesLimit
	}
	if err := checkCursorParams(p.AnalyticsRange, p.Limit, MaxSearchesLimit); err != nil {
		return failed[*SearchesPage](err)
	}
	return walk(EndpointSearches, c.bound(maxPages), func() func() (*SearchesPage, bool, error) {
		p := p
		return func() (*SearchesPage, bool, error) {
			page, info, err := c.searchesPage(ctx, p)
			if err != nil {
				return nil, false, err
			}
			if err := info.follow(EndpointSearches, &p.Cursor); err != nil {
				return nil, false, err
			}
			return page, info.more, nil
		}
	})
}

// Feedback returns one page of the feedback list
// (GET /v1/analytics/{projectId}/feedback).
func (c *Client) Feedback(ctx context.Context, p FeedbackParams) (*FeedbackPage, error) {
	if err := checkFeedbackParams(p.AnalyticsRange, p.Source, p.Status, p.Limit); err != nil {
		return nil, err
	}
	page, _, err := c.feedbackPage(ctx, p)
	return page, err
}

// FeedbackPages walks the feedback list from p.Cursor on, p.Limit entries a
// page (100 when 0), with the cursor while the server reports more. The bound
// and errors are those of [Client.SearchPages].
func (c *Client) FeedbackPages(ctx context.Context, p FeedbackParams, maxPages int) iter.Seq2[*FeedbackPage, error] {
	if p.Limit == 0 {
		p.Limit = MaxFeedbackLimit
	}
	if err := checkFeedbackParams(p.AnalyticsRange, p.Source, p.Status, p.Limit); err != nil {
		return failed[*FeedbackPage](err)
	}
	return walk(EndpointFeedback, c.bound(maxPages), func() func() (*FeedbackPage, bool, error) {
		p := p
		return func() (*FeedbackPage, bool, error) {
			page, info, err := c.feedbackPage(ctx, p)
			if err != nil {
				return nil, false, err
			}
			if err := info.follow(EndpointFeedback, &p.Cursor); err != nil {
				return nil, false, err
			}
			return page, info.more, nil
		}
	})
}

// FeedbackByPage returns the feedback counted per docs page, most first
// (GET /v1/analytics/{projectId}/feedback/by-page). Only the first page
// exists: HasMore in the result says the list was cut at p.Limit.
func (c *Client) FeedbackByPage(ctx context.Context, p FeedbackByPageParams) (*FeedbackByPage, error) {
	if err := checkFeedbackParams(p.AnalyticsRange, p.Source, p.Status, p.Limit); err != nil {
		return nil, err
	}
	q := feedbackQuery(p.AnalyticsRange, p.Source, p.Status, p.Limit)
	var out *FeedbackByPage
	err := c.analyticsGet(ctx, "/feedback/by-page", q, func(b []byte) (err error) {
		out, err = decodeFeedbackByPage(b)
		return err
	})
	return out, err
}

// Conversations returns one page of the assistant conversations, a row per
// user turn (GET /v1/analytics/{projectId}/assistant).
func (c *Client) Conversations(ctx context.Context, p ConversationsParams) (*ConversationsPage, error) {
	if err := checkCursorParams(p.AnalyticsRange, p.Limit, MaxConversationsLimit); err != nil {
		return nil, err
	}
	page, _, err := c.conversationsPage(ctx, p)
	return page, err
}

// ConversationPages walks the assistant conversations from p.Cursor on,
// p.Limit rows a page (1000 when 0), with the cursor while the server
// reports more. The bound and errors are those of [Client.SearchPages].
func (c *Client) ConversationPages(ctx context.Context, p ConversationsParams, maxPages int) iter.Seq2[*ConversationsPage, error] {
	if p.Limit == 0 {
		p.Limit = MaxConversationsLimit
	}
	if err := checkCursorParams(p.AnalyticsRange, p.Limit, MaxConversationsLimit); err != nil {
		return failed[*ConversationsPage](err)
	}
	return walk(EndpointConversations, c.bound(maxPages), func() func() (*ConversationsPage, bool, error) {
		p := p
		return func() (*ConversationsPage, bool, error) {
			page, info, err := c.conversationsPage(ctx, p)
			if err != nil {
				return nil, false, err
			}
			if err := info.follow(EndpointConversations, &p.Cursor); err != nil {
				return nil, false, err
			}
			return page, info.more, nil
		}
	})
}

// ConversationThread returns the messages of an assistant thread in order
// (GET /v1/analytics/{projectId}/assistant/threads/{threadId}); threadID is
// a [Conversation]'s ThreadID. An unknown thread gives an [*APIError]
// matching [ErrNotFound], a malformed id one matching [ErrInvalidRequest].
func (c *Client) ConversationThread(ctx context.Context, threadID string) (*ConversationThread, error) {
	if err := checkPathID("thread id", threadID); err != nil {
		return nil, err
	}
	var out *ConversationThread
	err := c.analyticsGet(ctx, "/assistant/threads/"+url.PathEscape(threadID), nil, func(b []byte) (err error) {
		out, err = decodeThread(b, threadID)
		return err
	})
	return out, err
}

// CallerStats counts the assistant's questions by caller in a range
// (GET /v1/analytics/{projectId}/assistant/caller-stats).
func (c *Client) CallerStats(ctx context.Context, r AnalyticsRange) (*CallerStats, error) {
	if err := checkRange(r); err != nil {
		return nil, err
	}
	var out *CallerStats
	err := c.analyticsGet(ctx, "/assistant/caller-stats", rangeQuery(r), func(b []byte) (err error) {
		out, err = decodeCallerStats(b)
		return err
	})
	return out, err
}

// analyticsGet sends GET /v1/analytics/{projectId}{sub} and decodes a
// success answer with decode; a decode failure is ErrMalformedResponse.
func (c *Client) analyticsGet(ctx context.Context, sub string, q url.Values, decode func([]byte) error) error {
	cl := &call{
		method:  http.MethodGet,
		path:    "/v1/analytics/" + url.PathEscape(c.projectID) + sub,
		query:   q,
		maxBody: maxBodyVisitors,
	}
	res, err := c.do(ctx, cl)
	if err != nil {
		return err
	}
	if err := decode(res.body); err != nil {
		return c.malformed(cl, res.status, res.body, err)
	}
	return nil
}

func (c *Client) viewsPage(ctx context.Context, p ViewsParams) (*ViewsPage, error) {
	q := rangeQuery(p.AnalyticsRange)
	setInt(q, "limit", p.Limit)
	setInt(q, "offset", p.Offset)
	var out *ViewsPage
	err := c.analyticsGet(ctx, "/views", q, func(b []byte) (err error) {
		out, err = decodeViews(b)
		return err
	})
	return out, err
}

func (c *Client) searchesPage(ctx context.Context, p SearchesParams) (*SearchesPage, pageInfo, error) {
	q := rangeQuery(p.AnalyticsRange)
	setInt(q, "limit", p.Limit)
	setString(q, "cursor", p.Cursor)
	var out *SearchesPage
	var info pageInfo
	err := c.analyticsGet(ctx, "/searches", q, func(b []byte) (err error) {
		out, info, err = decodeSearches(b)
		return err
	})
	return out, info, err
}

func (c *Client) feedbackPage(ctx context.Context, p FeedbackParams) (*FeedbackPage, pageInfo, error) {
	q := feedbackQuery(p.AnalyticsRange, p.Source, p.Status, p.Limit)
	setString(q, "cursor", p.Cursor)
	var out *FeedbackPage
	var info pageInfo
	err := c.analyticsGet(ctx, "/feedback", q, func(b []byte) (err error) {
		out, info, err = decodeFeedback(b)
		return err
	})
	return out, info, err
}

func (c *Client) conversationsPage(ctx context.Context, p ConversationsParams) (*ConversationsPage, pageInfo, error) {
	q := rangeQuery(p.AnalyticsRange)
	setInt(q, "limit", p.Limit)
	setString(q, "cursor", p.Cursor)
	var out *ConversationsPage
	var info pageInfo
	err := c.analyticsGet(ctx, "/assistant", q, func(b []byte) (err error) {
		out, info, err = decodeConversations(b)
		return err
	})
	return out, info, err
}

// bound is a walk's page cap: n, or the client's when n is not positive.
func (c *Client) bound(n int) int {
	if n > 0 {
		return n
	}
	return c.maxPages
}

// walk yields the pages a fresh next (from start, so that each range over
// the walk begins anew) returns, while it reports more, until it fails or
// bound pages were fetched; then, if more remain, a *PageBoundError. A
// caller that stops early ends the walk with no further request.
func walk[T any](endpoint string, bound int, start func() func() (T, bool, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		next := start()
		for n := 1; ; n++ {
			page, more, err := next()
			if err != nil {
				yield(zero, err)
				return
			}
			if !yield(page, nil) || !more {
				return
			}
			if n >= bound {
				yield(zero, &PageBoundError{Endpoint: endpoint, Pages: n})
				return
			}
		}
	}
}

// failed is a walk that yields err alone.
func failed[T any](err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		yield(zero, err)
	}
}

// pageInfo is how a cursor page says what follows.
type pageInfo struct {
	cursor string // nextCursor, "" when absent or null
	more   bool
}

// readPageInfo decides whether more follows. The endpoints differ: searches
// send only nextCursor, feedback and conversations also hasMore. Assumption:
// hasMore, when present, decides (a cursor beside hasMore false is ignored);
// when absent, a non-empty nextCursor means more. More with no cursor to
// follow is an error, as the walk could not go on.
func readPageInfo(cursor *looseString, hasMore *bool) (pageInfo, error) {
	var info pageInfo
	if cursor != nil {
		info.cursor = strings.TrimSpace(string(*cursor))
	}
	info.more = info.cursor != ""
	if hasMore != nil {
		info.more = *hasMore
	}
	if info.more && info.cursor == "" {
		return info, errors.New("hasMore is true but nextCursor is empty")
	}
	if !info.more {
		info.cursor = ""
	}
	return info, nil
}

// follow moves *cursor on to the next page's; a cursor that does not change
// would fetch the same page forever.
func (info pageInfo) follow(endpoint string, cursor *string) error {
	if !info.more {
		return nil
	}
	if info.cursor == *cursor {
		return fmt.Errorf("docsapi: %s: nextCursor %q repeats the cursor just used: the server is not paging", endpoint, info.cursor)
	}
	*cursor = info.cursor
	return nil
}

func rangeQuery(r AnalyticsRange) url.Values {
	q := url.Values{}
	setString(q, "dateFrom", r.From)
	setString(q, "dateTo", r.To)
	return q
}

func feedbackQuery(r AnalyticsRange, source FeedbackSource, status []FeedbackStatus, limit int) url.Values {
	q := rangeQuery(r)
	setString(q, "source", string(source))
	if len(status) > 0 {
		s := make([]string, len(status))
		for i, st := range status {
			s[i] = string(st)
		}
		q.Set("status", strings.Join(s, ","))
	}
	setInt(q, "limit", limit)
	return q
}

func setString(q url.Values, k, v string) {
	if v != "" {
		q.Set(k, v)
	}
}

func setInt(q url.Values, k string, v int) {
	if v != 0 {
		q.Set(k, strconv.Itoa(v))
	}
}

// checkRange checks the dates of a range.
func checkRange(r AnalyticsRange) error {
	if r.From != "" && !isDate(r.From) {
		return &ValidationError{Field: "from date", Problem: "must be YYYY-MM-DD or an ISO 8601 date-time"}
	}
	if r.To != "" && !isDate(r.To) {
		return &ValidationError{Field: "to date", Problem: "must be YYYY-MM-DD or an ISO 8601 date-time"}
	}
	return nil
}

func checkLimit(limit, maxLimit int) error {
	if limit < 0 || limit > maxLimit {
		return &ValidationError{Field: "limit", Problem: "must be between 1 and " + strconv.Itoa(maxLimit) + " (0 for the default)"}
	}
	return nil
}

func checkViewsParams(p ViewsParams) error {
	if err := checkLimit(p.Limit, MaxViewsLimit); err != nil {
		return err
	}
	if p.Offset < 0 {
		return &ValidationError{Field: "offset", Problem: "must not be negative"}
	}
	return checkRange(p.AnalyticsRange)
}

func checkCursorParams(r AnalyticsRange, limit, maxLimit int) error {
	if err := checkLimit(limit, maxLimit); err != nil {
		return err
	}
	return checkRange(r)
}

func checkFeedbackParams(r AnalyticsRange, source FeedbackSource, status []FeedbackStatus, limit int) error {
	switch source {
	case "", SourceContextual, SourceCodeSnippet, SourceAgent, SourceThumbsOnly:
	default:
		return &ValidationError{Field: "feedback source", Problem: "must be contextual, code_snippet, agent or thumbs_only"}
	}
	for _, st := range status {
		switch st {
		case FeedbackPending, FeedbackInProgress, FeedbackResolved, FeedbackDismissed:
		default:
			return &ValidationError{Field: "feedback status", Problem: "must be pending, in_progress, resolved or dismissed"}
		}
	}
	return checkCursorParams(r, limit, MaxFeedbackLimit)
}

// listOf decodes a page's list: absent is an error, null is empty.
func listOf[T any](raw json.RawMessage, name string) ([]T, error) {
	if raw == nil {
		return nil, fmt.Errorf("answer lacks %s", name)
	}
	var out []T
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if out == nil {
		out = []T{}
	}
	return out, nil
}

// decodeViews reads a page of the views report. totals and hasMore must be
// present, like the visitors export's: an offset walk has no other sign of
// its end.
func decodeViews(b []byte) (*ViewsPage, error) {
	var w struct {
		Totals  *Counts         `json:"totals"`
		Views   json.RawMessage `json:"views"`
		HasMore *bool           `json:"hasMore"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	if w.Totals == nil || w.HasMore == nil {
		return nil, fmt.Errorf("answer lacks totals or hasMore")
	}
	views, err := listOf[PageViews](w.Views, "views")
	if err != nil {
		return nil, err
	}
	return &ViewsPage{Totals: *w.Totals, Views: views, HasMore: *w.HasMore}, nil
}

func decodeSearches(b []byte) (*SearchesPage, pageInfo, error) {
	type wireSearch struct {
		SearchQuery    looseString `json:"searchQuery"`
		Query          looseString `json:"query"` // assumed alias, if the field is renamed
		Hits           Count       `json:"hits"`
		CTR            looseFloat  `json:"ctr"`
		TopClickedPage looseString `json:"topClickedPage"`
		LastSearchedAt looseTime   `json:"lastSearchedAt"`
	}
	var w struct {
		Searches      json.RawMessage `json:"searches"`
		TotalSearches Count           `json:"totalSearches"`
		NextCursor    *looseString    `json:"nextCursor"`
		HasMore       *bool           `json:"hasMore"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, pageInfo{}, err
	}
	rows, err := listOf[wireSearch](w.Searches, "searches")
	if err != nil {
		return nil, pageInfo{}, err
	}
	info, err := readPageInfo(w.NextCursor, w.HasMore)
	if err != nil {
		return nil, pageInfo{}, err
	}
	page := &SearchesPage{Searches: make([]SearchQuery, len(rows)), TotalSearches: w.TotalSearches, NextCursor: info.cursor}
	for i, r := range rows {
		q := string(r.SearchQuery)
		if q == "" {
			q = string(r.Query)
		}
		page.Searches[i] = SearchQuery{Query: q, Hits: r.Hits, CTR: float64(r.CTR),
			TopClickedPage: string(r.TopClickedPage), LastSearchedAt: r.LastSearchedAt.t}
	}
	return page, info, nil
}

func decodeFeedback(b []byte) (*FeedbackPage, pageInfo, error) {
	type wireFeedback struct {
		ID        looseString     `json:"id"`
		Path      looseString     `json:"path"`
		Comment   looseString     `json:"comment"`
		CreatedAt looseTime       `json:"createdAt"`
		Source    looseString     `json:"source"`
		Status    looseString     `json:"status"`
		Helpful   json.RawMessage `json:"helpful"`
		Vote      json.RawMessage `json:"vote"` // assumed alias of helpful
		Contact   looseString     `json:"contact"`
		Code      looseString     `json:"code"`
		Filename  looseString     `json:"filename"`
		Lang      looseString     `json:"lang"`
	}
	var w struct {
		Feedback   json.RawMessage `json:"feedback"`
		NextCursor *looseString    `json:"nextCursor"`
		HasMore    *bool           `json:"hasMore"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, pageInfo{}, err
	}
	rows, err := listOf[wireFeedback](w.Feedback, "feedback")
	if err != nil {
		return nil, pageInfo{}, err
	}
	info, err := readPageInfo(w.NextCursor, w.HasMore)
	if err != nil {
		return nil, pageInfo{}, err
	}
	page := &FeedbackPage{Feedback: make([]Feedback, len(rows)), NextCursor: info.cursor, HasMore: info.more}
	for i, r := range rows {
		helpful := readVote(r.Helpful)
		if helpful == nil {
			helpful = readVote(r.Vote)
		}
		page.Feedback[i] = Feedback{
			ID: string(r.ID), Path: string(r.Path), Comment: string(r.Comment), CreatedAt: r.CreatedAt.t,
			Source: FeedbackSource(r.Source), Status: FeedbackStatus(r.Status), Helpful: helpful,
			Contact: string(r.Contact), Code: string(r.Code), Filename: string(r.Filename), Lang: string(r.Lang),
		}
	}
	return page, info, nil
}

// readVote reads a thumbs vote: a boolean, or (assumed, for tolerance) the
// strings "up"/"down", "yes"/"no", "helpful"/"not_helpful", "true"/"false"
// or the numbers 1/0. Anything else is no vote.
func readVote(raw json.RawMessage) *bool {
	var b bool
	if json.Unmarshal(raw, &b) == nil && len(raw) > 0 {
		return &b
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "up", "yes", "helpful", "true", "1", "positive", "thumbs_up":
		b = true
	case "down", "no", "not_helpful", "unhelpful", "false", "0", "negative", "thumbs_down":
		b = false
	default:
		return nil
	}
	return &b
}

func decodeFeedbackByPage(b []byte) (*FeedbackByPage, error) {
	var w struct {
		Feedback json.RawMessage `json:"feedback"`
		HasMore  bool            `json:"hasMore"` // absent reads as false: nothing more can be fetched anyway
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	rows, err := listOf[PageFeedback](w.Feedback, "feedback")
	if err != nil {
		return nil, err
	}
	return &FeedbackByPage{Pages: rows, HasMore: w.HasMore}, nil
}

func decodeConversations(b []byte) (*ConversationsPage, pageInfo, error) {
	type wireConversation struct {
		ID               looseString     `json:"id"`
		Timestamp        looseTime       `json:"timestamp"`
		Query            looseString     `json:"query"`
		Response         looseString     `json:"response"`
		ResponseType     looseString     `json:"responseType"`
		Sources          json.RawMessage `json:"sources"`
		ResolutionStatus looseString     `json:"resolutionStatus"`
		QueryCategory    looseString     `json:"queryCategory"`
		PageURL          looseString     `json:"pageUrl"`
	}
	var w struct {
		Conversations json.RawMessage `json:"conversations"`
		NextCursor    *looseString    `json:"nextCursor"`
		HasMore       *bool           `json:"hasMore"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, pageInfo{}, err
	}
	rows, err := listOf[wireConversation](w.Conversations, "conversations")
	if err != nil {
		return nil, pageInfo{}, err
	}
	info, err := readPageInfo(w.NextCursor, w.HasMore)
	if err != nil {
		return nil, pageInfo{}, err
	}
	page := &ConversationsPage{Conversations: make([]Conversation, len(rows)), NextCursor: info.cursor, HasMore: info.more}
	for i, r := range rows {
		rt := string(r.ResponseType)
		if rt == "" {
			rt = ResponseAnswer
		}
		var sources []struct {
			Title looseString `json:"title"`
			URL   looseString `json:"url"`
		}
		_ = json.Unmarshal(r.Sources, &sources) // sources in another shape are left out
		conv := Conversation{
			ThreadID: string(r.ID), At: r.Timestamp.t, Question: string(r.Query), Answer: string(r.Response),
			ResponseType: rt, Resolution: Resolution(r.ResolutionStatus), Category: string(r.QueryCategory),
			PageURL: string(r.PageURL), Sources: make([]ConversationSource, 0, len(sources)),
		}
		for _, s := range sources {
			conv.Sources = append(conv.Sources, ConversationSource{Title: string(s.Title), URL: string(s.URL)})
		}
		page.Conversations[i] = conv
	}
	return page, info, nil
}

// decodeThread reads a thread; a missing threadId reads as the id asked for.
func decodeThread(b []byte, asked string) (*ConversationThread, error) {
	type wireMessage struct {
		ID        looseString `json:"id"`
		Role      looseString `json:"role"`
		Content   looseString `json:"content"`
		CreatedAt looseTime   `json:"createdAt"`
	}
	var w struct {
		ThreadID  looseString     `json:"threadId"`
		CreatedAt looseTime       `json:"createdAt"`
		Messages  json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	msgs, err := listOf[wireMessage](w.Messages, "messages")
	if err != nil {
		return nil, err
	}
	t := &ConversationThread{ID: string(w.ThreadID), CreatedAt: w.CreatedAt.t, Messages: make([]ConversationMessage, len(msgs))}
	if t.ID == "" {
		t.ID = asked
	}
	for i, m := range msgs {
		t.Messages[i] = ConversationMessage{ID: string(m.ID), Role: string(m.Role), Content: string(m.Content), CreatedAt: m.CreatedAt.t}
	}
	return t, nil
}

// decodeCallerStats reads the caller counts. A missing total is assumed to
// be the sum of the others.
func decodeCallerStats(b []byte) (*CallerStats, error) {
	var w struct {
		Web, API, Other Count
		Total           *Count `json:"total"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	s := &CallerStats{Web: w.Web, API: w.API, Other: w.Other, Total: w.Web + w.API + w.Other}
	if w.Total != nil {
		s.Total = *w.Total
	}
	return s, nil
}
