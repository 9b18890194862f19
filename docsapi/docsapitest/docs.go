package docsapitest

import (
	"slices"
	"strings"
	"unicode"
)

// DocPage is a page of the made-up docs site the assistant, search and page
// endpoints answer from.
type DocPage struct {
	// Path is the page's path, such as "/quickstart".
	Path string
	// Title and Description go into a search result's metadata.
	Title, Description string
	// Content is the page's text. Its first sentence is what an answer
	// quotes.
	Content string
	// Keywords are words a reader asks about the page with that its text
	// may not use, such as "login" or "SSO" for the authentication page:
	// a question with one of them finds the page first.
	Keywords []string
}

// DefaultDocs returns the docs every server starts with unless [WithDocs]
// replaces them: a handful of pages of a made-up product, Acme.
func DefaultDocs() []DocPage {
	return []DocPage{
		{Path: "/quickstart", Title: "Quickstart", Description: "Get Acme running in five minutes.",
			Content: "Install the Acme CLI with npm, run acme init in your project and start the dev server with acme dev. The quickstart takes about five minutes."},
		{Path: "/installation", Title: "Installation", Description: "Install the Acme CLI.",
			Content: "Install the Acme CLI globally with npm install -g acme, or with Homebrew using brew install acme. Node.js 20 or later is required."},
		{Path: "/authentication", Title: "Authentication", Description: "API keys and tokens.",
			Content:  "Every API request needs an API key sent in the Authorization header as a Bearer token. Create keys on the dashboard's API keys page and rotate them every 90 days.",
			Keywords: []string{"auth", "authenticate", "authenticated", "authorize", "authorization", "login", "sign", "signin", "sso", "saml", "oauth", "token", "credential", "password"}},
		{Path: "/api-reference/rate-limits", Title: "Rate limits", Description: "How many requests you may send.",
			Content:  "The API allows 100 requests per hour per project. A request over the limit is answered 429 with a Retry-After header saying how many seconds to wait.",
			Keywords: []string{"limit", "quota", "throttle", "throttled", "429"}},
		{Path: "/guides/webhooks", Title: "Webhooks", Description: "Get notified of events.",
			Content:  "Webhooks send a signed POST request to your endpoint when a deployment finishes. Verify the signature header with your webhook secret before trusting the payload.",
			Keywords: []string{"event", "notification", "callback", "signature"}},
		{Path: "/guides/custom-domains", Title: "Custom domains", Description: "Serve your docs on your own domain.",
			Content:  "To use a custom domain, add a CNAME record pointing to cname.acme.dev and enter the domain in the dashboard settings. TLS certificates are issued automatically.",
			Keywords: []string{"dns", "cname", "domain", "tls", "ssl", "https", "certificate"}},
	}
}

// stopWords are left out of a search.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "can": true, "do": true, "does": true, "for": true,
	"how": true, "i": true, "in": true, "is": true, "it": true, "my": true, "of": true, "on": true,
	"the": true, "to": true, "what": true, "with": true, "you": true, "your": true, "me": true, "about": true,
	"get": true, "set": true, "use": true,
}

// stem drops a plural or tense ending, so that "started" finds "start"
// and "webhooks" "webhook".
func stem(w string) string {
	for _, suffix := range []string{"ing", "ed", "es", "s"} {
		if len(w) > len(suffix)+2 && strings.HasSuffix(w, suffix) {
			return w[:len(w)-len(suffix)]
		}
	}
	return w
}

// words splits text into lowercase words, without stop words.
func words(text string) []string {
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	out := f[:0]
	for _, w := range f {
		if !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// searchDocs returns up to n pages matching query, best first: a word among
// the keywords scores 4, in the title or path 3, in the description 2, each
// use in the content 1
// (words match when equal or equal without an ending; see stem).
// Ties go by path. Pages scoring nothing are left out.
func searchDocs(docs []DocPage, query string, n int) []DocPage {
	type hit struct {
		page  DocPage
		score int
	}
	var hits []hit
	for _, p := range docs {
		title, desc, content := words(p.Title+" "+p.Path), words(p.Description), words(p.Content)
		keywords := words(strings.Join(p.Keywords, " "))
		score := 0
		for _, w := range words(query) {
			ws := stem(w)
			match := func(x string) bool { return x == w || stem(x) == ws }
			if slices.ContainsFunc(keywords, match) {
				score += 4
			}
			if slices.ContainsFunc(title, match) {
				score += 3
			}
			if slices.ContainsFunc(desc, match) {
				score += 2
			}
			for _, c := range content {
				if match(c) {
					score++
				}
			}
		}
		if score > 0 {
			hits = append(hits, hit{p, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return strings.Compare(a.page.Path, b.page.Path)
	})
	out := make([]DocPage, 0, min(n, len(hits)))
	for i := 0; i < len(hits) && i < n; i++ {
		out = append(out, hits[i].page)
	}
	return out
}

// firstSentence is the text up to and including its first full stop.
func firstSentence(text string) string {
	if i := strings.Index(text, ". "); i >= 0 {
		return text[:i+1]
	}
	return text
}
