package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/docsbot/docsbot/cmd/internal/cli"
)

// maxPromptBytes bounds a prompt read from standard input.
const maxPromptBytes = 1 << 20

// runJobs runs the jobs subcommands.
func (r *runner) runJobs(ctx context.Context, args []string) error {
	return cli.Group{Path: "docsbot jobs", Prefix: "jobs: ", Noun: "subcommand",
		Commands: []cli.Command{
			{Name: "create", Summary: "start an agent job with an instruction", Run: r.runJobsCreate},
			{Name: "get", Summary: "show a job: status, model, repository, pull request", Run: r.runJobsGet},
			{Name: "message", Summary: "send a follow-up instruction to a job", Run: r.runJobsMessage},
			{Name: "watch", Summary: "follow a job until it finishes and show its pull request", Run: r.runJobsWatch},
		},
		Head: "Usage:\n  docsbot jobs <subcommand> [arguments] [flags]\n\nSubcommands:\n",
		Tail: func(w io.Writer) {
			fmt.Fprint(w, `
Examples:
  docsbot jobs create --prompt "Document the new rate limits"
  docsbot jobs get 6f2c9e1a --format json
  docsbot jobs message 6f2c9e1a --prompt "Also update the changelog"
  docsbot jobs watch 6f2c9e1a

Run 'docsbot jobs <subcommand> -h' for its flags.
`)
		}}.Dispatch(ctx, args, r.stdout, r.stderr)
}

// resolvePrompt resolves the instruction of create and message: --prompt TEXT,
// --prompt - (read standard input) or the remaining arguments as words.
func (r *runner) resolvePrompt(flagValue string, flagSet bool, words []string) (string, error) {
	var prompt string
	switch {
	case flagSet && len(words) > 0:
		return "", cli.Usage("give the prompt either with --prompt or as arguments, not both",
			"quote it: --prompt \"...\"")
	case flagSet && flagValue == "-":
		b, err := io.ReadAll(io.LimitReader(r.stdin, maxPromptBytes+1))
		if err != nil {
			return "", &cli.Error{Code: cli.ExitUsage, Err: err, Msg: "--prompt -: reading standard input: " + err.Error()}
		}
		if len(b) > maxPromptBytes {
			return "", cli.Usage("--prompt -: the prompt on standard input is over 1 MiB", "")
		}
		prompt = string(b)
	case flagSet:
		prompt = flagValue
	default:
		prompt = strings.Join(words, " ")
	}
	prompt = strings.TrimSpace(prompt)
	if prompt == "" {
		return "", cli.Usage("--prompt is required: say what the agent should do",
			`e.g. --prompt "Document the new rate limits", or --prompt - to read it from standard input`)
	}
	return prompt, nil
}

// jobID checks the single job ID argument of get, message and watch.
func jobID(cmd string, pos []string, extra bool) (string, []string, error) {
	if len(pos) == 0 || strings.TrimSpace(pos[0]) == "" {
		return "", nil, cli.Usage("jobs "+cmd+": missing job ID", "usage: docsbot jobs "+cmd+" ID (see docsbot jobs "+cmd+" -h)")
	}
	if !extra && len(pos) > 1 {
		return "", nil, cli.Usage(fmt.Sprintf("jobs %s: unexpected argument %q after the job ID", cmd, pos[1]), "")
	}
	return pos[0], pos[1:], nil
}
