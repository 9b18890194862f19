package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestFollow checks what follow prints of a `go test -json` stream, as plain
// `go test` prints it, and the times it gathers.
func TestFollow(t *testing.T) {
	t.Parallel()
	const stream = `{"Action":"start","Package":"ex/a"}
{"Action":"run","Package":"ex/a","Test":"TestQuick"}
{"Action":"output","Package":"ex/a","Test":"TestQuick","Output":"=== RUN   TestQuick\n"}
{"Action":"output","Package":"ex/a","Test":"TestQuick","Output":"    quick_test.go:9: a log of a passing test\n"}
{"Action":"output","Package":"ex/a","Test":"TestQuick","Output":"--- PASS: TestQuick (0.50s)\n"}
{"Action":"pass","Package":"ex/a","Test":"TestQuick","Elapsed":0.5}
{"Action":"run","Package":"ex/a","Test":"TestSlow"}
{"Action":"output","Package":"ex/a","Test":"TestSlow","Output":"=== RUN   TestSlow\n"}
{"Action":"run","Package":"ex/a","Test":"TestSlow/ok"}
{"Action":"output","Package":"ex/a","Test":"TestSlow/ok","Output":"    --- PASS: TestSlow/ok (1.00s)\n"}
{"Action":"pass","Package":"ex/a","Test":"TestSlow/ok","Elapsed":1}
{"Action":"run","Package":"ex/a","Test":"TestSlow/broken"}
{"Action":"output","Package":"ex/a","Test":"TestSlow/broken","Output":"=== RUN   TestSlow/broken\n"}
{"Action":"output","Package":"ex/a","Test":"TestSlow/broken","Output":"    slow_test.go:20: want 2, got 3\n"}
{"Action":"output","Package":"ex/a","Test":"TestSlow/broken","Output":"    --- FAIL: TestSlow/broken (2.00s)\n"}
{"Action":"fail","Package":"ex/a","Test":"TestSlow/broken","Elapsed":2}
{"Action":"output","Package":"ex/a","Test":"TestSlow","Output":"--- FAIL: TestSlow (3.00s)\n"}
{"Action":"fail","Package":"ex/a","Test":"TestSlow","Elapsed":3}
{"Action":"run","Package":"ex/a","Test":"TestSkipped"}
{"Action":"output","Package":"ex/a","Test":"TestSkipped","Output":"--- SKIP: TestSkipped (0.00s)\n"}
{"Action":"skip","Package":"ex/a","Test":"TestSkipped","Elapsed":0}
{"Action":"output","Package":"ex/a","Output":"FAIL\n"}
{"Action":"output","Package":"ex/a","Output":"FAIL\tex/a\t3.60s\n"}
{"Action":"fail","Package":"ex/a","Elapsed":3.6}
{"ImportPath":"ex/b [ex/b.test]","Action":"build-output","Output":"# ex/b\n"}
{"ImportPath":"ex/b [ex/b.test]","Action":"build-output","Output":"b.go:3:1: syntax error\n"}
{"ImportPath":"ex/b [ex/b.test]","Action":"build-fail"}
{"Action":"output","Package":"ex/c","Output":"PASS\n"}
{"Action":"output","Package":"ex/c","Output":"ok  \tex/c\t9.00s\n"}
{"Action":"pass","Package":"ex/c","Elapsed":9}
not an event
`
	var out bytes.Buffer
	got, err := follow(strings.NewReader(stream), &out)
	if err != nil {
		t.Fatal(err)
	}
	const want = `    slow_test.go:20: want 2, got 3
    --- FAIL: TestSlow/broken (2.00s)
--- FAIL: TestSlow (3.00s)
FAIL
FAIL	ex/a	3.60s
# ex/b
b.go:3:1: syntax error
ok  	ex/c	9.00s
not an event
`
	if out.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", out.String(), want)
	}

	out.Reset()
	got.print(&out, 2)
	const wantTimes = `
slowest packages:
    9.00s  ex/c
    3.60s  ex/a  FAIL

slowest tests:
    3.00s  ex/a TestSlow  FAIL
    0.50s  ex/a TestQuick
`
	if out.String() != wantTimes {
		t.Errorf("times:\n%s\nwant:\n%s", out.String(), wantTimes)
	}
	if len(got.tests) != 2 || got.tests[0].Elapsed != 500*time.Millisecond {
		t.Errorf("tests %+v, want TestQuick and TestSlow (skipped and subtests left out)", got.tests)
	}
}

// TestRunKeepsTheExitStatus checks testtimes exits as the command it runs.
func TestRunKeepsTheExitStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"success", []string{"--", "sh", "-c", "echo '{\"Action\":\"pass\",\"Package\":\"ex/a\",\"Elapsed\":1}'"}, 0},
		{"failure", []string{"--", "sh", "-c", "exit 3"}, 3},
		{"no command", nil, 2},
		{"no such command", []string{"--", "/nonexistent/go"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			if got := run(tt.args, &stdout, &stderr); got != tt.want {
				t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", got, tt.want, stdout.String(), stderr.String())
			}
		})
	}
}
