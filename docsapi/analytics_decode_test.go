package docsapi

import (
	"reflect"
	"testing"
	"time"
)

func TestDecodeViews(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		body    string
		want    *ViewsPage
		wantErr bool
	}{
		{name: "integers", body: `{"totals":{"human":10,"ai":5,"total":15},"views":[{"path":"/a","human":10,"ai":5,"total":15}],"hasMore":true}`,
			want: &ViewsPage{Totals: Counts{10, 5, 15}, Views: []PageViews{{"/a", Counts{10, 5, 15}}}, HasMore: true}},
		{name: "numbers as 12.0 and unknown fields", body: `{"totals":{"human":12.0,"ai":1e1,"total":22.0},"views":[{"path":"/a","human":12.0,"ai":10.0,"total":22.0,"x":1}],"hasMore":false,"extra":{}}`,
			want: &ViewsPage{Totals: Counts{12, 10, 22}, Views: []PageViews{{"/a", Counts{12, 10, 22}}}}},
		{name: "null views read as empty", body: `{"totals":{"human":0,"ai":0,"total":0},"views":null,"hasMore":false}`,
			want: &ViewsPage{Views: []PageViews{}}},
		{name: "missing hasMore", body: `{"totals":{"human":0,"ai":0,"total":0},"views":[]}`, wantErr: true},
		{name: "missing views", body: `{"totals":{"human":0,"ai":0,"total":0},"hasMore":false}`, wantErr: true},
		{name: "count not a number", body: `{"totals":{"human":"x","ai":0,"total":0},"views":[],"hasMore":false}`, wantErr: true},
		{name: "not JSON", body: `<html>`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeViews([]byte(tt.body))
			if (err != nil) != tt.wantErr {
				t.Fatalf("decodeViews error = %v, want error %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decodeViews = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDecodeSearches(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 11, 19, 8, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		body     string
		want     []SearchQuery
		total    Count
		info     pageInfo
		wantErr  bool
		noResult []bool
	}{
		{
			name: "documented shape, null cursor",
			body: `{"searches":[{"searchQuery":"sso","hits":41,"ctr":0,"topClickedPage":null,"lastSearchedAt":"2025-11-19T08:00:00Z"},
				{"searchQuery":"webhooks","hits":30.0,"ctr":0.42,"topClickedPage":"/guides/webhooks","lastSearchedAt":"2025-11-19 08:00:00"}],
				"totalSearches":71.0,"nextCursor":null}`,
			want: []SearchQuery{
				{Query: "sso", Hits: 41, LastSearchedAt: &at},
				{Query: "webhooks", Hits: 30, CTR: 0.42, TopClickedPage: "/guides/webhooks", LastSearchedAt: &at},
			},
			total:    71,
			noResult: []bool{true, false},
		},
		{
			name: "cursor means more; odd fields tolerated",
			body: `{"searches":[{"query":"saml","hits":2,"ctr":"0","lastSearchedAt":"yesterday"}],"totalSearches":2,"nextCursor":"c2"}`,
			want: []SearchQuery{{Query: "saml", Hits: 2}},
			// The whole answer's missing topClickedPage and the unreadable
			// date read as zero values.
			total:    2,
			info:     pageInfo{cursor: "c2", more: true},
			noResult: []bool{true},
		},
		{
			name: "hasMore false wins over a cursor",
			body: `{"searches":[],"totalSearches":0,"nextCursor":"c2","hasMore":false}`,
			want: []SearchQuery{},
		},
		{name: "hasMore true without cursor", body: `{"searches":[],"nextCursor":null,"hasMore":true}`, wantErr: true},
		{name: "no cursor and no hasMore is the last page", body: `{"searches":[]}`, want: []SearchQuery{}},
		{name: "missing list", body: `{"totalSearches":0,"nextCursor":null}`, wantErr: true},
		{name: "hits not a number", body: `{"searches":[{"searchQuery":"x","hits":"many"}],"nextCursor":null}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, info, err := decodeSearches([]byte(tt.body))
			if (err != nil) != tt.wantErr {
				t.Fatalf("decodeSearches error = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if !reflect.DeepEqual(got.Searches, tt.want) || got.TotalSearches != tt.total || info != tt.info || got.NextCursor != tt.info.cursor {
				t.Errorf("decodeSearches = %+v, %+v; want %+v total %d, %+v", got, info, tt.want, tt.total, tt.info)
			}
			for i, q := range got.Searches {
				if i < len(tt.noResult) && q.NoResultClicked() != tt.noResult[i] {
					t.Errorf("%q NoResultClicked = %v", q.Query, q.NoResultClicked())
				}
			}
		})
	}
}

func TestClickRate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ ctr, want float64 }{{0, 0}, {0.25, 0.25}, {1, 1}, {25, 0.25}, {100, 1}, {250, 1}, {-1, 0}} {
		if got := (SearchQuery{CTR: tt.ctr}).ClickRate(); got != tt.want {
			t.Errorf("ClickRate(%v) = %v, want %v", tt.ctr, got, tt.want)
		}
	}
}

func TestDecodeFeedback(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	created := time.Date(2025, 11, 18, 9, 30, 0, 0, time.UTC)
	body := `{"feedback":[
		{"id":"f1","path":"/guides/webhooks","comment":"useless","createdAt":"2025-11-18T09:30:00Z","source":"contextual","status":"pending","helpful":false,"contact":null},
		{"id":"f2","path":"/guides/webhooks","comment":null,"createdAt":null,"source":"code_snippet","status":"in_progress","code":"x()","filename":"verify.js","lang":null},
		{"id":"f3","path":"/quickstart","comment":"ok","source":"contextual","status":"resolved","vote":"up"},
		{"id":"f4","path":"/faq","source":"thumbs_only","status":"pending","helpful":"maybe"},
		{"id":"f5","path":"/x","source":"future_kind","status":"new_state","extra":[1]}
	],"nextCursor":"n1","hasMore":true}`
	page, info, err := decodeFeedback([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := []Feedback{
		{ID: "f1", Path: "/guides/webhooks", Comment: "useless", CreatedAt: &created, Source: SourceContextual, Status: FeedbackPending, Helpful: &no},
		{ID: "f2", Path: "/guides/webhooks", Source: SourceCodeSnippet, Status: FeedbackInProgress, Code: "x()", Filename: "verify.js"},
		{ID: "f3", Path: "/quickstart", Comment: "ok", Source: SourceContextual, Status: FeedbackResolved, Helpful: &yes},
		{ID: "f4", Path: "/faq", Source: SourceThumbsOnly, Status: FeedbackPending},
		{ID: "f5", Path: "/x", Source: "future_kind", Status: "new_state"},
	}
	if !reflect.DeepEqual(page.Feedback, want) || !page.HasMore || page.NextCursor != "n1" || info != (pageInfo{"n1", true}) {
		t.Errorf("decodeFeedback = %+v %+v", page, info)
	}
	if !page.Feedback[0].ThumbsDown() || page.Feedback[2].ThumbsDown() || page.Feedback[3].ThumbsDown() {
		t.Error("ThumbsDown wrong")
	}
	for _, bad := range []string{`{"nextCursor":null,"hasMore":false}`, `{"feedback":{},"hasMore":false}`, `{"feedback":[],"hasMore":true,"nextCursor":""}`} {
		if _, _, err := decodeFeedback([]byte(bad)); err == nil {
			t.Errorf("decodeFeedback(%s) succeeded", bad)
		}
	}
}

func TestDecodeFeedbackByPage(t *testing.T) {
	t.Parallel()
	got, err := decodeFeedbackByPage([]byte(`{"feedback":[{"path":"/guides/webhooks","thumbsUp":1,"thumbsDown":5.0,"code":1,"total":7}],"hasMore":true}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &FeedbackByPage{Pages: []PageFeedback{{Path: "/guides/webhooks", ThumbsUp: 1, ThumbsDown: 5, Code: 1, Total: 7}}, HasMore: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got, err := decodeFeedbackByPage([]byte(`{"feedback":null}`)); err != nil || got.HasMore || len(got.Pages) != 0 {
		t.Errorf("null list, no hasMore: %+v, %v", got, err)
	}
}

func TestDecodeConversations(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 11, 19, 10, 0, 0, 0, time.UTC)
	body := `{"conversations":[
		{"id":"01JDQ5","timestamp":"2025-11-19T10:00:00.000Z","query":"how do I export audit logs?","response":"I could not find that.","sources":[],"resolutionStatus":"unanswered","queryCategory":"Audit logs","pageUrl":null},
		{"id":"01JDQ6","timestamp":"2025-11-19T10:00:00Z","query":"webhooks?","response":"Which provider?","responseType":"clarifying_question","sources":[{"title":"Webhooks","url":"https://acme.mintlify.app/guides/webhooks"}],"resolutionStatus":"answered","queryCategory":null,"pageUrl":"https://acme.mintlify.app/"},
		{"id":"01JDQ7","query":"q","response":"a","sources":"broken"}
	],"nextCursor":null,"hasMore":false}`
	page, info, err := decodeConversations([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := []Conversation{
		{ThreadID: "01JDQ5", At: &at, Question: "how do I export audit logs?", Answer: "I could not find that.", ResponseType: ResponseAnswer,
			Sources: []ConversationSource{}, Resolution: Unanswered, Category: "Audit logs"},
		{ThreadID: "01JDQ6", At: &at, Question: "webhooks?", Answer: "Which provider?", ResponseType: ResponseClarify,
			Sources: []ConversationSource{{"Webhooks", "https://acme.mintlify.app/guides/webhooks"}}, Resolution: Answered, PageURL: "https://acme.mintlify.app/"},
		{ThreadID: "01JDQ7", Question: "q", Answer: "a", ResponseType: ResponseAnswer, Sources: []ConversationSource{}},
	}
	if !reflect.DeepEqual(page.Conversations, want) || page.HasMore || info.more {
		t.Errorf("decodeConversations = %+v", page)
	}
	if page.Conversations[0].IsAnswered() || !page.Conversations[1].IsAnswered() || !page.Conversations[2].IsAnswered() {
		t.Error("IsAnswered wrong")
	}
	// hasMore absent: the cursor decides.
	if _, info, err := decodeConversations([]byte(`{"conversations":[],"nextCursor":"01JDC0"}`)); err != nil || !info.more || info.cursor != "01JDC0" {
		t.Errorf("cursor without hasMore: %+v, %v", info, err)
	}
}

func TestDecodeThreadAndCallerStats(t *testing.T) {
	t.Parallel()
	th, err := decodeThread([]byte(`{"createdAt":"2025-11-19T10:00:00Z","messages":[{"id":"m1","role":"user","content":"hi","createdAt":"2025-11-19T10:00:00Z"},{"id":"m2","role":"assistant","content":null}]}`), "01JDQ5")
	if err != nil {
		t.Fatal(err)
	}
	if th.ID != "01JDQ5" || th.CreatedAt == nil || len(th.Messages) != 2 || th.Messages[1].Content != "" || th.Messages[1].CreatedAt != nil || th.Messages[0].Role != "user" {
		t.Errorf("decodeThread = %+v", th)
	}
	if _, err := decodeThread([]byte(`{"threadId":"x"}`), "x"); err == nil {
		t.Error("thread without messages decoded")
	}
	tests := []struct {
		body string
		want CallerStats
	}{
		{`{"web":10,"api":4.0,"other":1,"total":15}`, CallerStats{10, 4, 1, 15}},
		{`{"web":10,"api":4,"other":1}`, CallerStats{10, 4, 1, 15}},
		{`{"web":10,"api":4,"other":1,"total":16}`, CallerStats{10, 4, 1, 16}}, // the server's total stands
		{`{}`, CallerStats{}},
	}
	for _, tt := range tests {
		got, err := decodeCallerStats([]byte(tt.body))
		if err != nil || *got != tt.want {
			t.Errorf("decodeCallerStats(%s) = %+v, %v; want %+v", tt.body, got, err, tt.want)
		}
	}
}
