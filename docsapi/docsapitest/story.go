package docsapitest

import (
	"fmt"
	"slices"
	"time"
)

// Analytics is what the analytics endpoints beyond the visitors export
// serve: search terms, feedback and assistant conversations. Each entry is
// dated by its age at the time of a request (the server clock minus Age), so
// the same story shows in the last days whatever the clock says. Page views
// are not part of it: they come from the [Dataset]'s visitors.
//
// [DefaultAnalytics] tells a story a docs-health report should find; tests
// build their own with [WithAnalytics].
type Analytics struct {
	Searches      []SearchStat
	Feedback      []FeedbackEntry
	Conversations []ConversationTurn
}

// SearchStat is a search term of the docs site.
type SearchStat struct {
	Query string
	Hits  int
	// CTR is the click-through rate as a fraction, served as is.
	CTR float64
	// TopClickedPage is served as null when "".
	TopClickedPage string
	// Age is how long before now it was last searched.
	Age time.Duration
}

// FeedbackEntry is a piece of reader feedback.
type FeedbackEntry struct {
	// ID is served as is; "" is given "fb_" and the entry's number.
	ID   string
	Path string
	// Source is contextual, code_snippet, agent or thumbs_only.
	Source string
	// Status is pending, in_progress, resolved or dismissed; "" is pending.
	Status string
	// Vote is +1 for 👍 and -1 for 👎 (contextual and thumbs_only).
	Vote    int
	Comment string // served as null when ""
	Contact string // contextual: served as null when ""
	// Code, Filename and Lang are the code block of a code_snippet report.
	Code, Filename, Lang string
	Age                  time.Duration
}

// ConversationTurn is one user turn with the assistant. Turns with the same
// ThreadID are one conversation.
type ConversationTurn struct {
	ThreadID string // a ULID
	Query    string
	Response string
	// Clarifying marks a response that asks a question back.
	Clarifying bool
	Answered   bool
	Category   string // served as null when ""
	PageURL    string // served as null when ""
	Sources    []TurnSource
	// Caller is web, api or other, for the caller stats; "" is web.
	Caller string
	Age    time.Duration
}

// TurnSource is a page an answer cited.
type TurnSource struct{ Title, URL string }

// clone returns a deep copy, so that the server's story cannot change
// under it.
func (a *Analytics) clone() *Analytics {
	out := &Analytics{
		Searches:      slices.Clone(a.Searches),
		Feedback:      slices.Clone(a.Feedback),
		Conversations: slices.Clone(a.Conversations),
	}
	for i := range out.Conversations {
		out.Conversations[i].Sources = slices.Clone(out.Conversations[i].Sources)
	}
	for i := range out.Feedback {
		if out.Feedback[i].ID == "" {
			out.Feedback[i].ID = fmt.Sprintf("fb_%04d", i+1)
		}
		if out.Feedback[i].Status == "" {
			out.Feedback[i].Status = "pending"
		}
	}
	return out
}

// ThreadID returns the n-th thread id of the default story: a ULID.
func ThreadID(n int) string { return fmt.Sprintf("01JDQ5%020d", n) }

const oneDay = 24 * time.Hour

