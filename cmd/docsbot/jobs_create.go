package main

import (
	"context"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
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
	cmd := r.apiCommand("jobs create", jobsCreateUsage, "text", "json")
	prompt := cmd.String("prompt", "", "the instruction for the agent; - reads it from standard input")
	words, err := cmd.parse(args)
	if err != nil {
		return err
	}
	text, err := r.resolvePrompt(*prompt, cli.IsSet(cmd.FlagSet, "prompt"), words)
	if err != nil {
		return err
	}
	c, err := cmd.client()
	if err != nil {
		return err
	}
	job, err := c.CreateJob(ctx, text)
	if err != nil {
		return cmd.explain(err, term.OpCreate, "")
	}
	return term.WriteStarted(r.stdout, job, cmd.format.Value, "Started")
}
