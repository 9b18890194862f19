package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

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
	fs := r.flagSet("jobs watch", jobsWatchUsage)
	api := settingFlags(fs, true)
	interval := fs.Duration("interval", 5*time.Second, "wait before the second poll")
	maxInterval := fs.Duration("max-interval", time.Minute, "longest wait between polls")
	timeout := fs.Duration("timeout", 0, "stop watching after this long, e.g. 30m (0: no limit)")
	format := newFormat("text", "json")
	fs.Var(format, "format", format.usage()+" (json: the final job on stdout, progress on stderr)")
	pos, err := r.parseFlags(fs, args)
	if err != nil {
		return err
	}
	id, _, err := jobID("watch", pos, false)
	if err != nil {
		return err
	}
	switch {
	case *interval <= 0:
		return usageError("--interval must be positive, e.g. --interval 5s", "")
	case *maxInterval < *interval:
		return usageError(fmt.Sprintf("--max-interval (%s) must not be shorter than --interval (%s)", *maxInterval, *interval), "")
	case *timeout < 0:
		return usageError("--timeout must be 0 (no limit) or positive, e.g. --timeout 30m", "")
	}
	c, cfg, err := r.client(api())
	if err != nil {
		return err
	}

	out := r.stdout
	if format.value == "json" {
		out = r.stderr
	}
	p := &progress{w: out, tty: isTerminal(out), id: id, now: r.now, start: r.now()}
	wctx := ctx
	if *timeout > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	job, err := c.Watch(wctx, id, docsapi.WatchOptions{First: *interval, Max: *maxInterval, Sleep: p.sleep,
		OnJob: func(j *docsapi.Job, changed bool) { p.update(j.Status, changed) },
		OnRetry: func(err error, wait time.Duration) {
			msg := "polling failed"
			if ee, ok := errors.AsType[*exitError](explain(err, call{op: docsapi.OpWatch, cfg: cfg, jobID: id, now: r.now()})); ok {
				msg = ee.msg
			}
			p.note(fmt.Sprintf("%s; polling again in %s", msg, formatElapsed(wait)))
		}})
	p.clear()
	if err != nil {
		resume := "the job keeps running; resume with: docsbot jobs watch " + id
		switch {
		case ctx.Err() != nil:
			return &exitError{code: exitInterrupted, err: err, fix: resume,
				msg: fmt.Sprintf("interrupted: stopped watching job %s (last status: %s)", id, p.statusText())}
		case wctx.Err() != nil:
			return &exitError{code: exitFailure, err: err, fix: resume,
				msg: fmt.Sprintf("timed out after %s watching job %s (last status: %s)", *timeout, id, p.statusText())}
		}
		return explain(err, call{op: docsapi.OpWatch, cfg: cfg, jobID: id, now: r.now()})
	}

	if format.value == "json" {
		if err := writeJSON(r.stdout, job); err != nil {
			return err
		}
	} else {
		outcome := prText(job)
		switch {
		case job.PR() != "":
			outcome = "pull request " + job.PR()
		case job.Status == docsapi.StatusFailed:
			outcome = "no pull request"
		}
		fmt.Fprintf(r.stdout, "Job %s %s: %s\n", id, job.Status, printable(outcome))
	}
	if job.Status == docsapi.StatusFailed {
		return &exitError{code: exitFailure,
			msg: "job " + id + " failed",
			fix: "see the job in your docs dashboard, or give the agent another instruction: docsbot jobs message " + id + " --prompt \"...\""}
	}
	return nil
}

// progress shows how a watched job is doing: on a terminal one line redrawn
// in place, elsewhere one line per status change.
type progress struct {
	w     io.Writer
	tty   bool
	id    string
	now   func() time.Time
	start time.Time
	last  docsapi.Status
	seen  bool
	drawn bool
}

// update records the status of a poll, changed or not.
func (p *progress) update(s docsapi.Status, changed bool) {
	p.seen, p.last = true, s
	switch {
	case p.tty:
		p.draw()
	case changed:
		fmt.Fprintf(p.w, "job %s: %s (%s)\n", p.id, p.statusText(), formatElapsed(p.now().Sub(p.start)))
	}
}

func (p *progress) statusText() string {
	switch {
	case !p.seen:
		return "not known yet"
	case !p.last.Known():
		return printable(string(p.last)) + ", an unknown status: still watching"
	}
	return string(p.last)
}

func (p *progress) draw() {
	fmt.Fprintf(p.w, "\r\033[Kjob %s: %s · %s", p.id, p.statusText(), formatElapsed(p.now().Sub(p.start)))
	p.drawn = true
}

// note prints a line of its own, keeping the progress line below it.
func (p *progress) note(msg string) {
	p.clear()
	fmt.Fprintln(p.w, msg)
	if p.tty && p.seen {
		p.draw()
	}
}

// clear removes the progress line from a terminal.
func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// sleep waits d, redrawing the progress line every second on a terminal.
func (p *progress) sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	var tick <-chan time.Time
	if p.tty && p.seen {
		tk := time.NewTicker(time.Second)
		defer tk.Stop()
		tick = tk.C
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return nil
		case <-tick:
			p.draw()
		}
	}
}
