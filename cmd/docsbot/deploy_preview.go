package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
)

const deployPreviewUsage = `Usage:
  docsbot deploy preview BRANCH [--wait] [flags]

Deploys a preview of BRANCH of the docs repository (or redeploys it) and
prints its status ID and address. With --wait it follows the preview until it
succeeds or fails, as 'docsbot deploy --wait' does.

Previews need a plan that includes them; the API allows 5 previews per
minute per organization. As for deploy, a request that may have reached the
API is not repeated.

Examples:
  docsbot deploy preview feature/webhooks
  docsbot deploy preview feature/webhooks --wait
  docsbot deploy preview release-2.0 --format json
`

// runDeployPreview deploys a preview of a branch.
func (r *runner) runDeployPreview(ctx context.Context, args []string) error {
	cmd := r.apiCommand("deploy preview", deployPreviewUsage, "table", "json")
	f := addDeployFlags(cmd, "follow the preview until it succeeds or fails")
	pos, err := cmd.parse(args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0 || strings.TrimSpace(pos[0]) == "":
		return cli.Usage("deploy preview: missing branch", "usage: docsbot deploy preview BRANCH (see docsbot deploy preview -h)")
	case len(pos) > 1:
		return cli.Usage(fmt.Sprintf("deploy preview: unexpected argument %q after the branch", pos[1]), "")
	}
	if err := f.check(); err != nil {
		return err
	}
	c, err := cmd.client()
	if err != nil {
		return err
	}
	d, err := c.Preview(ctx, pos[0])
	if err != nil {
		return cmd.explain(err, term.OpPreview, "")
	}
	return r.afterDeployStart(ctx, cmd, c, f, d, "preview")
}
