package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

// Exit codes of the docsbot process.
const (
	exitOK          = 0   // success, or help that was asked for
	exitFailure     = 1   // the docs API failed or refused, or a job failed
	exitUsage       = 2   // bad flags, arguments or configuration
	exitInterrupted = 130 // Ctrl-C or SIGTERM
)

// exitError is an error as the user sees it: what happened, what to do about
// it, and the exit code.
type exitError struct {
	code int
	msg  string
	fix  string
	// err is the cause, kept for errors.Is and errors.As; its text is not shown.
	err error
	// quiet means the problem was shown already (the flag package prints its own).
	quiet bool
}

func (e *exitError) Error() string {
	if e.fix == "" {
		return e.msg
	}
	return e.msg + "\n" + e.fix
}

func (e *exitError) Unwrap() error { return e.err }

// usageError is a problem with the command line or the configuration.
func usageError(msg, fix string) error {
	return &exitError{code: exitUsage, msg: msg, fix: fix}
}

// report prints err on w as "docsbot: <message>" with any further lines
// indented below it, and returns the exit code for it.
func report(w io.Writer, err error) int {
	code := exitFailure
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		code = ee.code
		if ee.quiet {
			return code
		}
	case errors.Is(err, context.Canceled):
		code = exitInterrupted
	}
	lines := strings.Split(strings.TrimRight(err.Error(), "\n"), "\n")
	fmt.Fprintf(w, "docsbot: %s\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "  %s\n", l)
	}
	return code
}

// call names the operation that failed, for explain.
type call struct {
	op    string // one of docsapi's Op constants
	cfg   config
	jobID string
	now   time.Time
}

// explain turns an error from the docs API client into what the user reads
// (docsapi.Explain, in the command line's words) and the exit code.
func explain(err error, c call) error {
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*exitError](err); ok {
		return err
	}
	x := docsapi.Explain(err, docsapi.Request{Op: c.op, JobID: c.jobID, BaseURL: c.cfg.APIURL, APIKey: c.cfg.APIKey,
		ProjectID: c.cfg.ProjectID, KeyFrom: c.cfg.keyFrom, Now: c.now, Input: flagFor, LookUp: "docsbot jobs get"})
	e := &exitError{code: exitFailure, err: err, msg: x.Message, fix: x.Fix}
	if _, ok := errors.AsType[*docsapi.ValidationError](err); ok {
		e.code = exitUsage
	}
	if errors.Is(err, context.Canceled) {
		e.code = exitInterrupted
	}
	return e
}

// flagFor names the flag, argument or setting that sets a request field.
func flagFor(field string) string {
	switch strings.ReplaceAll(strings.ToLower(field), " ", "") {
	case "prompt":
		return "--prompt"
	case "id", "jobid", "job":
		return "job ID"
	case "from", "datefrom", "fromdate":
		return "--from"
	case "to", "dateto", "todate":
		return "--to"
	case "interval":
		return "--interval"
	case "apikey", "key":
		return envAPIKey
	case "projectid", "project":
		return envProject
	case "baseurl", "url":
		return envAPIURL
	}
	return field
}
