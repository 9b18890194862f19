package main

import (
	"context"
	"errors"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

// call names the operation that failed, for explain.
type call struct {
	op    string // one of term's Op constants
	cfg   config.API
	jobID string
	now   time.Time
}

// explain turns an error from the docs API client into what the user reads
// (term.Explain, in the command line's words) and the exit code.
func explain(err error, c call) error {
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*cli.Error](err); ok {
		return err
	}
	x := term.Explain(err, term.APIRequest{Op: c.op, JobID: c.jobID, BaseURL: c.cfg.APIURL, APIKey: c.cfg.APIKey,
		ProjectID: c.cfg.ProjectID, KeyFrom: c.cfg.KeyFrom, Now: c.now, Input: c.cfg.Input, LookUp: "docsbot jobs get"})
	e := &cli.Error{Code: cli.ExitFailure, Err: err, Msg: x.Message, Fix: x.Fix}
	if _, ok := errors.AsType[*docsapi.ValidationError](err); ok {
		e.Code = cli.ExitUsage
	}
	if errors.Is(err, context.Canceled) {
		e.Code = cli.ExitInterrupted
	}
	return e
}
