// Command docsbot-load measures the docsbot Slack bot under load.
//
// It runs the real bot binary (`docsbot serve`) as a separate process against
// an in-process fake Slack, the docs API test server and a real redis-server,
// all on loopback, so that the CPU time and memory it reads from /proc are the
// bot's alone. Each scenario stops by itself and prints a report; --json
// prints the same figures for machines.
//
//	docsbot-load acks      slash-command ack latency and cost of starting jobs
//	docsbot-load polls     polling many jobs: poll lag, results, Redis memory
//	docsbot-load schedule  get-job calls per job against its running time
//	docsbot-load chaos     replicas and Redis killed under load: nothing lost, nothing doubled;
//	                       with --rolling, replicas replaced by rolling updates instead
//	docsbot-load scale     100,000 tracked jobs over 1, 2 and 4 replicas, standalone Redis and Cluster
//	docsbot-load idle      replicas at rest (300 jobs, none due): CPU and Redis commands a second; then commands per poll
//	docsbot-load answers   /docs-ask answers streamed: first text after the assistant's first delta, Slack calls and Redis commands per answer;
//	                       with --concurrent N, N at once from a slow assistant: memory per stream, none lost
//	docsbot-load follow-ups thread replies sent to their jobs: Redis commands and Slack calls per follow-up
//	docsbot-load deploys   /docs-deploy followed to its end: Redis commands and Slack calls per deployment
//	docsbot-load workspaces install mode: workspaces that add docsbot by link, each then sending a message: memory and Redis per installation
//	docsbot-load chatter   people's messages in help channels in auto over two replicas: CPU (beside bare bots) and Redis per message, questions answered once
//
// BENCHMARKS.md at the repository root records the figures and how they were
// taken.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

