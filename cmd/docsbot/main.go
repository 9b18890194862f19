// Command docsbot is the docs agent's command line and Slack bot.
//
// Run `docsbot help` for the list of subcommands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/docsbot/docsbot/cmd/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		os.Exit(cli.Report(os.Stderr, err))
	}
}
