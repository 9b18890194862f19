package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

// maxPromptBytes bounds a prompt read from standard input.
const maxPromptBytes = 1 << 20

func (r *runner) jobCommands() []command {
	return []command{
		{name: "create", summary: "start an agent job with an instruction", run: r.runJobsCreate},
		{name: "get", summary: "show a job: status, model, repository, pull request", run: r.runJobsGet},
		{name: "message", summary: "send a follow-up instruction to a job", run: r.runJobsMessage},
		{name: "watch", summary: "follow a job until it finishes and show its pull request", run: r.runJobsWatch},
	}
}

// runJobs dispatches the jobs subcommands.
func (r *runner) runJobs(ctx context.Context, args []string) error {
	if len(args) == 0 {
		r.jobsUsage(r.stderr)
		return usageError("jobs: missing subcommand", "")
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			return r.runJobs(ctx, []string{args[1], "-h"})
		}
		r.jobsUsage(r.stdout)
		return nil
	}
	for _, c := range r.jobCommands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:])
		}
	}
	r.jobsUsage(r.stderr)
	return usageError(fmt.Sprintf("jobs: unknown subcommand %q", args[0]), "")
}

func (r *runner) jobsUsage(w io.Writer) {
	fmt.Fprint(w, "Usage:\n  docsbot jobs <subcommand> [arguments] [flags]\n\nSubcommands:\n")
	for _, c := range r.jobCommands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Examples:
  docsbot jobs create --prompt "Document the new rate limits"
  docsbot jobs get 6f2c9e1a --format json
  docsbot jobs message 6f2c9e1a --prompt "Also update the changelog"
  docsbot jobs watch 6f2c9e1a

Run 'docsbot jobs <subcommand> -h' for its flags.
`)
}

// resolvePrompt resolves the instruction of create and message: --prompt TEXT,
// --prompt - (read standard input) or the remaining arguments as words.
func (r *runner) resolvePrompt(flagValue string, flagSet bool, words []string) (string, error) {
	var prompt string
	switch {
	case flagSet && len(words) > 0:
		return "", usageError("give the prompt either with --prompt or as arguments, not both",
			"quote it: --prompt \"...\"")
	case flagSet && flagValue == "-":
		b, err := io.ReadAll(io.LimitReader(r.stdin, maxPromptBytes+1))
		if err != nil {
			return "", &exitError{code: exitUsage, err: err, msg: "--prompt -: reading standard input: " + err.Error()}
		}
		if len(b) > maxPromptBytes {
			return "", usageError("--prompt -: the prompt on standard input is over 1 MiB", "")
		}
		prompt = string(b)
	case flagSet:
		prompt = flagValue
	default:
		prompt = strings.Join(words, " ")
	}
	prompt = strings.TrimSpace(prompt)
	if prompt == "" {
		return "", usageError("--prompt is required: say what the agent should do",
			`e.g. --prompt "Document the new rate limits", or --prompt - to read it from standard input`)
	}
	return prompt, nil
}

// printStarted shows a job that was just created or messaged.
func (r *runner) printStarted(j *docsapi.Job, format, verb string) error {
	if format == "json" {
		return term.WriteJSON(r.stdout, j)
	}
	id := term.Printable(j.ID)
	fmt.Fprintf(r.stdout, "%s job %s (status: %s)\n", verb, id, term.Printable(string(j.Status)))
	if !j.Status.Final() {
		fmt.Fprintf(r.stdout, "follow it: docsbot jobs watch %s\n", id)
	} else if pr := j.PR(); pr != "" {
		fmt.Fprintf(r.stdout, "pull request: %s\n", term.Printable(pr))
	}
	return nil
}

// jobID checks the single job ID argument of get, message and watch.
func jobID(cmd string, pos []string, extra bool) (string, []string, error) {
	if len(pos) == 0 || strings.TrimSpace(pos[0]) == "" {
		return "", nil, usageError("jobs "+cmd+": missing job ID", "usage: docsbot jobs "+cmd+" ID (see docsbot jobs "+cmd+" -h)")
	}
	if !extra && len(pos) > 1 {
		return "", nil, usageError(fmt.Sprintf("jobs %s: unexpected argument %q after the job ID", cmd, pos[1]), "")
	}
	return pos[0], pos[1:], nil
}
