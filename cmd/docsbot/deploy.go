package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/secret"
)

const deployUsage = `Usage:
  docsbot deploy [--wait] [flags]
  docsbot deploy <subcommand> [arguments] [flags]

Deploys the docs, deploys a preview of a branch, or shows a deployment.

Subcommands:
`

// Defaults of the polling of deploy --wait: deployments take a minute or
// two, and the API publishes no limit for their status.
const (
	deployInterval    = 3 * time.Second
	deployMaxInterval = 15 * time.Second
)

// runDeploy starts a deployment, or runs a deploy subcommand.
func (r *runner) runDeploy(ctx context.Context, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return r.runDeployStart(ctx, args)
	}
	return cli.Group{Path: "docsbot deploy", Prefix: "deploy: ", Noun: "subcommand",
		Commands: []cli.Command{
			{Name: "preview", Summary: "deploy a preview of a branch and print its address", Run: r.runDeployPreview},
			{Name: "status", Summary: "show a deployment or preview: state, commit, logs", Run: r.runDeployStatus},
		},
		Head: deployUsage,
		Tail: func(w io.Writer) {
			fmt.Fprint(w, `
Examples:
  docsbot deploy
  docsbot deploy --wait
  docsbot deploy preview feature/webhooks --wait
  docsbot deploy status 65a1f0c2e4b0a1b2c3d4e5f6 --format json

Run 'docsbot deploy <subcommand> -h' for its flags.
`)
		}}.Dispatch(ctx, args, r.stdout, r.stderr)
}

// deployFlags are the flags of following a deployment.
type deployFlags struct {
	wait                  *bool
	interval, maxInterval *time.Duration
	timeout               *time.Duration
}

// addDeployFlags adds --wait (when wait) and the polling flags to cmd.
func addDeployFlags(cmd *apiCommand, waitUsage string) deployFlags {
	f := deployFlags{wait: new(bool)}
	if waitUsage != "" {
		f.wait = cmd.Bool("wait", false, waitUsage)
	}
	f.interval = cmd.Duration("interval", deployInterval, "with --wait: wait before the second poll")
	f.maxInterval = cmd.Duration("max-interval", deployMaxInterval, "with --wait: longest wait between polls")
	f.timeout = cmd.Duration("timeout", 0, "with --wait: stop waiting after this long, e.g. 10m (0: no limit)")
	cmd.Lookup("format").Usage += " (json: the status on stdout, progress on stderr)"
	return f
}

func (f deployFlags) check() error {
	switch {
	case *f.interval <= 0:
		return cli.Usage("--interval must be positive, e.g. --interval 3s", "")
	case *f.maxInterval < *f.interval:
		return cli.Usage(fmt.Sprintf("--max-interval (%s) must not be shorter than --interval (%s)", *f.maxInterval, *f.interval), "")
	case *f.timeout < 0:
		return cli.Usage("--timeout must be 0 (no limit) or positive, e.g. --timeout 10m", "")
	}
	return nil
}

const deployStartUsage = `Usage:
  docsbot deploy [--wait] [flags]
  docsbot deploy preview BRANCH [--wait] [flags]
  docsbot deploy status ID [--wait] [flags]

Without a subcommand, deploys the docs: queues a deployment of the project's
deployment branch and prints its status ID. With --wait it follows the
deployment until it succeeds or fails, showing its progress and log lines,
then prints its summary. 'docsbot deploy help' lists the subcommands.

The request is not retried on a timeout or a server error, since it may have
queued a deployment: check the dashboard before deploying again. The API
allows 10 deployments per 10 seconds per organization.

Exit status: 0 started (with --wait: succeeded), 1 failed or timed out,
2 usage, 130 interrupted. Interrupting only stops watching: the deployment
goes on.

Examples:
  docsbot deploy
  docsbot deploy --wait --timeout 10m
  docsbot deploy --format json
`

// runDeployStart deploys the docs.
func (r *runner) runDeployStart(ctx context.Context, args []string) error {
	cmd := r.apiCommand("deploy", deployStartUsage, "table", "json")
	f := addDeployFlags(cmd, "follow the deployment until it succeeds or fails")
	pos, err := cmd.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usage(fmt.Sprintf("deploy: unknown subcommand %q: run 'docsbot deploy help' for the list", pos[0]), "")
	}
	if err := f.check(); err != nil {
		return err
	}
	c, err := cmd.client()
	if err != nil {
		return err
	}
	d, err := c.Deploy(ctx)
	if err != nil {
		return cmd.explain(err, term.OpDeploy, "")
	}
	return r.afterDeployStart(ctx, cmd, c, f, d, "deployment")
}

