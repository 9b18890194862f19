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

// group is a command made of subcommands, docsbot itself and docsbot jobs:
// one dispatcher and one usage list serve both.
type group struct {
	path     string // "docsbot", "docsbot jobs"
	prefix   string // of its errors: "", "jobs: "
	noun     string // what it calls its subcommands
	none     string // the subcommand run without one, "" for an error
	commands []command
	// head and tail are the usage around the list of subcommands.
	head string
	tail func(w io.Writer)
}

// commands is the table of subcommands, in the order `docsbot help` lists them.
// A new subcommand lives in its own file and adds one line here.
func (r *runner) commands() []command {
	return []command{
		{name: "serve", summary: "run the Slack bot (the default when no command is given)", run: r.runServe},
		{name: "sandbox", summary: "try the bot in a Slack-like web page: nothing to set up", run: r.runSandbox},
		{name: "jobs", summary: "start, inspect, message and watch agent jobs", run: r.runJobs},
		{name: "visitors", summary: "unique visitors per page, human and AI", run: r.runVisitors},
		{name: "audit", summary: "export the audit trail: job starts, follow-ups, results, refusals", run: r.runAudit},
		{name: "doctor", summary: "check the settings, the tokens, the docs API and Redis with real calls", run: r.runDoctor},
		{name: "version", summary: "print the version", run: r.runVersion},
		{name: "help", summary: "show help for docsbot or one of its commands"}, // the dispatcher's
	}
}

// top is docsbot itself.
func (r *runner) top() group {
	return group{path: "docsbot", noun: "command", none: "serve", commands: r.commands(),
		head: `docsbot drives the docs agent and reads docs analytics, from Slack or a terminal.

Usage:
  docsbot <command> [arguments] [flags]

Commands:
`,
		tail: func(w io.Writer) {
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
		}}
}

func (r *runner) run(ctx context.Context, args []string) error {
	err := r.dispatch(ctx, r.top(), args)
	var ee *exitError
	if errors.As(err, &ee) && ee.code == exitOK {
		return nil // help was asked for and shown
	}
	return err
}

// dispatch runs the subcommand of g that args name. -h, --help and help show
// g's usage, help NAME the subcommand's.
func (r *runner) dispatch(ctx context.Context, g group, args []string) error {
	if len(args) == 0 && g.none != "" {
		args = []string{g.none}
	}
	if len(args) == 0 {
		g.usage(r.stderr)
		return usageError(g.prefix+"missing "+g.noun, "")
	}
	name := args[0]
	switch {
	case name == "help" && len(args) > 1:
		name, args = args[1], append([]string{args[1]}, append(args[2:], "-h")...)
	case name == "help" || name == "-h" || name == "-help" || name == "--help":
		g.usage(r.stdout)
		return nil
	case g.path == "docsbot" && (name == "-version" || name == "--version"):
		name, args = "version", append([]string{"version"}, args[1:]...)
	}
	for _, c := range g.commands {
		if c.name == name && c.run != nil {
			return c.run(ctx, args[1:])
		}
	}
	g.usage(r.stderr)
	if g.path == "docsbot" && strings.HasPrefix(name, "-") {
		return usageError(fmt.Sprintf("unknown flag %s: flags go after the command, e.g. docsbot jobs get ID %s", name, name), "")
	}
	return usageError(fmt.Sprintf("%sunknown %s %q: run '%s help' for the list", g.prefix, g.noun, name, g.path), "")
}

// usage writes g's usage: head, the subcommands, tail.
func (g group) usage(w io.Writer) {
	fmt.Fprint(w, g.head)
	width := 0
	for _, c := range g.commands {
		width = max(width, len(c.name)+1)
	}
	for _, c := range g.commands {
		fmt.Fprintf(w, "  %-*s %s\n", width, c.name, c.summary)
	}
	g.tail(w)
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
