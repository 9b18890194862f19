package main

import "runtime/debug"

// defaultGOGC is the garbage collector's target when GOGC is not set. A
// replica's live heap is a few megabytes; Go's default (100) lets the heap
// grow to twice that between collections, 50 to one and a half times,
// which keeps a replica's resident memory under 25 MB for about 3 % more CPU
// (collections take about 3 % of a replica's CPU under load; BENCHMARKS.md,
// "At the floor"). GOGC in the environment (not .env, which the Go runtime
// does not read) still decides.
const defaultGOGC = 50

// setGCTarget applies defaultGOGC unless GOGC is set.
func setGCTarget(lookupEnv func(string) (string, bool)) {
	if _, set := lookupEnv("GOGC"); !set {
		debug.SetGCPercent(defaultGOGC)
	}
}
