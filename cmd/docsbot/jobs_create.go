package main

import (
	"context"

	"github.com/docsbot/docsbot/docsapi"
)

const jobsCreateUsage = `Usage:
  docsbot jobs create --prompt TEXT [flags]
  docsbot jobs create [flags] TEXT...

Starts an agent job with an instruction. The agent works in the background
and opens a pull request when it changes files; follow it with
'docsbot jobs watch ID'.

The request is not retried on a timeout or a server error, since it may have
started a job: check 'docsbot jobs get' or the dashboard first.

Examples:
  docsbot jobs create --prompt "Document the new rate limits"
  docsbot jobs create Fix the broken links on the quickstart page
  git log -1 --format=%B | docsbot jobs create --prompt -
  docsbot jobs create --prompt "Add a FAQ page" --format json
`

// runJobsCreate starts an agent job.
func (r *runner) runJobsCreate(ctx context.Context, args []string) error {
	fs := r.flagSet("jobs create", jobsCreateUsage)
	api := settingsTable().Flags(fs, true)
	prompt := fs.String("prompt", "", "the instruction for the agent; - reads it from standard input")
	format := newFormat("text", "json")
	fs.Var(format, "format", format.usage())
	words, err := r.parseFlags(fs, args)
	if err != nil {
		return err
	}
	text, err := r.resolvePrompt(*prompt, isSet(fs, "prompt"), words)
	if err != nil {
		return err
	}
	c, cfg, err := r.client(api())
	if err != nil {
		return err
	}
	job, err := c.CreateJob(ctx, text)
	if err != nil {
		return explain(err, call{op: docsapi.OpCreate, cfg: cfg, now: r.now()})
	}
	return r.printStarted(job, format.value, "Started")
}
