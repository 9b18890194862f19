// Package ops is what a replica's operators read: the ops endpoint
// (/healthz, /readyz, /metrics: Handler, with Readiness and NewRegistry),
// the listener that serves it and, in HTTP mode, Slack's request URLs
// (Listen), and the process logger (NewLogger), whose RepeatFilter holds back
// the same warning repeated during an outage. It knows nothing of the bot:
// cmd/docsbot and the sandbox hand it what to check and what to serve.
package ops

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Readiness says whether a replica can take work: its Slack socket is up,
// or in HTTP mode it serves Slack's requests (bot.Bot.Connected), and Redis
// answers (store.Store.Ping).
type Readiness struct {
	SlackConnected func() bool
	// SlackDown is what /readyz says when SlackConnected is false
	// (default "slack socket not connected").
	SlackDown string
	PingRedis func(context.Context) error
}

// Handler serves /healthz (the process is alive), /readyz (Slack socket
// connected, or in HTTP mode the bot serving, and Redis reachable) and /metrics (Prometheus, from reg).
func Handler(reg *prometheus.Registry, ready Readiness) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		var problems []string
		if !ready.SlackConnected() {
			problems = append(problems, cmp.Or(ready.SlackDown, "slack socket not connected"))
		}
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		defer cancel()
		if err := ready.PingRedis(ctx); err != nil {
			problems = append(problems, "redis unreachable")
		}
		if len(problems) > 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			for _, p := range problems {
				_, _ = w.Write([]byte(p + "\n"))
			}
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	return mux
}

// NewRegistry is a process's metrics registry, with Go and process metrics.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Listen listens on addr and serves h until ctx ends or stop is called. It
// returns once the listener is open, so that a bad address fails the start.
// what names what h serves in the log ("/healthz, /readyz and /metrics",
// Slack's request URLs). A replica has one or two such listeners: the ops
// endpoint (Handler) alone, or beside Slack's request URLs in HTTP mode
// (bot.WithSlackHandler), or the two apart (bot.Bot.SlackHandler on one
// address, Handler on another, so that what faces Slack serves nothing else).
func Listen(ctx context.Context, addr string, h http.Handler, log *slog.Logger, what string) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	// A request (Slack's, in HTTP mode, through a load balancer) is read
	// within ReadTimeout, so a slow client cannot hold a connection open.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("HTTP server stopped", "serving", what, "err", err)
		}
	}()
	log.Info("serving "+what, "addr", ln.Addr().String())
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-done
	}, nil
}

// repeatInterval is how long an identical warning or error is held back
// after it was logged: an outage logs a line per interval, with a count.
const repeatInterval = 30 * time.Second

// NewLogger builds a process logger at level: text for people, json for log
// systems; identical warnings and errors are held back (RepeatFilter).
func NewLogger(w io.Writer, format string, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(NewRepeatFilter(h, repeatInterval))
}
