package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/redact"
	"github.com/docsbot/docsbot/store"
)

const doctorUsage = `docsbot doctor [flags]

Checks the settings of the Slack bot and, with real calls, every service it
depends on, then prints one line per check and the fix for each failure:

  configuration     every setting of 'docsbot serve' is present and well formed
  Slack bot token   auth.test with SLACK_BOT_TOKEN
  Slack app token   apps.connections.open with SLACK_APP_TOKEN (Socket Mode);
                    no connection is opened
  docs API          DOCS_API_KEY and DOCS_PROJECT_ID read one row of today's
                    unique visitors. This costs one request of the analytics
                    budget (100 an hour for the whole organization).
  Redis             PING, then SET, GET and DEL of one key under docsbot:
                    that expires by itself; and, when Redis allows CONFIG GET,
                    that a memory limit never evicts docsbot's keys

Settings are read as by 'docsbot serve': flags, then the environment, then
./.env. Secrets are shown masked (xoxb-…abcd). The exit code is 0 when every
check passed and 1 otherwise.
`

// doctorTimeout is the default time limit of each check.
const doctorTimeout = 10 * time.Second

// checkState is how a doctor check ended.
type checkState int

const (
	checkPassed checkState = iota
	checkFailed
	checkSkipped // not run, because a setting it needs is missing or wrong
)

// checkResult is the outcome of one doctor check, as printed.
type checkResult struct {
	name  string
	state checkState
	// lines describe the outcome: the first on the check's line, the others
	// below it. They never hold a secret, at most its masked form.
	lines []string
	// fix tells what to do about a failure.
	fix string
}

func passed(name, line string) checkResult {
	return checkResult{name: name, state: checkPassed, lines: []string{line}}
}

func failed(name, line, fix string) checkResult {
	return checkResult{name: name, state: checkFailed, lines: []string{line}, fix: fix}
}

// result is the result of a check that a package made and worded.
func result(name string, ok bool, line, fix string) checkResult {
	if ok {
		return passed(name, line)
	}
	return failed(name, line, fix)
}

// dependency is one service check of the doctor: the settings it needs and
// how to run it.
type dependency struct {
	name string
	// needs lists the variables the check cannot run without.
	needs []string
	run   func(ctx context.Context) checkResult
}

// runDoctor checks the configuration and every dependency of the bot.
func (r *runner) runDoctor(ctx context.Context, args []string) error {
	fs := r.flagSet("doctor", doctorUsage)
	flags := settingFlags(fs, false)
	timeout := fs.Duration("timeout", doctorTimeout, "time limit of each check")
	pos, err := r.parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError(fmt.Sprintf("doctor takes no arguments, got %q", pos[0]), "run 'docsbot doctor' alone; 'docsbot help doctor' lists its flags")
	}
	if *timeout <= 0 {
		return usageError("--timeout must be positive", "for example --timeout 10s")
	}

	fmt.Fprintln(r.stdout, "docsbot doctor")
	cfg, cfgErr := r.loadServeConfig(flags())
	results := []checkResult{r.configCheck(cfg, cfgErr)}
	deps := r.dependencies(cfg)
	depResults := make([]checkResult, len(deps))
	var wg sync.WaitGroup
	for i, d := range deps {
		if why := blockedBy(cfg, cfgErr, d.needs); why != "" {
			depResults[i] = checkResult{name: d.name, state: checkSkipped, lines: []string{"not checked: " + why}}
			continue
		}
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, *timeout)
			defer cancel()
			depResults[i] = d.run(cctx)
		})
	}
	wg.Wait()
	results = append(results, depResults...)

	printChecks(r.stdout, results)
	if ctx.Err() != nil {
		return &exitError{code: exitInterrupted, msg: "interrupted", err: ctx.Err()}
	}
	for _, res := range results {
		if res.state != checkPassed {
			return &exitError{code: exitFailure, quiet: true, msg: "docsbot doctor found problems"}
		}
	}
	return nil
}

// configCheck turns the outcome of loadServeConfig into the first check.
func (r *runner) configCheck(cfg serveConfig, err error) checkResult {
	const name = "configuration"
	if err == nil {
		where := ".env: " + r.dotenvPath()
		if _, statErr := os.Stat(r.dotenvPath()); errors.Is(statErr, fs.ErrNotExist) {
			where = "environment only, no " + r.dotenvPath()
		}
		return passed(name, "all settings present ("+where+")")
	}
	res := checkResult{name: name, state: checkFailed}
	var ee *exitError
	if errors.As(err, &ee) {
		res.fix = ee.fix
	}
	var lines []string
	for _, p := range cfg.problems {
		lines = append(lines, p.text)
	}
	if len(lines) == 0 { // the settings could not be read at all
		if ee != nil {
			lines = []string{ee.msg}
		} else {
			lines = []string{err.Error()}
		}
	}
	for _, l := range lines {
		res.lines = append(res.lines, strings.Split(strings.TrimRight(l, "\n"), "\n")...)
	}
	return res
}

