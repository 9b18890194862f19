package main

import (
	"net/http"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/settings"
)

// envPprofAddr, when set, is the address of a listener of its own serving
// Go's profiles, for measuring the bot (BENCHMARKS.md): GET
// /debug/pprof/profile?seconds=N (CPU, default 30 s) and /debug/pprof/NAME
// for runtime/pprof's named profiles (heap, allocs, goroutine, ...), in the
// format `go tool pprof` reads. It is off by default and listens on loopback
// only (pprofAddr refuses any other host at start): the profiles show the
// bot's internals and a CPU profile costs CPU while it runs. It is read by `serve` only and is not part of the
// configuration table, as no deployment should set it. It is built on
// runtime/pprof rather than net/http/pprof, whose HTML index would link
// html/template into every binary.
const envPprofAddr = "DOCSBOT_PPROF_ADDR"

// pprofAddr is DOCSBOT_PPROF_ADDR as lookupEnv finds it, "" when unset; an
// address whose host is not loopback (":6060", "0.0.0.0:6060", a host name)
// is a usage error saying why and what to write.
func pprofAddr(lookupEnv func(string) (string, bool)) (string, error) {
	addr, _ := lookupEnv(envPprofAddr)
	if addr == "" {
		return "", nil
	}
	if problem := settings.LoopbackAddr(addr, strconv.Quote); problem != "" {
		return "", cli.Usage(envPprofAddr+problem, "or leave "+envPprofAddr+" unset: no deployment needs it")
	}
	return addr, nil
}

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