// DefaultAnalytics returns the default story, the same on every call:
//
//   - searches for "sso" and "saml" that nobody clicks a result of (ctr 0,
//     no top clicked page), among a long tail of ordinary terms;
//   - the page /guides/webhooks with several 👎 and angry comments and a
//     code-snippet report of a wrong signature sample (verify-signature.js),
//     while other pages get 👍;
//   - unanswered assistant questions about audit logs (category
//     "Audit logs") and SSO, beside answered ones, one of them a
//     conversation of two turns that began with a clarifying question.
func DefaultAnalytics() *Analytics {
	a := &Analytics{}
	site := "https://" + DefaultDomain + ".mintlify.app"

	a.Searches = []SearchStat{
		{Query: "webhooks", Hits: 120, CTR: 0.61, TopClickedPage: "/guides/webhooks", Age: 2 * time.Hour},
		{Query: "sso", Hits: 41, CTR: 0, Age: 5 * time.Hour},
		{Query: "api key", Hits: 38, CTR: 0.55, TopClickedPage: "/api-reference/authentication", Age: 3 * time.Hour},
		{Query: "saml", Hits: 23, CTR: 0, Age: oneDay + 4*time.Hour},
		{Query: "rate limit", Hits: 19, CTR: 0.47, TopClickedPage: "/api-reference/rate-limits", Age: 2 * oneDay},
		{Query: "audit logs", Hits: 17, CTR: 0.06, TopClickedPage: "/security", Age: 6 * time.Hour},
	}
	for i, topic := range pathTopics() {
		if topic == "sso" || topic == "webhooks" {
			continue
		}
		r := hash(tagSearch, uint64(i))
		a.Searches = append(a.Searches, SearchStat{
			Query:          topic,
			Hits:           max(15-i/3, 1),
			CTR:            float64(20+r%60) / 100,
			TopClickedPage: "/" + pathSections()[r%uint64(len(pathSections()))] + "/" + topic,
			Age:            time.Duration(1+r%27)*oneDay + time.Duration(r%23)*time.Hour,
		})
	}

	a.Feedback = []FeedbackEntry{
		{Path: "/guides/webhooks", Source: "contextual", Vote: -1, Comment: "The signature example doesn't work at all. Wasted two hours on this.", Age: 20 * time.Hour},
		{Path: "/guides/webhooks", Source: "code_snippet", Comment: "This sample signs with SHA-1 but the header is SHA-256, so verification always fails.",
			Code:     "const sig = crypto.createHmac('sha1', secret).update(body).digest('hex');",
			Filename: "verify-signature.js", Lang: "javascript", Age: oneDay + 2*time.Hour},
		{Path: "/guides/webhooks", Source: "contextual", Vote: -1, Comment: "Retries are not documented. What happens when my endpoint is down?!", Age: 2 * oneDay},
		{Path: "/guides/webhooks", Source: "contextual", Vote: -1, Comment: "Useless. The payload fields on this page are wrong.", Contact: "dev@example.com", Age: 3 * oneDay},
		{Path: "/guides/webhooks", Source: "contextual", Vote: -1, Age: 4 * oneDay},
		{Path: "/guides/webhooks", Source: "contextual", Vote: 1, Status: "resolved", Age: 9 * oneDay},
		{Path: "/quickstart", Source: "contextual", Vote: 1, Comment: "Clear and quick.", Status: "resolved", Age: 5 * oneDay},
		{Path: "/api-reference/authentication", Source: "contextual", Vote: -1, Comment: "Which header does the key go in?", Status: "in_progress", Age: 8 * oneDay},
		{Path: "/faq", Source: "agent", Comment: "The agent suggested a setting that does not exist.", Status: "dismissed", Age: 12 * oneDay},
		{Path: "/introduction", Source: "thumbs_only", Vote: 1, Age: 3 * oneDay},
	}
	for i, p := range curatedPaths()[:12] {
		r := hash(tagFeedback, uint64(i))
		a.Feedback = append(a.Feedback, FeedbackEntry{Path: p, Source: "contextual", Vote: 1, Status: "resolved",
			Age: time.Duration(1+r%25)*oneDay + time.Duration(r%19)*time.Hour})
	}

	src := func(title, path string) TurnSource { return TurnSource{Title: title, URL: site + path} }
	const noAudit = "I couldn't find anything about audit logs in the documentation. You may want to contact support."
	a.Conversations = []ConversationTurn{
		{ThreadID: ThreadID(1), Query: "How do I export audit logs?", Response: noAudit, Category: "Audit logs", PageURL: site + "/security", Age: 3 * time.Hour},
		{ThreadID: ThreadID(2), Query: "Is there an API for audit logs?", Response: noAudit, Category: "Audit logs", Caller: "api", Age: 9 * time.Hour},
		{ThreadID: ThreadID(3), Query: "How long are audit logs kept?", Response: noAudit, Category: "Audit logs", PageURL: site + "/faq", Age: oneDay + 5*time.Hour},
		{ThreadID: ThreadID(4), Query: "Where can I see who changed a page?", Response: noAudit, Category: "Audit logs", Age: 3 * oneDay},
		{ThreadID: ThreadID(5), Query: "Do you support SAML SSO with Okta?", Response: "I couldn't find information about SAML or SSO.", Category: "Authentication", PageURL: site + "/", Age: 2 * oneDay},
		{ThreadID: ThreadID(6), Query: "How do I verify a webhook?", Response: "Which language does your endpoint use?", Clarifying: true, Answered: true, Category: "Webhooks", PageURL: site + "/guides/webhooks", Age: 26 * time.Hour},
		{ThreadID: ThreadID(6), Query: "Node.js", Response: "Compute an HMAC of the raw body with your secret and compare it with the signature header.", Answered: true, Category: "Webhooks",
			PageURL: site + "/guides/webhooks", Sources: []TurnSource{src("Webhooks", "/guides/webhooks")}, Age: 26*time.Hour - 2*time.Minute},
		{ThreadID: ThreadID(7), Query: "How do I get an API key?", Response: "Create one on the API keys page of the dashboard.", Answered: true, Category: "API",
			Sources: []TurnSource{src("Authentication", "/api-reference/authentication")}, Caller: "other", Age: 4 * oneDay},
		{ThreadID: ThreadID(8), Query: "How do I start?", Response: "Follow the quickstart.", Answered: true, Category: "Getting started",
			PageURL: site + "/", Sources: []TurnSource{src("Quickstart", "/quickstart")}, Age: 6 * oneDay},
	}
	for i, topic := range pathTopics()[:12] {
		r := hash(tagConversation, uint64(i))
		a.Conversations = append(a.Conversations, ConversationTurn{
			ThreadID: ThreadID(100 + i), Query: "How do I set up " + topic + "?", Response: "See the " + topic + " guide.", Answered: true,
			Category: "Setup", Sources: []TurnSource{src(topic, "/guides/"+topic)}, Caller: []string{"web", "web", "api", "other"}[r%4],
			Age: time.Duration(1+r%20)*oneDay + time.Duration(r%17)*time.Hour,
		})
	}
	return a
}
