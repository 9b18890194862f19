// Command testtimes runs `go test -json ...`, prints what plain `go test`
// prints (a line a package, the output of failed tests and of packages that
// did not build), then the slowest packages and tests, and exits with the
// command's exit status. `make test` runs the suite through it:
//
//	go run ./cmd/internal/testtimes -- go test -json -race -count=1 ./...
//
// The command's standard error passes through unchanged; lines of its
// standard output that are not test2json events are printed as they come.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

func main() {
	// Ctrl-C reaches the command too (same process group): testtimes waits
	// for it to end and reports what it printed.
	signal.Ignore(syscall.SIGINT)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command in args and returns the exit status testtimes exits with.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("testtimes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	top := fs.Int("n", 10, "how many of the slowest packages and tests to print")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: testtimes [-n 10] -- go test -json [flags] [packages]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(stderr, "testtimes:", err)
		return 1
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(stderr, "testtimes:", err)
		return 1
	}
	times, readErr := follow(out, stdout)
	err = cmd.Wait()
	times.print(stdout, *top)
	if readErr != nil {
		fmt.Fprintln(stderr, "testtimes: reading the command's output:", readErr)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case err != nil:
		fmt.Fprintln(stderr, "testtimes:", err)
		return 1
	case readErr != nil:
		return 1
	}
	return 0
}
