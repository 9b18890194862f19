package main

import (
	"net/http"
	"runtime/pprof"
	"strconv"
	"time"
)

// envPprofAddr, when set, is the address of a listener of its own serving
// Go's profiles, for measuring the bot (BENCHMARKS.md): GET
// /debug/pprof/profile?seconds=N (CPU, default 30 s) and /debug/pprof/NAME
// for runtime/pprof's named profiles (heap, allocs, goroutine, ...), in the
// format `go tool pprof` reads. It is off by default and meant for loopback
// only: the profiles show the bot's internals and a CPU profile costs CPU
// while it runs. It is read by `serve` only and is not part of the
// configuration table, as no deployment should set it. It is built on
// runtime/pprof rather than net/http/pprof, whose HTML index would link
// html/template into every binary.
const envPprofAddr = "DOCSBOT_PPROF_ADDR"

// maxCPUProfile bounds the length of one CPU profile.
const maxCPUProfile = 10 * time.Minute

// pprofHandler serves the profiles.
func pprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /debug/pprof/profile", func(w http.ResponseWriter, r *http.Request) {
		d := 30 * time.Second
		if s, err := strconv.Atoi(r.URL.Query().Get("seconds")); err == nil && s > 0 {
			d = min(time.Duration(s)*time.Second, maxCPUProfile)
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		if err := pprof.StartCPUProfile(w); err != nil {
			http.Error(w, "cannot profile: "+err.Error(), http.StatusConflict)
			return
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
		}
		pprof.StopCPUProfile()
	})
	mux.HandleFunc("GET /debug/pprof/{name}", func(w http.ResponseWriter, r *http.Request) {
		p := pprof.Lookup(r.PathValue("name"))
		if p == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		_ = p.WriteTo(w, 0)
	})
	return mux
}
