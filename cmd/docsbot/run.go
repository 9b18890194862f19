package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
)

// Run runs the docsbot command line with args (without the program name).
// It reads configuration from the process environment and from a .env file in
// the working directory, and never changes either.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	r := &runner{
		stdin:     stdin,
		stdout:    stdout,
		stderr:    stderr,
		lookupEnv: os.LookupEnv,
		dir:       dir,
		now:       time.Now,
	}
	return r.run(ctx, args)
}

// runner holds what one invocation of the command line may use. Tests build
// their own with a fake environment and a temporary directory.
type runner struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// lookupEnv looks up an environment variable.
	lookupEnv func(string) (string, bool)
	// dir is the directory whose .env file is read.
	dir string
	// now tells the time, for elapsed times and retry hints.
	now func() time.Time
}

// commands is the table of subcommands, in the order `docsbot help` lists them.
// A new subcommand lives in its own file and adds one line here.
func (r *runner) commands() []cli.Command {
	return []cli.Command{
		{Name: "serve", Summary: "run the Slack bot (the default when no command is given)", Run: r.runServe},
		{Name: "sandbox", Summary: "try the bot in a Slack-like web page: nothing to set up", Run: r.runSandbox},
		{Name: "jobs", Summary: "start, inspect, message and watch agent jobs", Run: r.runJobs},
		{Name: "deploy", Summary: "deploy the docs or a preview of a branch, and follow deployments", Run: r.runDeploy},
		{Name: "visitors", Summary: "unique visitors per page, human and AI", Run: r.runVisitors},
		{Name: "health", Summary: "docs health: searches that find nothing, 👎 feedback, unanswered questions, page views", Run: r.runHealth},
		{Name: "quality", Summary: "how the questions docsbot answered came out: resolved, handed off, uncertain, rated", Run: r.runQuality},
		{Name: "audit", Summary: "export the audit trail: job starts, follow-ups, results, refusals", Run: r.runAudit},
		{Name: "workspaces", Summary: "list the workspaces that installed docsbot by link, forget one, reseal their tokens", Run: r.runWorkspaces},
		{Name: "doctor", Summary: "check the settings, the tokens, the docs API and Redis with real calls", Run: r.runDoctor},
		{Name: "version", Summary: "print the version", Run: r.runVersion},
		{Name: "help", Summary: "show help for docsbot or one of its commands"}, // the dispatcher's
	}
}

// top is docsbot itself.
func (r *runner) top() cli.Group {
	return cli.Group{Path: "docsbot", Noun: "command", None: "serve", Top: true, Commands: r.commands(),
		Head: `docsbot drives the docs agent and reads docs analytics, from Slack or a terminal.

Usage:
  docsbot <command> [arguments] [flags]

Commands:
`,
		Tail: func(w io.Writer) {
			fmt.Fprint(w, "\nConfiguration (flags win over the environment, which wins over ./.env):\n")
			config.Table().Write(w, true)
			fmt.Fprint(w, `
The Slack bot's own settings: docsbot help serve.

Examples:
  docsbot jobs create --prompt "Document the new rate limits"
  docsbot jobs watch 6f2c9e1a
  docsbot visitors --from 2025-11-01 --to 2025-11-08

Run 'docsbot help <command>' for a command's flags.
`)
		}}
}

func (r *runner) run(ctx context.Context, args []string) error {
	err := r.top().Dispatch(ctx, args, r.stdout, r.stderr)
	var ee *cli.Error
	if errors.As(err, &ee) && ee.Code == cli.ExitOK {
		return nil // help was asked for and shown
	}
	return err
}

func (r *runner) runVersion(ctx context.Context, args []string) error {
	fs := r.flagSet("version", "docsbot version\n\nPrints the version of this build.\n")
	if _, err := r.parseFlags(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(r.stdout, "docsbot "+cli.Version())
	return nil
}

// flagSet returns a flag set whose usage shows the text, then the flags.
// Parse it with parseFlags.
func (r *runner) flagSet(name, usage string) *flag.FlagSet { return cli.FlagSet(name, usage) }

// parseFlags parses args with fs (cli.Parse): flags may come before,
// between and after the positional arguments, which it returns.
func (r *runner) parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	return cli.Parse(fs, args, r.stdout, r.stderr)
}

// parseFlagsOnly parses args of command, which takes flags only: an
// argument left is a usage error, hint saying where it goes.
func (r *runner) parseFlagsOnly(fs *flag.FlagSet, args []string, command, hint string) error {
	pos, err := r.parseFlags(fs, args)
	if err == nil && len(pos) > 0 {
		err = cli.Usage(fmt.Sprintf("%s: unexpected argument %q", command, pos[0]), hint)
	}
	return err
}