const usage = `docsbot-load measures the docsbot bot binary under load, against a fake
Slack, the docs API test server and a local redis-server (loopback only).

Usage:
  docsbot-load acks     [--rate 20] [--commands 600] [--create-latency 2s] [--peer bare|same-work|none]
  docsbot-load polls    [--jobs 10000] [--duration 3m] [--interval 10s] [--max-interval 1m] [--active 2m]
  docsbot-load schedule [--interval 10s] [--max-interval 1m] [--scale 500]
  docsbot-load chaos    [--replicas 3] [--commands 120] [--kill-every 4s] [--redis-down 3s] [--runs 1]
  docsbot-load chaos    --rolling [--replicas 3] [--commands 150] [--rate 2.5] [--grace 30s] [--slack-latency 250ms] [--runs 1]
  docsbot-load idle     [--jobs 300] [--replicas 1] [--window 10s] [--polls 10s] [--cluster]
  docsbot-load answers  [--questions 100] [--concurrency 4] [--delta-delay 400ms]
                        [--auto [--over 2m] [--channels 20]] [--concurrent 100 [--assistant-latency 5s]] [--idle 2s] [--settle 1s]
  docsbot-load follow-ups [--jobs 50] [--rate 5] [--idle 2s] [--settle 1s]
  docsbot-load deploys  [--deploys 50] [--rate 0.8] [--idle 2s] [--settle 1s]
  docsbot-load chatter  [--per-minute 2000] [--channels 200] [--question-every 10] [--duration 1m] [--replicas 2] [--peer bare|none]
  docsbot-load workspaces [--installations 1000] [--window 10s] [--settle 3s]
  docsbot-load scale    [--jobs 100000] [--burst 10000] [--replicas 1,2,4] [--redis standalone,cluster] [--interval 2m] [--window 2m]

Every scenario takes --bin PATH (a docsbot binary; default: build ./cmd/docsbot),
--bot-env KEY=VALUE (repeatable, extra environment for the bot, such as
GODEBUG=gctrace=1), --json and --quiet. Run "docsbot-load SCENARIO -h" for its flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "docsbot-load:", err)
		os.Exit(1)
	}
}

// run runs one scenario named by args[0] and writes its report to stdout;
// progress goes to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return flag.ErrHelp
		}
		return nil
	}
	name, rest := args[0], args[1:]
	switch name {
	case bareBotCommand: // not in the usage: the acks scenario runs it
		return runBareBot(ctx, stderr)
	case sameWorkBotCommand: // not in the usage: acks --peer same-work runs it
		return runSameWorkBot(ctx, stderr)
	case "acks":
		var o acksOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		res, err := runAcksSeries(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	case "polls":
		var o pollsOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		res, err := runPolls(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	case "chaos":
		var o chaosOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		res, err := runChaosSeries(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	case "scale":
		var o scaleOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		res, err := runScale(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	case "idle":
		var o idleOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		res, err := runIdle(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	case "answers":
		var o answersOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		if o.concurrent > 0 {
			if o.deltaDelay <= 0 || o.assistantLatency < 0 {
				return errors.New("answers --concurrent: --delta-delay must be positive, --assistant-latency not negative")
			}
			res, err := runConcurrentAnswers(ctx, c.env(stderr), o)
			if res == nil {
				return err
			}
			return c.emit(stdout, res, err)
		}
		if o.auto {
			if o.questions <= 0 || o.channels <= 0 || o.over <= 0 {
				return errors.New("answers --auto: --questions, --channels and --over must be positive")
			}
			res, err := runAutoAnswers(ctx, c.env(stderr), o)
			if res == nil {
				return err
			}
			return c.emit(stdout, res, err)
		}
		res, err := runAnswers(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	case "follow-ups":
		var o followUpsOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		res, err := runFollowUps(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	case "deploys":
		var o deploysOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		res, err := runDeploys(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	case "chatter":
		var o chatterOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		res, err := runChatter(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	case "workspaces":
		var o workspacesOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		res, err := runWorkspaces(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	case "schedule":
		var o scheduleOptions
		c, err := parseFlags(name, rest, stderr, o.register)
		if err != nil {
			return err
		}
		res, err := runSchedule(ctx, c.env(stderr), o)
		if res == nil {
			return err
		}
		return c.emit(stdout, res, err)
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown scenario %q", name)
}

// commonFlags are the flags every scenario takes.
type commonFlags struct {
	bin    string
	botEnv envList
	json   bool
	quiet  bool
	stderr io.Writer
}

// envList is a repeatable KEY=VALUE flag.
type envList []string

func (e *envList) String() string { return strings.Join(*e, " ") }

func (e *envList) Set(v string) error {
	if k, _, ok := strings.Cut(v, "="); !ok || k == "" {
		return fmt.Errorf("%q is not KEY=VALUE", v)
	}
	*e = append(*e, v)
	return nil
}

// parseFlags parses a scenario's flags: the common ones and those register
// adds.
func parseFlags(name string, args []string, stderr io.Writer, register func(*flag.FlagSet)) (*commonFlags, error) {
	fs := flag.NewFlagSet("docsbot-load "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &commonFlags{stderr: stderr}
	fs.StringVar(&c.bin, "bin", "", "docsbot binary to measure (default: go build ./cmd/docsbot into a temporary directory)")
	fs.Var(&c.botEnv, "bot-env", "extra KEY=VALUE for the bot's environment (repeatable)")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress lines on stderr")
	register(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%s: unexpected arguments %q", name, fs.Args())
	}
	return c, nil
}

// env is what a scenario runs with besides its own options.
type env struct {
	bin    string
	botEnv []string
	log    *slog.Logger
}

func (c *commonFlags) env(stderr io.Writer) env {
	var h slog.Handler = slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo})
	if c.quiet {
		h = slog.DiscardHandler
	}
	return env{bin: c.bin, botEnv: c.botEnv, log: slog.New(h)}
}

// emit prints a scenario's report and passes its error on. A report whose
// correctness checks failed is printed and turned into an error.
func (c *commonFlags) emit(stdout io.Writer, r report, err error) error {
	var werr error
	if c.json {
		werr = writeJSON(stdout, r)
	} else {
		werr = writeText(stdout, r)
	}
	if err != nil {
		return err
	}
	if werr != nil {
		return fmt.Errorf("writing the report: %w", werr)
	}
	if problems := r.problems(); len(problems) > 0 {
		return fmt.Errorf("correctness checks failed: %s", strings.Join(problems, "; "))
	}
	return nil
}
