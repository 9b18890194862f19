package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Command is one subcommand.
type Command struct {
	Name    string
	Summary string
	Run     func(ctx context.Context, args []string) error
}

// Group is a command made of subcommands, docsbot itself and docsbot jobs:
// one dispatcher and one usage list serve both.
type Group struct {
	Path   string // "docsbot", "docsbot jobs"
	Prefix string // of its errors: "", "jobs: "
	Noun   string // what it calls its subcommands
	None   string // the subcommand run without one, "" for an error
	// Top marks the program itself: --version runs "version", and a flag
	// before the command is explained.
	Top      bool
	Commands []Command
	// Head and Tail are the usage around the list of subcommands.
	Head string
	Tail func(w io.Writer)
}

// Dispatch runs the subcommand of g that args name. -h, --help and help show
// g's usage on stdout, help NAME the subcommand's; a mistake shows it on
// stderr.
func (g Group) Dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 && g.None != "" {
		args = []string{g.None}
	}
	if len(args) == 0 {
		g.Usage(stderr)
		return Usage(g.Prefix+"missing "+g.Noun, "")
	}
	name := args[0]
	switch {
	case name == "help" && len(args) > 1:
		name, args = args[1], append([]string{args[1]}, append(args[2:], "-h")...)
	case name == "help" || name == "-h" || name == "-help" || name == "--help":
		g.Usage(stdout)
		return nil
	case g.Top && (name == "-version" || name == "--version"):
		name, args = "version", append([]string{"version"}, args[1:]...)
	}
	for _, c := range g.Commands {
		if c.Name == name && c.Run != nil {
			return c.Run(ctx, args[1:])
		}
	}
	g.Usage(stderr)
	if g.Top && strings.HasPrefix(name, "-") {
		return Usage(fmt.Sprintf("unknown flag %s: flags go after the command, e.g. %s jobs get ID %s", name, g.Path, name), "")
	}
	return Usage(fmt.Sprintf("%sunknown %s %q: run '%s help' for the list", g.Prefix, g.Noun, name, g.Path), "")
}

// Usage writes g's usage: head, the subcommands, tail.
func (g Group) Usage(w io.Writer) {
	fmt.Fprint(w, g.Head)
	width := 0
	for _, c := range g.Commands {
		width = max(width, len(c.Name)+1)
	}
	for _, c := range g.Commands {
		fmt.Fprintf(w, "  %-*s %s\n", width, c.Name, c.Summary)
	}
	g.Tail(w)
}
