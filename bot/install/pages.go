package install

import (
	"html"
	"net/http"
)

// The pages a browser sees during an install. Names from Slack (the
// workspace's) and Slack's error codes are escaped (html.EscapeString)
// wherever they appear, in text or in an attribute. The pages are written
// without html/template on purpose: a template reachable from the binary
// keeps every exported method of every type in it (BENCHMARKS.md, "A
// smaller binary").
var (
	pageInstalled = func(d pageData) string {
		return `<h1>docsbot was added to ` + html.EscapeString(d.Workspace) + `</h1>
<p>Check your direct messages in Slack: docsbot says what to do next.</p>
<p><a href="` + html.EscapeString(d.Open) + `">Open docsbot in Slack</a></p>`
	}
	pageCancelled = func(pageData) string {
		return `<h1>The install was cancelled</h1>
<p>Nothing was saved and docsbot was not added. <a href="` + PathInstall + `">Add to Slack</a> to start again.</p>`
	}
	pageBadState = func(pageData) string {
		return `<h1>This install link cannot be used</h1>
<p>It was used already, is older than ten minutes, or was opened in another browser. Nothing was saved.
<a href="` + PathInstall + `">Add to Slack</a> to start again.</p>`
	}
	pageNotAllowed = func(d pageData) string {
		return `<h1>docsbot cannot be added to ` + html.EscapeString(d.Workspace) + `</h1>
<p>This docsbot serves only the workspaces its operator chose. Nothing was saved, and the access
Slack gave was handed back. Ask whoever runs docsbot to add your workspace.</p>`
	}
	pageFailed = func(d pageData) string {
		code := ""
		if d.Code != "" {
			code = " (" + html.EscapeString(d.Code) + ")"
		}
		return `<h1>docsbot could not be added</h1>
<p>Slack did not complete the install` + code + `, or it could not be saved. Nothing was changed.
<a href="` + PathInstall + `">Add to Slack</a> to try again.</p>`
	}
)

// pageData is what the pages show.
type pageData struct {
	Workspace, Open, Code string
}

// pageHead and pageTail wrap every page's body.
const (
	pageHead = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>docsbot</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style>
</head><body>`
	pageTail = `</body></html>`
)

// page answers with body's page of d.
func page(w http.ResponseWriter, status int, body func(pageData) string, d pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(pageHead + body(d) + pageTail))
}
