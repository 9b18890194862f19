package main

import (
	"context"

	"github.com/docsbot/docsbot/cmd/internal/term"
)

const jobsGetUsage = `Usage:
  docsbot jobs get ID [flags]

Shows an agent job: status, model, repository and branch, creation time and
its pull request (or why there is none).

Examples:
  docsbot jobs get 6f2c9e1a
  docsbot jobs get 6f2c9e1a --format json
`

// runJobsGet shows one agent job.
func (r *runner) runJobsGet(ctx context.Context, args []string) error {
	cmd := r.apiCommand("jobs get", jobsGetUsage, "text", "json")
	pos, err := cmd.parse(args)
	if err != nil {
		return err
	}
	id, _, err := jobID("get", pos, false)
	if err != nil {
		return err
	}
	c, err := cmd.client()
	if err != nil {
		return err
	}
	job, err := c.GetJob(ctx, id)
	if err != nil {
		return cmd.explain(err, term.OpGet, id)
	}
	if cmd.format.Value == "json" {
		return term.WriteJSON(r.stdout, job)
	}
	return term.WriteJob(r.stdout, job)
}
