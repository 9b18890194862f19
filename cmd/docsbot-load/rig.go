package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// The fake workspace the scenarios use: slacktest's defaults, the channel
// and the person every slacktest.Server starts with. The tokens and the
// bot's user id come from the server (BotToken, AppToken, BotUserID).
const (
	loadTeam    = "T0TEST"
	loadChannel = "C0GENERAL"
	loadUser    = "U0ALICE"
	// connectTimeout bounds the bot's start until its Socket Mode connection.
	connectTimeout = 30 * time.Second
)

// rigOptions configures a rig.
type rigOptions struct {
	bin string // the docsbot binary
	// args are the arguments bin runs with: nil for `serve`.
	args   []string
	botEnv []string
	api    []docsapitest.Option
	redis  []redistest.Option
	slack  []slacktest.Option
	// sentinel runs Redis as a primary, a replica and three sentinels
	// instead of one server (redis options are then ignored).
	sentinel bool
	// cluster runs Redis as a Cluster of three primaries instead of one
	// server (redis options are then ignored).
	cluster bool
}

// rig is everything a scenario runs against: a redis-server, the fake Slack,
// the docs API test server, and the bot process once started.
type rig struct {
	log *slog.Logger
	dir string // the bot's working directory: empty, so no .env is read
	bin string
	// args are the arguments bin runs with: nil for `serve`.
	args  []string
	extra []string

	redis *redistest.Server
	// redisURL is what the bots are given: the server's, or the sentinels'.
	redisURL string
	sentinel *redistest.Sentinels
	cluster  *redistest.Cluster
	store    *store.Store
	slack    *slacktest.Server
	api      *docsapitest.Server
	bot      *botProcess
}

// newRig starts the servers; startBot starts the bot.
func newRig(log *slog.Logger, o rigOptions) (_ *rig, err error) {
	r := &rig{log: log, extra: o.botEnv}
	defer func() {
		if err != nil {
			r.close()
		}
	}()
	if r.dir, err = os.MkdirTemp("", "docsbot-load-"); err != nil {
		return nil, fmt.Errorf("temp dir: %w", err)
	}
	r.bin, r.args = o.bin, o.args
	switch {
	case o.sentinel:
		if r.sentinel, err = redistest.StartSentinel(); err != nil {
			return nil, fmt.Errorf("redis with sentinels: %w", err)
		}
		r.redisURL = r.sentinel.URL
	case o.cluster:
		if r.cluster, err = redistest.StartCluster(); err != nil {
			return nil, fmt.Errorf("redis cluster: %w", err)
		}
		r.redisURL = r.cluster.URL
	default:
		if r.redis, err = redistest.Start(o.redis...); err != nil {
			return nil, fmt.Errorf("redis-server: %w", err)
		}
		r.redisURL = r.redis.URL
	}
	if r.store, err = store.Open(context.Background(), r.redisURL); err != nil {
		return nil, fmt.Errorf("redis-server: %w", err)
	}
	r.slack = slacktest.NewServer(o.slack...)
	if r.api, err = docsapitest.Start(o.api...); err != nil {
		return nil, fmt.Errorf("docs API test server: %w", err)
	}
	return r, nil
}

// botEnv is the bot's whole environment: the servers, the given settings,
// then --bot-env.
func (r *rig) botEnv(settings []string) []string {
	env := []string{
		"HOME=" + r.dir,
		"PATH=" + os.Getenv("PATH"),
		"SLACK_BOT_TOKEN=" + r.slack.BotToken(),
		"SLACK_APP_TOKEN=" + r.slack.AppToken(),
		"SLACK_API_URL=" + r.slack.APIURL,
		"DOCS_API_URL=" + r.api.URL,
		"DOCS_API_KEY=" + r.api.Key,
		"DOCS_PROJECT_ID=" + r.api.ProjectID,
		"REDIS_URL=" + r.redisURL,
		"DOCSBOT_LOG_LEVEL=warn",
		// The bot's /healthz and /metrics listener: loopback, any free port,
		// so that runs side by side do not collide.
		"DOCSBOT_HTTP_ADDR=127.0.0.1:0",
	}
	env = append(env, settings...)
	return append(env, r.extra...)
}

// startBot runs the bot with settings (KEY=VALUE) and waits for its Socket
// Mode connection.
func (r *rig) startBot(ctx context.Context, settings ...string) error {
	args := r.args
	if args == nil {
		args = []string{"serve"}
	}
	p, err := startProcess(r.bin, args, r.dir, r.botEnv(settings), nil)
	if err != nil {
		return err
	}
	r.bot = p
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := r.slack.WaitConnections(cctx, 1); err != nil {
		if aerr := p.alive(); aerr != nil {
			return aerr
		}
		return fmt.Errorf("the bot did not connect to the fake Slack: %w\n%s", err, p.output())
	}
	r.log.Info("bot connected", "pid", p.pid, "binary", r.bin)
	return nil
}

// waitSlack waits until cond, which reads the fake Slack, holds. It looks
// again after each change there (slacktest's WaitFor), but at most once per
// every: a busy run changes the fake Slack thousands of times a second, and
// scanning it that often would take CPU from the bot being measured. It
// gives up when ctx ends or the bot exits, with the bot's exit as the error.
func (r *rig) waitSlack(ctx context.Context, every time.Duration, cond func() bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if r.bot != nil {
		go func() {
			select {
			case <-r.bot.done:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	var last time.Time
	err := r.slack.WaitFor(ctx, func() bool {
		if wait := time.Until(last.Add(every)); wait > 0 && !sleep(ctx, wait) {
			return false
		}
		last = time.Now()
		return cond()
	})
	if err != nil && r.bot != nil {
		if aerr := r.bot.alive(); aerr != nil {
			return aerr
		}
	}
	return err
}

// stopBot stops the bot, if it runs.
func (r *rig) stopBot() error {
	if r.bot == nil {
		return nil
	}
	return r.bot.stop()
}

// close stops the bot and the servers and removes the temporary directory.
func (r *rig) close() {
	if r.bot != nil {
		if err := r.stopBot(); err != nil {
			r.log.Warn("stopping the bot", "err", err)
		}
	}
	if r.api != nil {
		r.api.Close()
	}
	if r.slack != nil {
		r.slack.Close()
	}
	if r.store != nil {
		_ = r.store.Close()
	}
	if r.redis != nil {
		_ = r.redis.Close()
	}
	if r.sentinel != nil {
		_ = r.sentinel.Close()
	}
	if r.cluster != nil {
		_ = r.cluster.Close()
	}
	if r.dir != "" {
		_ = os.RemoveAll(r.dir)
	}
}

// usedMemory is Redis's used_memory.
func (r *rig) usedMemory(ctx context.Context) (int64, error) { return r.store.Stats().UsedMemory(ctx) }

// sleep waits d or until ctx ends, and reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
