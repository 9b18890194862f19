package unfurl

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

// titleWait bounds the docs search for a page's title: past it, the unfurl
// shows the page's path alone.
const titleWait = 3 * time.Second

// title is the title of the page at path as the docs search gives it (the
// one part of the docs API that names pages: metadata.title), searched for
// by the path's words and taken from the result at that very path; "" when
// the project has no docs assistant, or the search fails or does not find
// the page. The search costs no analytics request.
func title(ctx context.Context, a *docsapi.Assistant, path string, log *slog.Logger) string {
	words := strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '-' || r == '_' || r == '.' })
	if a == nil || len(words) == 0 {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, titleWait)
	defer cancel()
	found, err := a.Search(ctx, docsapi.SearchParams{Query: strings.Join(words, " "), PageSize: 10})
	if err != nil {
		log.Info("the docs search for a page's title failed; its unfurl shows the path", "err", err)
		return ""
	}
	for _, r := range found {
		if "/"+strings.Trim(r.Path, "/") == path {
			return strings.TrimSpace(strings.ReplaceAll(r.Title, "*", ""))
		}
	}
	return ""
}
