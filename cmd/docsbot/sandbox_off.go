//go:build nosandbox

package main

import (
	"context"

	"github.com/docsbot/docsbot/cmd/internal/cli"
)

const sandboxUsage = `docsbot sandbox

This build of docsbot leaves the sandbox out (the container image is built
with -tags nosandbox, so it carries no fake Slack, test API or embedded
store). Run the sandbox from a source checkout:

  go run ./cmd/docsbot sandbox
`

// runSandbox explains that this build has no sandbox.
func (r *runner) runSandbox(_ context.Context, args []string) error {
	fs := r.flagSet("sandbox", sandboxUsage)
	if _, err := r.parseFlags(fs, args); err != nil {
		return err
	}
	return cli.Usage("this docsbot was built without the sandbox (-tags nosandbox)",
		"run it from a source checkout: go run ./cmd/docsbot sandbox")
}
