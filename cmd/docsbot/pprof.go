package main

import (
	"net/http"
	"net/http/pprof"
)

// envPprofAddr, when set, is the address of a listener of its own serving
// Go's profiles (net/http/pprof under /debug/pprof/), for measuring the bot
// (BENCHMARKS.md). It is off by default and meant for loopback only: the
// profiles show the bot's internals and a CPU profile costs CPU while it
// runs. It is read by `serve` only and is not part of the configuration
// table, as no deployment should set it.
const envPprofAddr = "DOCSBOT_PPROF_ADDR"

// pprofHandler serves the profiles net/http/pprof serves, on a mux of its
// own rather than http.DefaultServeMux.
func pprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	return mux
}
