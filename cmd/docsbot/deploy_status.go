package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
)

const deployStatusUsage = `Usage:
  docsbot deploy status ID [--wait] [flags]

Shows a deployment or preview by the status ID that 'docsbot deploy' and
'docsbot deploy preview' print: its state, summary, commit, times and last
log lines. With --wait it follows it until it succeeds or fails.

Exit status: 0 shown (with --wait: succeeded), 1 failed (with --wait), not
found or timed out.

Examples:
  docsbot deploy status 65a1f0c2e4b0a1b2c3d4e5f6
  docsbot deploy status 65a1f0c2e4b0a1b2c3d4e5f6 --wait
  docsbot deploy status 65a1f0c2e4b0a1b2c3d4e5f6 --format json
`

// runDeployStatus shows, or follows, one deployment.
func (r *runner) runDeployStatus(ctx context.Context, args []string) error {
	cmd := r.apiCommand("deploy status", deployStatusUsage, "table", "json")
	f := addDeployFlags(cmd, "follow the deployment until it succeeds or fails")
	pos, err := cmd.parse(args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0 || strings.TrimSpace(pos[0]) == "":
		return cli.Usage("deploy status: missing status ID", "usage: docsbot deploy status ID (see docsbot deploy status -h)")
	case len(pos) > 1:
		return cli.Usage(fmt.Sprintf("deploy status: unexpected argument %q after the status ID", pos[1]), "")
	}
	if err := f.check(); err != nil {
		return err
	}
	id := pos[0]
	c, err := cmd.client()
	if err != nil {
		return err
	}
	if *f.wait {
		return r.followDeploy(ctx, cmd, c, f, id)
	}
	st, err := c.DeployStatus(ctx, id)
	if err != nil {
		return cmd.explain(err, term.OpDeployStatus, id)
	}
	if cmd.format.Value == "json" {
		return term.WriteJSON(r.stdout, st)
	}
	return term.WriteDeployStatus(r.stdout, st)
}
