package slackweb

import (
	"embed"
	"net/http"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// assets are the page's files, served as they are.
//
//go:embed index.html app.css app.js
var assets embed.FS

// contentSecurityPolicy lets the page load only its own script, style, data
// and images: it fetches nothing from other sites (an image block pointing
// elsewhere is shown as its description; files the bot uploads are served
// by the page itself).
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the page and its JSON and event endpoints for one
// slacktest.Server. Create it with New; it is safe for concurrent use.
type Handler struct {
	srv *slacktest.Server
	cfg config
	mux *http.ServeMux
}

// New returns a Handler showing srv.
func New(srv *slacktest.Server, opts ...Option) *Handler {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	h := &Handler{srv: srv, cfg: cfg, mux: http.NewServeMux()}
	h.mux.HandleFunc("GET /{$}", h.asset("index.html", "text/html; charset=utf-8"))
	h.mux.HandleFunc("GET /app.css", h.asset("app.css", "text/css; charset=utf-8"))
	h.mux.HandleFunc("GET /app.js", h.asset("app.js", "text/javascript; charset=utf-8"))
	h.api("GET /api/state", h.serveState)
	h.api("POST /api/send", h.serveSend)
	h.api("GET /api/events", h.serveEvents)
	h.api("GET /api/files/{id}", h.serveFile)
	h.api("POST /api/action", h.serveAction)
	h.api("POST /api/shortcut", h.serveShortcut)
	h.api("POST /api/react", h.serveReact)
	h.api("POST /api/view/submit", h.serveSubmit)
	h.api("POST /api/view/close", h.serveClose)
	h.api("POST /api/home", h.serveHome)
	h.api("POST /api/dm", h.serveDM)
	h.api("POST /api/assistant", h.serveAssistant)
	return h
}

// api serves pattern with fn for the person the request acts for (see
// ActingHeader), refusing a request for anyone else.
func (h *Handler) api(pattern string, fn http.HandlerFunc) {
	h.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) { h.withActing(w, r, fn) })
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", contentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	h.mux.ServeHTTP(w, r)
}

// asset serves one embedded file.
func (h *Handler) asset(name, contentType string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := assets.ReadFile(name)
		if err != nil {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(b)
	}
}