// blockedBy says why a check that needs the variables needs cannot run, or ""
// when it can.
func blockedBy(cfg serveConfig, cfgErr error, needs []string) string {
	if cfgErr != nil && len(cfg.problems) == 0 {
		return "the settings could not be read"
	}
	var bad []string
	for _, name := range needs {
		if slices.ContainsFunc(cfg.problems, func(p problem) bool { return slices.Contains(p.vars, name) }) {
			bad = append(bad, name)
		}
	}
	if len(bad) > 0 {
		return "fix " + strings.Join(bad, " and ") + " first"
	}
	return ""
}

// dependencies lists the service checks in the order they are printed.
func (r *runner) dependencies(cfg serveConfig) []dependency {
	return []dependency{
		{name: "Slack bot token", needs: []string{envSlackBotToken, envSlackAPIURL}, run: func(ctx context.Context) checkResult {
			c := bot.CheckBotToken(ctx, cfg.botToken, cfg.slackAPIURL, cfg.appToken)
			return result("Slack bot token", c.OK, c.Line, c.Fix)
		}},
		{name: "Slack app token", needs: []string{envSlackAppToken, envSlackAPIURL}, run: func(ctx context.Context) checkResult {
			c := bot.CheckAppToken(ctx, cfg.appToken, cfg.slackAPIURL, cfg.botToken)
			return result("Slack app token", c.OK, c.Line, c.Fix)
		}},
		{name: "docs API", needs: []string{envAPIKey, envProject, envAPIURL}, run: func(ctx context.Context) checkResult {
			return r.checkDocsAPI(ctx, cfg)
		}},
		{name: "Redis", needs: []string{envRedisURL}, run: func(ctx context.Context) checkResult {
			return checkRedis(ctx, cfg)
		}},
	}
}

// printChecks writes one line per check, with further lines and the fix of
// a failure indented below it, and a last line that sums up.
func printChecks(w io.Writer, results []checkResult) {
	const nameWidth = 20
	var nFailed, nSkipped int
	for _, res := range results {
		mark := "✓"
		switch res.state {
		case checkFailed:
			mark = "✗"
			nFailed++
		case checkSkipped:
			mark = "-"
			nSkipped++
		}
		first := ""
		if len(res.lines) > 0 {
			first = res.lines[0]
		}
		fmt.Fprintf(w, "  %s %-*s%s\n", mark, nameWidth, res.name, first)
		for _, l := range res.lines[min(1, len(res.lines)):] {
			fmt.Fprintf(w, "    %-*s%s\n", nameWidth, "", l)
		}
		if res.state == checkFailed && res.fix != "" {
			fmt.Fprintf(w, "      fix: %s\n", res.fix)
		}
	}
	switch {
	case nFailed == 0 && nSkipped == 0:
		fmt.Fprintf(w, "All %d checks passed.\n", len(results))
	case nSkipped == 0:
		fmt.Fprintf(w, "%s failed.\n", plural(nFailed, "check"))
	default:
		fmt.Fprintf(w, "%s failed, %d not run.\n", plural(nFailed, "check"), nSkipped)
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// checkDocsAPI tries the key and the project with one request (Client.Check).
func (r *runner) checkDocsAPI(ctx context.Context, cfg serveConfig) checkResult {
	client, err := newAPIClient(cfg.api)
	if err == nil {
		err = client.Check(ctx, r.now())
	}
	if ee, ok := errors.AsType[*exitError](explain(err, call{op: docsapi.OpVisitors, cfg: cfg.api, now: r.now()})); ok {
		if errors.Is(err, docsapi.ErrInvalidRequest) {
			ee.fix = "check " + envAPIURL + " (" + cfg.api.APIURL + "): the service did not accept a plain visitors query"
		}
		return failed("docs API", ee.msg, ee.fix)
	}
	return passed("docs API", fmt.Sprintf("%s can read project %s at %s", redact.MaskOr(cfg.api.APIKey), cfg.api.ProjectID, cfg.api.APIURL))
}

// checkRedis tries Redis with real commands (store.Check) and says what to
// do about a failure (store.Judge).
func checkRedis(ctx context.Context, cfg serveConfig) checkResult {
	rep, err := store.Check(ctx, cfg.redisURL, cfg.redisPrefix)
	v := store.Judge(cfg.redisURL, rep, err)
	return result("Redis", v.OK, v.Line, v.Fix)
}
