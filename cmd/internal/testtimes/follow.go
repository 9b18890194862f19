package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// event is one line of `go test -json` (test2json's TestEvent, and the
// build events of `go test -json`).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output and build-fail
	Test       string
	Elapsed    float64 // seconds
	Output     string
}

// timing is how long a package's test binary or a top-level test ran.
type timing struct {
	Name    string // the package, or "package TestName"
	Elapsed time.Duration
	Failed  bool
}

// times is what follow gathered.
type times struct {
	packages, tests []timing
}

// follow reads the events on r, writes to w what plain `go test` prints,
// and returns the elapsed times of packages and top-level tests. A test's
// output is kept until it ends and printed only if it failed; a package's
// own output (its ok/FAIL line, a panic outside any test) and build output
// are printed as they come.
func follow(r io.Reader, w io.Writer) (times, error) {
	var t times
	held := map[string]*bytes.Buffer{} // the output of running tests, by package and name
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			io.WriteString(w, e.Output)
		case e.Test == "" && e.Action == "output":
			// -json runs the tests verbosely: plain go test prints no
			// PASS line of its own for a package.
			if e.Output != "PASS\n" {
				io.WriteString(w, e.Output)
			}
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail"):
			t.packages = append(t.packages, timing{Name: e.Package, Elapsed: seconds(e.Elapsed), Failed: e.Action == "fail"})
		case e.Test == "":
		case e.Action == "output":
			b := held[key]
			if b == nil {
				b = &bytes.Buffer{}
				held[key] = b
			}
			b.WriteString(e.Output)
		case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
			failed := e.Action == "fail"
			if b := held[key]; b != nil {
				// A subtest's output is part of its parent's, which
				// prints it when it fails.
				if failed && !strings.Contains(e.Test, "/") {
					writeReport(w, b.String())
				} else if parent, _, ok := strings.Cut(e.Test, "/"); ok && failed {
					pb := held[e.Package+" "+parent]
					if pb == nil {
						pb = &bytes.Buffer{}
						held[e.Package+" "+parent] = pb
					}
					pb.Write(b.Bytes())
				}
				delete(held, key)
			}
			if !strings.Contains(e.Test, "/") && e.Action != "skip" {
				t.tests = append(t.tests, timing{Name: e.Package + " " + e.Test, Elapsed: seconds(e.Elapsed), Failed: failed})
			}
		}
	}
	return t, sc.Err()
}

// writeReport writes a failed test's output without the lines -json adds
// to what plain `go test` prints (=== RUN, PAUSE, CONT, NAME).
func writeReport(w io.Writer, out string) {
	for _, line := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(strings.TrimLeft(line, " "), "=== ") {
			io.WriteString(w, line)
		}
	}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// print writes the n slowest packages and tests, slowest first.
func (t times) print(w io.Writer, n int) {
	for _, list := range []struct {
		title string
		rows  []timing
	}{{"slowest packages", t.packages}, {"slowest tests", t.tests}} {
		if len(list.rows) == 0 || n <= 0 {
			continue
		}
		rows := slices.Clone(list.rows)
		slices.SortStableFunc(rows, func(a, b timing) int { return int(b.Elapsed - a.Elapsed) })
		fmt.Fprintf(w, "\n%s:\n", list.title)
		for _, r := range rows[:min(n, len(rows))] {
			mark := ""
			if r.Failed {
				mark = "  FAIL"
			}
			fmt.Fprintf(w, "%8.2fs  %s%s\n", r.Elapsed.Seconds(), r.Name, mark)
		}
	}
}
