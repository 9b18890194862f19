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

// runJobs runs the jobs subcommands.
func (r *runner) runJobs(ctx context.Context, args []string) error {
	return r.dispatch(ctx, group{path: "docsbot jobs", prefix: "jobs: ", noun: "subcommand",
		commands: []command{
			{name: "create", summary: "start an agent job with an instruction", run: r.runJobsCreate},
			{name: "get", summary: "show a job: status, model, repository, pull request", run: r.runJobsGet},
			{name: "message", summary: "send a follow-up instruction to a job", run: r.runJobsMessage},
			{name: "watch", summary: "follow a job until it finishes and show its pull request", run: r.runJobsWatch},
		},
		head: "Usage:\n  docsbot jobs <subcommand> [arguments] [flags]\n\nSubcommands:\n",
		tail: func(w io.Writer) {
			fmt.Fprint(w, `
Examples:
  docsbot jobs create --prompt "Document the new rate limits"
  docsbot jobs get 6f2c9e1a --format json
  docsbot jobs message 6f2c9e1a --prompt "Also update the changelog"
  docsbot jobs watch 6f2c9e1a

Run 'docsbot jobs <subcommand> -h' for its flags.
`)
		}}, args)
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
