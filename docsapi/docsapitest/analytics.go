package docsapitest

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The analytics endpoints beyond the visitors export. They count against the
// visitors limit ([Limits].Visitors), which all analytics calls share.
const (
	EndpointViews          Endpoint = "views"
	EndpointSearches       Endpoint = "searches"
	EndpointFeedback       Endpoint = "feedback"
	EndpointFeedbackByPage Endpoint = "feedback_by_page"
	EndpointConversations  Endpoint = "assistant_conversations"
	EndpointThread         Endpoint = "assistant_thread"
	EndpointCallerStats    Endpoint = "assistant_caller_stats"
)

// analytics reports whether e is an analytics endpoint, visitors included.
func (e Endpoint) analytics() bool {
	switch e {
	case EndpointVisitors, EndpointViews, EndpointSearches, EndpointFeedback, EndpointFeedbackByPage,
		EndpointConversations, EndpointThread, EndpointCallerStats:
		return true
	}
	return false
}

// Messages of the analytics endpoints.
const (
	msgBadCursor         = "cursor is invalid"
	msgBadThreadID       = "Invalid thread ID"
	msgNoAnalyticsThread = "thread not found"
)

// matchAnalytics classifies GET /v1/analytics/{projectId}/... below the
// visitors export; seg are the unescaped segments.
func matchAnalytics(seg []string) (route, bool) {
	if len(seg) < 5 || seg[0] != "" || seg[1] != "v1" || seg[2] != "analytics" {
		return route{}, false
	}
	rt := route{allow: http.MethodGet, project: seg[3]}
	switch rest := strings.Join(seg[4:], "/"); {
	case rest == "views":
		rt.endpoint = EndpointViews
	case rest == "searches":
		rt.endpoint = EndpointSearches
	case rest == "feedback":
		rt.endpoint = EndpointFeedback
	case rest == "feedback/by-page":
		rt.endpoint = EndpointFeedbackByPage
	case rest == "assistant":
		rt.endpoint = EndpointConversations
	case rest == "assistant/caller-stats":
		rt.endpoint = EndpointCallerStats
	case len(seg) == 7 && seg[4] == "assistant" && seg[5] == "threads" && seg[6] != "":
		rt.endpoint, rt.jobID = EndpointThread, seg[6]
	default:
		return route{}, false
	}
	return rt, true
}

// handleAnalytics answers an analytics endpoint beyond the visitors export.
func (s *Server) handleAnalytics(rt route, q url.Values) *response {
	now := s.now()
	switch rt.endpoint {
	case EndpointViews:
		return s.views(q)
	case EndpointSearches:
		return s.searches(q, now)
	case EndpointFeedback:
		return s.feedback(q, now)
	case EndpointFeedbackByPage:
		return s.feedbackByPage(q, now)
	case EndpointConversations:
		return s.conversations(q, now)
	case EndpointThread:
		return s.thread(rt.jobID, now)
	default:
		return s.callerStats(q, now)
	}
}

// Analytics returns a copy of the story the analytics endpoints serve.
func (s *Server) Analytics() *Analytics { return s.cfg.analytics.clone() }

// analyticsQuery is a validated range, page size and paging position.
type analyticsQuery struct {
	from, to time.Time // zero = open end
	limit    int
	offset   int // decoded from the cursor
}

// in reports whether t is in the range: from inclusive, to exclusive.
func (a analyticsQuery) in(t time.Time) bool {
	return (a.from.IsZero() || !t.Before(a.from)) && (a.to.IsZero() || t.Before(a.to))
}

// parseAnalytics reads dateFrom, dateTo and limit (defLimit, 1..maxLimit).
func parseAnalytics(q url.Values, defLimit, maxLimit int) (analyticsQuery, []string) {
	aq := analyticsQuery{limit: defLimit}
	var errs []string
	if _, ok := q["limit"]; ok {
		n, err := strconv.Atoi(q.Get("limit"))
		switch {
		case err != nil:
			errs = append(errs, "limit must be an integer")
		case n < 1 || n > maxLimit:
			errs = append(errs, "limit must be between 1 and "+strconv.Itoa(maxLimit))
		default:
			aq.limit = n
		}
	}
	errs = append(errs, parseDates(q, &aq.from, &aq.to)...)
	return aq, errs
}

