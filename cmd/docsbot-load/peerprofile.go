package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// peerProfileEnv names the file a peer bot of the acks scenario (the bare
// or the same-work bot) writes its CPU profile to, over its whole run, as
// `acks --peer-env` sets it: the profile to read beside docsbot's
// (DOCSBOT_PPROF_ADDR), BENCHMARKS.md "Where the CPU goes".
const peerProfileEnv = "DOCSBOT_LOAD_CPU_PROFILE"

// profilePeer starts the CPU profile peerProfileEnv asks for, if any, and
// returns what stops it; a profile that cannot be written is said on
// stderr and skipped.
func profilePeer(stderr io.Writer) (stop func()) {
	path := os.Getenv(peerProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
		if err != nil {
			_ = f.Close()
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "peer bot: no CPU profile:", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(stderr, "peer bot: CPU profile:", err)
		}
	}
}
