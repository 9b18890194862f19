package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

const jobsWatchUsage = `Usage:
  docsbot jobs watch ID [flags]

Follows an agent job until it is completed, archived or failed, then prints
the outcome and the pull request link. The wait between polls starts at
--interval and grows by half each poll, up to --max-interval. On a terminal
a one-line progress is redrawn in place; otherwise a line is printed each time
the status changes. Rate limits (429) and server or network errors are shown
and polling goes on; an unknown job or a refused key stops it.

Exit status: 0 completed or archived, 1 failed or timed out, 130 interrupted.
Interrupting only stops watching: the job keeps running.

Examples:
  docsbot jobs watch 6f2c9e1a
  docsbot jobs watch 6f2c9e1a --interval 2s --max-interval 30s --timeout 30m
  docsbot jobs watch 6f2c9e1a --format json > job.json
`

// runJobsWatch follows a job until it finishes.
func (r *runner) runJobsWatch(ctx context.Context, args []string) error {
	cmd := r.apiCommand("jobs watch", jobsWatchUsage, "text", "json")
	interval := cmd.Duration("interval", 5*time.Second, "wait before the second poll")
	maxInterval := cmd.Duration("max-interval", time.Minute, "longest wait between polls")
	timeout := cmd.Duration("timeout", 0, "stop watching after this long, e.g. 30m (0: no limit)")
	cmd.Lookup("format").Usage += " (json: the final job on stdout, progress on stderr)"
	pos, err := cmd.parse(args)
	if err != nil {
		return err
	}
	id, _, err := jobID("watch", pos, false)
	if err != nil {
		return err
	}
	switch {
	case *interval <= 0:
		return cli.Usage("--interval must be positive, e.g. --interval 5s", "")
	case *maxInterval < *interval:
		return cli.Usage(fmt.Sprintf("--max-interval (%s) must not be shorter than --interval (%s)", *maxInterval, *interval), "")
	case *timeout < 0:
		return cli.Usage("--timeout must be 0 (no limit) or positive, e.g. --timeout 30m", "")
	}
	c, err := cmd.client()
	if err != nil {
		return err
	}

	out := r.stdout
	if cmd.format.Value == "json" {
		out = r.stderr
	}
	p := term.NewProgress(out, id, r.now)
	wctx := ctx
	if *timeout > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	job, err := c.Watch(wctx, id, docsapi.WatchOptions{First: *interval, Max: *maxInterval, Sleep: p.Sleep,
		OnJob: func(j *docsapi.Job, changed bool) { p.Update(j.Status, changed) },
		OnRetry: func(err error, wait time.Duration) {
			msg := "polling failed"
			if ee, ok := errors.AsType[*cli.Error](cmd.explain(err, term.OpWatch, id)); ok {
				msg = ee.Msg
			}
			p.Note(fmt.Sprintf("%s; polling again in %s", msg, term.Elapsed(wait)))
		}})
	p.Clear()
	if err != nil {
		resume := "the job keeps running; resume with: docsbot jobs watch " + id
		switch {
		case ctx.Err() != nil:
			return &cli.Error{Code: cli.ExitInterrupted, Err: err, Fix: resume,
				Msg: fmt.Sprintf("interrupted: stopped watching job %s (last status: %s)", id, p.StatusText())}
		case wctx.Err() != nil:
			return &cli.Error{Code: cli.ExitFailure, Err: err, Fix: resume,
				Msg: fmt.Sprintf("timed out after %s watching job %s (last status: %s)", *timeout, id, p.StatusText())}
		}
		return cmd.explain(err, term.OpWatch, id)
	}

	if cmd.format.Value == "json" {
		if err := term.WriteJSON(r.stdout, job); err != nil {
			return err
		}
	} else {
		term.WriteFinished(r.stdout, id, job)
	}
	if job.Status == docsapi.StatusFailed {
		return &cli.Error{Code: cli.ExitFailure,
			Msg: "job " + id + " failed",
			Fix: "see the job in your docs dashboard, or give the agent another instruction: docsbot jobs message " + id + " --prompt \"...\""}
	}
	return nil
}