// afterDeployStart shows a started deployment or preview, and follows it
// with --wait.
func (r *runner) afterDeployStart(ctx context.Context, cmd *apiCommand, c *docsapi.Client, f deployFlags, d *docsapi.Deployment, what string) error {
	if !*f.wait {
		return term.WriteDeployStarted(r.stdout, d, cmd.format.Value, what)
	}
	info := r.stdout
	if cmd.format.Value == "json" {
		info = r.stderr
	}
	fmt.Fprintf(info, "Started %s %s\n", what, term.Printable(d.StatusID))
	if d.PreviewURL != "" {
		fmt.Fprintf(info, "preview: %s\n", term.Printable(d.PreviewURL))
	}
	return r.followDeploy(ctx, cmd, c, f, d.StatusID)
}

// followDeploy polls the deployment id to its end, showing progress and new
// log lines, then shows it; a failed deployment exits 1.
func (r *runner) followDeploy(ctx context.Context, cmd *apiCommand, c *docsapi.Client, f deployFlags, id string) error {
	out := r.stdout
	if cmd.format.Value == "json" {
		out = r.stderr
	}
	p := term.NewDeployProgress(out, id, r.now)
	wctx := ctx
	if *f.timeout > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, *f.timeout)
		defer cancel()
	}
	logged := 0 // log lines shown so far
	st, err := c.WatchDeploy(wctx, id, docsapi.DeployWatchOptions{First: *f.interval, Max: *f.maxInterval, Sleep: p.Sleep,
		OnStatus: func(st *docsapi.DeployStatus, changed bool) {
			p.UpdateDeploy(st.Status, changed)
			if len(st.Logs) < logged {
				logged = 0 // the logs started over
			}
			for _, l := range st.Logs[logged:] {
				p.Note("  " + term.Printable(secret.Redact(l)))
			}
			logged = len(st.Logs)
		},
		OnRetry: func(err error, wait time.Duration) {
			msg := "polling failed"
			if ee, ok := errors.AsType[*cli.Error](cmd.explain(err, term.OpDeployWatch, id)); ok {
				msg = ee.Msg
			}
			p.Note(fmt.Sprintf("%s; polling again in %s", msg, term.Elapsed(wait)))
		}})
	p.Clear()
	if err != nil {
		resume := "the deployment goes on; resume with: docsbot deploy status " + id + " --wait"
		switch {
		case ctx.Err() != nil:
			return &cli.Error{Code: cli.ExitInterrupted, Err: err, Fix: resume,
				Msg: fmt.Sprintf("interrupted: stopped watching deployment %s (last status: %s)", id, p.StatusText())}
		case wctx.Err() != nil:
			return &cli.Error{Code: cli.ExitFailure, Err: err, Fix: resume,
				Msg: fmt.Sprintf("timed out after %s watching deployment %s (last status: %s)", *f.timeout, id, p.StatusText())}
		}
		return cmd.explain(err, term.OpDeployWatch, id)
	}
	if cmd.format.Value == "json" {
		if err := term.WriteJSON(r.stdout, st); err != nil {
			return err
		}
	} else {
		// The log lines were shown as they came.
		shown := *st
		shown.Logs = nil
		if err := term.WriteDeployStatus(r.stdout, &shown); err != nil {
			return err
		}
	}
	return deployOutcome(id, st)
}

// deployOutcome is the error of a deployment that failed, nil otherwise.
func deployOutcome(id string, st *docsapi.DeployStatus) error {
	if st.Status != docsapi.DeployFailure {
		return nil
	}
	msg := "deployment " + id + " failed"
	if st.Summary != "" {
		msg += ": " + term.Printable(st.Summary)
	}
	return &cli.Error{Code: cli.ExitFailure, Msg: msg,
		Fix: "see the logs above (all of them: docsbot deploy status " + id + " --format json) and the deployments in your docs dashboard"}
}