// Cursors: searches and feedback take an opaque base64 text; the assistant
// conversations take a ULID, as the service documents.
func textCursor(kind string, offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + strconv.Itoa(offset)))
}

func parseTextCursor(kind, c string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	rest, ok := strings.CutPrefix(string(b), kind+":")
	n, err := strconv.Atoi(rest)
	return n, ok && err == nil && n > 0
}

const ulidCursorPrefix = "01JDC"

func ulidCursor(offset int) string { return ulidCursorPrefix + padInt(offset, 21) }

func parseULIDCursor(c string) (int, bool) {
	if !isULID(c) || !strings.HasPrefix(c, ulidCursorPrefix) {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimLeft(c[len(ulidCursorPrefix):], "0"))
	return n, err == nil && n > 0
}

func padInt(n, width int) string {
	s := strconv.Itoa(n)
	return strings.Repeat("0", max(width-len(s), 0)) + s
}

// isULID reports 26 characters of Crockford's base32, the first at most 7.
func isULID(s string) bool {
	if len(s) != 26 || s[0] > '7' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' && c != 'I' && c != 'L' && c != 'O' && c != 'U') {
			return false
		}
	}
	return true
}

// readCursor sets aq.offset from the cursor parameter, if any.
func readCursor(q url.Values, aq *analyticsQuery, parse func(string) (int, bool)) []string {
	if _, ok := q["cursor"]; !ok {
		return nil
	}
	n, ok := parse(q.Get("cursor"))
	if !ok {
		return []string{msgBadCursor}
	}
	aq.offset = n
	return nil
}

// num writes a count, as 12.0 with WithFloatCounts.
func (s *Server) num(n int) json.Number {
	if s.cfg.floatCounts {
		return json.Number(strconv.Itoa(n) + ".0")
	}
	return json.Number(strconv.Itoa(n))
}

