// Package cli is the machinery of docsbot's command line: the errors a
// command ends with (what happened, what to do, the exit code) and their
// report, groups of subcommands and their dispatch and usage, flag sets that
// take flags between positional arguments, the --format flag and the build's
// version. What the commands mean is cmd/docsbot's; this parses nothing of
// docsbot's own.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Exit codes of the docsbot process.
const (
	ExitOK          = 0   // success, or help that was asked for
	ExitFailure     = 1   // the docs API failed or refused, or a job failed
	ExitUsage       = 2   // bad flags, arguments or configuration
	ExitInterrupted = 130 // Ctrl-C or SIGTERM
)

// Error is an error as the user sees it: what happened, what to do about
// it, and the exit code.
type Error struct {
	Code int
	Msg  string
	Fix  string
	// Err is the cause, kept for errors.Is and errors.As; its text is not shown.
	Err error
	// Quiet means the problem was shown already (the flag package prints its own).
	Quiet bool
}

func (e *Error) Error() string {
	if e.Fix == "" {
		return e.Msg
	}
	return e.Msg + "\n" + e.Fix
}

func (e *Error) Unwrap() error { return e.Err }

// Usage is a problem with the command line or the configuration.
func Usage(msg, fix string) error {
	return &Error{Code: ExitUsage, Msg: msg, Fix: fix}
}

// Report prints err on w as "docsbot: <message>" with any further lines
// indented below it, and returns the exit code for it.
func Report(w io.Writer, err error) int {
	code := ExitFailure
	var ee *Error
	switch {
	case errors.As(err, &ee):
		code = ee.Code
		if ee.Quiet {
			return code
		}
	case errors.Is(err, context.Canceled):
		code = ExitInterrupted
	}
	lines := strings.Split(strings.TrimRight(err.Error(), "\n"), "\n")
	fmt.Fprintf(w, "docsbot: %s\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "  %s\n", l)
	}
	return code
}
