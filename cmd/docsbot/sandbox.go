//go:build !nosandbox

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/ops"
	"github.com/docsbot/docsbot/bot/sandbox"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/store"
)

const sandboxUsage = `docsbot sandbox [flags]

Runs the whole product on this machine with nothing to configure, and serves
a web page that looks and behaves like a Slack channel. The real bot talks to
a fake Slack workspace over Socket Mode, to the docs API test server, and to an
embedded Redis-compatible store. No Slack app, API key or network is needed.

On the page, type /docs-agent <instruction>, reply in the job's thread, and try
/docs-visitors 30d. Put [fail], [no-change] or [archive] in an instruction to
see the other ways a job ends.

With REDIS_URL set in the environment the sandbox keeps its state in that
Redis instead, under a key prefix of its own that it deletes on exit.

Ctrl-C stops it.
`

// runSandbox runs `docsbot sandbox` until ctx ends (Ctrl-C).
func (r *runner) runSandbox(ctx context.Context, args []string) error {
	fs := r.flagSet("sandbox", sandboxUsage)
	addr := fs.String("addr", "localhost:3000", "address of the web page, host:port")
	agentTime := fs.Duration("agent-time", 6*time.Second, "how long the fake agent's jobs stay active")
	paths := fs.Int("paths", 400, "number of pages of the made-up docs site (visitors data)")
	pos, err := r.parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return cli.Usage("docsbot sandbox takes no arguments, got "+strings.Join(pos, " "), "run 'docsbot help sandbox' for its flags")
	case *agentTime <= 0:
		return cli.Usage(fmt.Sprintf("--agent-time %v must be positive", *agentTime), "use a duration such as 6s or 1m")
	case *paths < 1 || *paths > 100000:
		return cli.Usage(fmt.Sprintf("--paths %d must be between 1 and 100000", *paths), "the default, 400, is a mid-sized docs site")
	}

	log := ops.NewLogger(r.stderr, "text", slog.LevelInfo)
	redisURL, _ := r.lookupEnv(config.EnvRedisURL)
	redisURL = strings.TrimSpace(redisURL)
	sb, err := sandbox.Start(ctx, sandbox.Options{
		Addr:         *addr,
		AgentTime:    *agentTime,
		Paths:        *paths,
		RedisURL:     redisURL,
		PollInterval: time.Second,
		PollMax:      3 * time.Second,
		Log:          log,
	})
	var opErr *net.OpError
	switch {
	case errors.As(err, &opErr) && opErr.Op == "listen":
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: err.Error(),
			Fix: "pick another address with --addr, such as --addr localhost:3001"}
	case errors.Is(err, store.ErrUnreachable), errors.Is(err, store.ErrAuth), errors.Is(err, store.ErrBadURL):
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: err.Error(),
			Fix: "start Redis, or unset " + config.EnvRedisURL + " to use the embedded store (now: " + store.RedactURL(redisURL) + ")"}
	case err != nil:
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "the sandbox did not start: " + err.Error()}
	}
	fmt.Fprintf(r.stdout, "docsbot sandbox: open %s\n", sb.URL())
	fmt.Fprintln(r.stdout, "Press Ctrl-C to stop it.")
	runErr := sb.Wait(ctx)
	closeErr := sb.Close()
	if runErr != nil {
		return &cli.Error{Code: cli.ExitFailure, Err: runErr, Msg: "the sandbox stopped: " + runErr.Error()}
	}
	if closeErr != nil {
		return &cli.Error{Code: cli.ExitFailure, Err: closeErr, Msg: "the sandbox did not stop cleanly: " + closeErr.Error()}
	}
	log.Info("docsbot sandbox stopped")
	return nil
}