// stampText writes a time as the service does: RFC 3339, UTC, milliseconds.
func stampText(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// nullable writes "" as null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// window returns rows[offset:offset+limit] and whether more follow.
func pageOf[T any](rows []T, offset, limit int) ([]T, bool) {
	if offset >= len(rows) {
		return []T{}, false
	}
	end := min(offset+limit, len(rows))
	return rows[offset:end], end < len(rows)
}

// views handles GET /v1/analytics/{projectId}/views: the dataset's visitors
// of each page times a per-page factor of 1 to 2.5 views a visitor, so that
// views are events (Total is Human+AI), ordered by total, then path.
func (s *Server) views(q url.Values) *response {
	vq, errs := parseVisitorsQuery(q)
	if len(errs) > 0 {
		return invalidQuery(errs)
	}
	type row struct {
		path           string
		human, ai, tot int
	}
	v := s.cfg.dataset.view(vq.from, vq.to)
	rows := make([]row, 0, len(v.pages))
	var th, ta int
	for _, p := range v.pages {
		h := fnv.New64a()
		_, _ = h.Write([]byte(p.Path))
		r := hash(tagViews, h.Sum64())
		hv := int(int64(p.Human) * int64(100+r%150) / 100)
		av := int(int64(p.AI) * int64(100+(r>>20)%150) / 100)
		rows = append(rows, row{p.Path, hv, av, hv + av})
		th += hv
		ta += av
	}
	slices.SortFunc(rows, func(x, y row) int {
		if c := cmp.Compare(y.tot, x.tot); c != 0 {
			return c
		}
		return strings.Compare(x.path, y.path)
	})
	part, more := pageOf(rows, vq.offset, vq.limit)
	type counts struct {
		Human json.Number `json:"human"`
		AI    json.Number `json:"ai"`
		Total json.Number `json:"total"`
	}
	type wireRow struct {
		Path string `json:"path"`
		counts
	}
	out := struct {
		Totals  counts    `json:"totals"`
		Views   []wireRow `json:"views"`
		HasMore bool      `json:"hasMore"`
	}{Totals: counts{s.num(th), s.num(ta), s.num(th + ta)}, Views: make([]wireRow, len(part)), HasMore: more}
	for i, r := range part {
		out.Views[i] = wireRow{r.path, counts{s.num(r.human), s.num(r.ai), s.num(r.tot)}}
	}
	return jsonResponse(http.StatusOK, out)
}

// searches handles GET /v1/analytics/{projectId}/searches: the terms last
// searched in the range, most hits first, with nextCursor only.
func (s *Server) searches(q url.Values, now time.Time) *response {
	aq, errs := parseAnalytics(q, 50, 100)
	errs = append(errs, readCursor(q, &aq, func(c string) (int, bool) { return parseTextCursor("searches", c) })...)
	if len(errs) > 0 {
		return invalidQuery(errs)
	}
	var rows []SearchStat
	total := 0
	for _, st := range s.cfg.analytics.Searches {
		if aq.in(now.Add(-st.Age)) {
			rows = append(rows, st)
			total += st.Hits
		}
	}
	slices.SortStableFunc(rows, func(x, y SearchStat) int {
		if c := cmp.Compare(y.Hits, x.Hits); c != 0 {
			return c
		}
		return strings.Compare(x.Query, y.Query)
	})
	part, more := pageOf(rows, aq.offset, aq.limit)
	type wire struct {
		SearchQuery    string      `json:"searchQuery"`
		Hits           json.Number `json:"hits"`
		CTR            float64     `json:"ctr"`
		TopClickedPage *string     `json:"topClickedPage"`
		LastSearchedAt string      `json:"lastSearchedAt"`
	}
	out := struct {
		Searches      []wire      `json:"searches"`
		TotalSearches json.Number `json:"totalSearches"`
		NextCursor    *string     `json:"nextCursor"`
	}{Searches: make([]wire, len(part)), TotalSearches: s.num(total)}
	for i, st := range part {
		out.Searches[i] = wire{st.Query, s.num(st.Hits), st.CTR, nullable(st.TopClickedPage), stampText(now.Add(-st.Age))}
	}
	if more {
		out.NextCursor = nullable(textCursor("searches", aq.offset+aq.limit))
	}
	return jsonResponse(http.StatusOK, out)
}

// feedbackFilter reads source and status and returns the entries in the
// range that pass, newest first.
func (s *Server) feedbackFilter(q url.Values, aq analyticsQuery, now time.Time) ([]FeedbackEntry, []string) {
	var errs []string
	source := q.Get("source")
	if _, ok := q["source"]; ok && !slices.Contains([]string{"code_snippet", "contextual", "agent", "thumbs_only"}, source) {
		errs = append(errs, "source must be one of code_snippet, contextual, agent, thumbs_only")
	}
	var status []string
	if _, ok := q["status"]; ok {
		status = strings.Split(q.Get("status"), ",")
		for _, st := range status {
			if !slices.Contains([]string{"pending", "in_progress", "resolved", "dismissed"}, strings.TrimSpace(st)) {
				errs = append(errs, "status must be a comma-separated list of pending, in_progress, resolved, dismissed")
				break
			}
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	var rows []FeedbackEntry
	for _, f := range s.cfg.analytics.Feedback {
		if !aq.in(now.Add(-f.Age)) || (source != "" && f.Source != source) {
			continue
		}
		if status != nil && !slices.ContainsFunc(status, func(st string) bool { return strings.TrimSpace(st) == f.Status }) {
			continue
		}
		rows = append(rows, f)
	}
	slices.SortStableFunc(rows, func(x, y FeedbackEntry) int {
		if c := cmp.Compare(x.Age, y.Age); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	return rows, nil
}

// feedback handles GET /v1/analytics/{projectId}/feedback: entries in the
// shape of their source, newest first, with nextCursor and hasMore.
func (s *Server) feedback(q url.Values, now time.Time) *response {
	aq, errs := parseAnalytics(q, 50, 100)
	errs = append(errs, readCursor(q, &aq, func(c string) (int, bool) { return parseTextCursor("feedback", c) })...)
	if len(errs) > 0 {
		return invalidQuery(errs)
	}
	rows, errs := s.feedbackFilter(q, aq, now)
	if len(errs) > 0 {
		return invalidQuery(errs)
	}
	part, more := pageOf(rows, aq.offset, aq.limit)
	items := make([]map[string]any, len(part))
	for i, f := range part {
		m := map[string]any{
			"id": f.ID, "path": f.Path, "comment": nullable(f.Comment), "createdAt": stampText(now.Add(-f.Age)),
			"source": f.Source, "status": f.Status,
		}
		switch f.Source {
		case "contextual":
			m["helpful"] = f.Vote > 0
			m["contact"] = nullable(f.Contact)
		case "code_snippet":
			m["code"], m["filename"], m["lang"] = f.Code, nullable(f.Filename), nullable(f.Lang)
		}
		items[i] = m
	}
	out := map[string]any{"feedback": items, "hasMore": more, "nextCursor": nil}
	if more {
		out["nextCursor"] = textCursor("feedback", aq.offset+aq.limit)
	}
	return jsonResponse(http.StatusOK, out)
}

// feedbackByPage handles GET /v1/analytics/{projectId}/feedback/by-page: the
// filtered entries counted per path, most first, the first limit only.
func (s *Server) feedbackByPage(q url.Values, now time.Time) *response {
	aq, errs := parseAnalytics(q, 10, 100)
	if len(errs) > 0 {
		return invalidQuery(errs)
	}
	rows, errs := s.feedbackFilter(q, aq, now)
	if len(errs) > 0 {
		return invalidQuery(errs)
	}
	type group struct {
		path                  string
		up, down, code, total int
	}
	var groups []*group
	byPath := map[string]*group{}
	for _, f := range rows {
		g := byPath[f.Path]
		if g == nil {
			g = &group{path: f.Path}
			byPath[f.Path] = g
			groups = append(groups, g)
		}
		g.total++
		switch {
		case f.Source == "code_snippet":
			g.code++
		case f.Vote > 0:
			g.up++
		case f.Vote < 0:
			g.down++
		}
	}
	slices.SortFunc(groups, func(x, y *group) int {
		if c := cmp.Compare(y.total, x.total); c != 0 {
			return c
		}
		return strings.Compare(x.path, y.path)
	})
	part, more := pageOf(groups, 0, aq.limit)
	type wire struct {
		Path       string      `json:"path"`
		ThumbsUp   json.Number `json:"thumbsUp"`
		ThumbsDown json.Number `json:"thumbsDown"`
		Code       json.Number `json:"code"`
		Total      json.Number `json:"total"`
	}
	out := struct {
		Feedback []wire `json:"feedback"`
		HasMore  bool   `json:"hasMore"`
	}{Feedback: make([]wire, len(part)), HasMore: more}
	for i, g := range part {
		out.Feedback[i] = wire{g.path, s.num(g.up), s.num(g.down), s.num(g.code), s.num(g.total)}
	}
	return jsonResponse(http.StatusOK, out)
}

// turnsIn returns the conversation turns in the range, newest first.
func (s *Server) turnsIn(aq analyticsQuery, now time.Time) []ConversationTurn {
	var rows []ConversationTurn
	for _, c := range s.cfg.analytics.Conversations {
		if aq.in(now.Add(-c.Age)) {
			rows = append(rows, c)
		}
	}
	slices.SortStableFunc(rows, func(x, y ConversationTurn) int { return cmp.Compare(x.Age, y.Age) })
	return rows
}

// conversations handles GET /v1/analytics/{projectId}/assistant: one row
// per user turn, newest first, with a ULID cursor, nextCursor and hasMore.
func (s *Server) conversations(q url.Values, now time.Time) *response {
	aq, errs := parseAnalytics(q, 100, 1000)
	errs = append(errs, readCursor(q, &aq, parseULIDCursor)...)
	if len(errs) > 0 {
		return invalidQuery(errs)
	}
	part, more := pageOf(s.turnsIn(aq, now), aq.offset, aq.limit)
	type source struct {
		Title string `json:"title"`
		URL   string `json:"url"`
	}
	type wire struct {
		ID               string   `json:"id"`
		Timestamp        string   `json:"timestamp"`
		Query            string   `json:"query"`
		Response         string   `json:"response"`
		ResponseType     string   `json:"responseType,omitempty"`
		Sources          []source `json:"sources"`
		ResolutionStatus string   `json:"resolutionStatus"`
		QueryCategory    *string  `json:"queryCategory"`
		PageURL          *string  `json:"pageUrl"`
	}
	out := struct {
		Conversations []wire  `json:"conversations"`
		NextCursor    *string `json:"nextCursor"`
		HasMore       bool    `json:"hasMore"`
	}{Conversations: make([]wire, len(part)), HasMore: more}
	for i, c := range part {
		w := wire{ID: c.ThreadID, Timestamp: stampText(now.Add(-c.Age)), Query: c.Query, Response: c.Response,
			Sources: []source{}, ResolutionStatus: "unanswered", QueryCategory: nullable(c.Category), PageURL: nullable(c.PageURL)}
		if c.Clarifying {
			w.ResponseType = "clarifying_question" // absent means answer, as the service documents
		}
		if c.Answered {
			w.ResolutionStatus = "answered"
		}
		for _, src := range c.Sources {
			w.Sources = append(w.Sources, source{src.Title, src.URL})
		}
		out.Conversations[i] = w
	}
	if more {
		out.NextCursor = nullable(ulidCursor(aq.offset + aq.limit))
	}
	return jsonResponse(http.StatusOK, out)
}

// thread handles GET /v1/analytics/{projectId}/assistant/threads/{threadId}:
// the turns of the thread, oldest first, as user and assistant messages.
func (s *Server) thread(id string, now time.Time) *response {
	if !isULID(id) {
		return errorResponse(http.StatusBadRequest, msgBadThreadID)
	}
	var turns []ConversationTurn
	for _, c := range s.cfg.analytics.Conversations {
		if strings.EqualFold(c.ThreadID, id) {
			turns = append(turns, c)
		}
	}
	if len(turns) == 0 {
		return errorResponse(http.StatusNotFound, msgNoAnalyticsThread)
	}
	slices.SortStableFunc(turns, func(x, y ConversationTurn) int { return cmp.Compare(y.Age, x.Age) })
	type msg struct {
		ID        string `json:"id"`
		Role      string `json:"role"`
		Content   string `json:"content"`
		CreatedAt string `json:"createdAt"`
	}
	out := struct {
		ThreadID  string `json:"threadId"`
		CreatedAt string `json:"createdAt"`
		Messages  []msg  `json:"messages"`
	}{ThreadID: turns[0].ThreadID, CreatedAt: stampText(now.Add(-turns[0].Age)), Messages: []msg{}}
	for i, t := range turns {
		at := now.Add(-t.Age)
		n := strconv.Itoa(2 * i)
		out.Messages = append(out.Messages,
			msg{"msg_" + n, "user", t.Query, stampText(at)},
			msg{"msg_" + strconv.Itoa(2*i+1), "assistant", t.Response, stampText(at.Add(5 * time.Second))})
	}
	return jsonResponse(http.StatusOK, out)
}

// callerStats handles GET /v1/analytics/{projectId}/assistant/caller-stats:
// the turns in the range counted by caller.
func (s *Server) callerStats(q url.Values, now time.Time) *response {
	dates := url.Values{} // the only parameters; others are ignored
	for _, k := range []string{"dateFrom", "dateTo"} {
		if v, ok := q[k]; ok {
			dates[k] = v
		}
	}
	aq, errs := parseAnalytics(dates, 0, 0)
	if len(errs) > 0 {
		return invalidQuery(errs)
	}
	var web, api, other int
	for _, c := range s.turnsIn(aq, now) {
		switch c.Caller {
		case "api":
			api++
		case "other":
			other++
		default:
			web++
		}
	}
	return jsonResponse(http.StatusOK, map[string]json.Number{
		"web": s.num(web), "api": s.num(api), "other": s.num(other), "total": s.num(web + api + other),
	})
}
