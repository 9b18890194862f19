package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
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

// command is one docsbot subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string) error
}

// commands is the table of subcommands, in the order `docsbot help` lists them.
// A new subcommand lives in its own file and adds one line here.
func (r *runner) commands() []command {
	return []command{
		{name: "serve", summary: "run the Slack bot (the default when no command is given)", run: r.runServe},
		{name: "sandbox", summary: "try the bot in a Slack-like web page: nothing to set up", run: r.runSandbox},
		{name: "jobs", summary: "start, inspect, message and watch agent jobs", run: r.runJobs},
		{name: "visitors", summary: "unique visitors per page, human and AI", run: r.runVisitors},
		{name: "doctor", summary: "check the settings, the tokens, the docs API and Redis with real calls", run: r.runDoctor},
		{name: "version", summary: "print the version", run: r.runVersion},
		{name: "help", summary: "show help for docsbot or one of its commands", run: r.runHelp},
	}
}

func (r *runner) run(ctx context.Context, args []string) error {
	err := r.dispatch(ctx, args)
	var ee *exitError
	if errors.As(err, &ee) && ee.code == exitOK {
		return nil // help was asked for and shown
	}
	return err
}

func (r *runner) dispatch(ctx context.Context, args []string) error {
	if len(args) == 0 {
		args = []string{"serve"} // the Slack bot is the default command
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		r.usage(r.stdout)
		return nil
	case "-version", "--version":
		name, args = "version", append([]string{"version"}, args[1:]...)
	}
	for _, c := range r.commands() {
		if c.name == name {
			return c.run(ctx, args[1:])
		}
	}
	r.usage(r.stderr)
	if strings.HasPrefix(name, "-") {
		return &exitError{code: exitUsage, msg: fmt.Sprintf("unknown flag %s: flags go after the command, e.g. docsbot jobs get ID %s", name, name)}
	}
	return &exitError{code: exitUsage, msg: fmt.Sprintf("unknown command %q: run 'docsbot help' for the list", name)}
}

func (r *runner) usage(w io.Writer) {
	fmt.Fprint(w, `docsbot drives the docs agent and reads docs analytics, from Slack or a terminal.

Usage:
  docsbot <command> [arguments] [flags]

Commands:
`)
	for _, c := range r.commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nConfiguration (flags win over the environment, which wins over ./.env):\n")
	settingsTable().Write(w, true)
	fmt.Fprint(w, `
The Slack bot's own settings: docsbot help serve.

Examples:
  docsbot jobs create --prompt "Document the new rate limits"
  docsbot jobs watch 6f2c9e1a
  docsbot visitors --from 2025-11-01 --to 2025-11-08

Run 'docsbot help <command>' for a command's flags.
`)
}

func (r *runner) runHelp(ctx context.Context, args []string) error {
	if len(args) == 0 {
		r.usage(r.stdout)
		return nil
	}
	for _, c := range r.commands() {
		if c.name == args[0] && c.name != "help" {
			return c.run(ctx, append(args[1:], "-h"))
		}
	}
	r.usage(r.stderr)
	return &exitError{code: exitUsage, msg: fmt.Sprintf("no help for unknown command %q", args[0])}
}

func (r *runner) runVersion(ctx context.Context, args []string) error {
	fs := r.flagSet("version", "docsbot version\n\nPrints the version of this build.\n")
	if _, err := r.parseFlags(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(r.stdout, "docsbot "+version())
	return nil
}

// mainVersion is the module version the Go toolchain stamped in the build.
func mainVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// version describes the build: module version, Go version and commit.
func version() string {
	v, extra := mainVersion(), []string{runtime.Version()}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && len(s.Value) >= 12:
				extra = append(extra, "commit "+s.Value[:12])
			case s.Key == "vcs.modified" && s.Value == "true":
				extra = append(extra, "modified")
			}
		}
	}
	return v + " (" + strings.Join(extra, ", ") + ")"
}

// flagSet returns a flag set whose usage shows the text, then the flags.
// Parse it with parseFlags.
func (r *runner) flagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(r.stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprint(w, strings.TrimRight(usage, "\n")+"\n")
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprint(w, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args with fs, allowing flags before, between and after the
// positional arguments, which it returns in order. Everything after "--" is
// positional. Help that was asked for goes to stdout and gives an exitError
// with code exitOK; a mistake shows the problem and the usage on stderr.
func (r *runner) parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var msgs bytes.Buffer
	fs.SetOutput(&msgs)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				r.stdout.Write(msgs.Bytes())
				return nil, &exitError{code: exitOK, quiet: true, err: err}
			}
			r.stderr.Write(msgs.Bytes())
			return nil, &exitError{code: exitUsage, quiet: true, msg: err.Error(), err: err}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// isSet reports whether the flag called name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}
