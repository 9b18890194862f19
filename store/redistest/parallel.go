package redistest

import (
	"flag"
	"fmt"
	"os"
	"strconv"
)

// Parallel sets how many of a test package's parallel tests run at once to
// n, instead of one a core (go test's default), unless go test was given
// -parallel. Call it from TestMain, before m.Run. It is for packages whose
// tests spend their time waiting on the servers and processes they start
// (a Sentinel's failover, a bot's shutdown, a replica's work lease), not
// computing; like Until, it needs nothing of Redis.
func Parallel(n int) {
	// TestMain runs before testing reads its flags: parse them, to tell
	// whether -parallel was given.
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if given {
		return
	}
	if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
		fmt.Fprintln(os.Stderr, "redistest: setting -parallel:", err)
	}
}
