package bottest_test

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestParallelOption checks Main's Parallel: this package's TestMain asks
// for 8 tests at once, which -parallel, when given, overrides.
func TestParallelOption(t *testing.T) {
	t.Parallel()
	// flag.Visit cannot tell: TestMain set the flag too.
	if slices.ContainsFunc(os.Args[1:], func(a string) bool { return strings.HasPrefix(strings.TrimLeft(a, "-"), "test.parallel") }) {
		t.Skip("-parallel was given, and wins")
	}
	if got := flag.Lookup("test.parallel").Value.String(); got != "8" {
		t.Errorf("-parallel is %s, want the 8 TestMain asked for", got)
	}
}
