package install

import (
	"html/template"
	"net/http"
)

// The pages a browser sees during an install. Names from Slack (the
// workspace's) are escaped by html/template.
var (
	pageInstalled = pageTemplate(`<h1>docsbot was added to {{.Workspace}}</h1>
<p>Check your direct messages in Slack: docsbot says what to do next.</p>
<p><a href="{{.Open}}">Open docsbot in Slack</a></p>`)
	pageCancelled = pageTemplate(`<h1>The install was cancelled</h1>
<p>Nothing was saved and docsbot was not added. <a href="` + PathInstall + `">Add to Slack</a> to start again.</p>`)
	pageBadState = pageTemplate(`<h1>This install link cannot be used</h1>
<p>It was used already, is older than ten minutes, or was opened in another browser. Nothing was saved.
<a href="` + PathInstall + `">Add to Slack</a> to start again.</p>`)
	pageNotAllowed = pageTemplate(`<h1>docsbot cannot be added to {{.Workspace}}</h1>
<p>This docsbot serves only the workspaces its operator chose. Nothing was saved, and the access
Slack gave was handed back. Ask whoever runs docsbot to add your workspace.</p>`)
	pageFailed = pageTemplate(`<h1>docsbot could not be added</h1>
<p>Slack did not complete the install{{if .Code}} ({{.Code}}){{end}}, or it could not be saved. Nothing was changed.
<a href="` + PathInstall + `">Add to Slack</a> to try again.</p>`)
)

// pageData is what the pages show.
type pageData struct {
	Workspace, Open, Code string
}

func pageTemplate(body string) *template.Template {
	return template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>docsbot</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style>
</head><body>` + body + `</body></html>`))
}

// page answers with t.
func page(w http.ResponseWriter, status int, t *template.Template, d pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_ = t.Execute(w, d)
}
