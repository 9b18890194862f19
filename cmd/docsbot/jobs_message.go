package main

import (
	"context"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
)

const jobsMessageUsage = `Usage:
  docsbot jobs message ID --prompt TEXT [flags]
  docsbot jobs message ID [flags] TEXT...

Sends a follow-up instruction to an agent job. The agent works on it in the
background, even when the job had finished; follow it with
'docsbot jobs watch ID'.

The request is not retried on a timeout or a server error, since the message
may have been delivered: check 'docsbot jobs get ID' first.

Examples:
  docsbot jobs message 6f2c9e1a --prompt "Also update the changelog"
  docsbot jobs message 6f2c9e1a Use the American spelling throughout
  docsbot jobs message 6f2c9e1a --prompt - < review-notes.txt
`

// runJobsMessage sends a follow-up instruction to a job.
func (r *runner) runJobsMessage(ctx context.Context, args []string) error {
	cmd := r.apiCommand("jobs message", jobsMessageUsage, "text", "json")
	prompt := cmd.String("prompt", "", "the follow-up instruction; - reads it from standard input")
	pos, err := cmd.parse(args)
	if err != nil {
		return err
	}
	id, words, err := jobID("message", pos, true)
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
	job, err := c.SendMessage(ctx, id, text)
	if err != nil {
		return cmd.explain(err, term.OpMessage, id)
	}
	return term.WriteStarted(r.stdout, job, cmd.format.Value, "Sent the message to")
}
