package main

import (
	"context"
	"slices"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/store"
)

const auditUsage = `Usage:
  docsbot audit [--since DURATION|DATE] [--project NAME] [--format json|csv] [flags]

Exports the audit trail the bot keeps in Redis, oldest first: every job
start, follow-up, result and refusal, with who (user), where (team,
channel), which project, what (action), when and how it ended (outcome). An
instruction is there as its SHA-256 and length, and as text only when the
bot runs with DOCSBOT_AUDIT_TEXT=true. Records older than
DOCSBOT_AUDIT_RETENTION (90 days by default) are not kept.

--since is a duration back from now (24h, 7d) or a date or time in UTC
(2026-11-01, 2026-11-01T09:00:00Z); without it, everything kept is exported.
--project keeps the records of one project: its name in
DOCSBOT_PROJECTS_FILE. Without that file the bot serves one project and its
records name none: --project default (or no --project) exports them all.

Formats: json (an array, one record a line) and csv (one row a record; cells
that a spreadsheet would read as a formula start with a quote).

A record is written at least once: two records with the same "work" and
"action" are one event written twice (a replica stopped in between), and
count once.

Reads REDIS_URL, DOCSBOT_REDIS_PREFIX and DOCSBOT_AUDIT_RETENTION like the
bot.

Examples:
  docsbot audit --since 24h
  docsbot audit --since 2026-11-01 --project docs --format csv > audit.csv
`

// runAudit exports the audit trail.
func (r *runner) runAudit(ctx context.Context, args []string) error {
	fs := r.flagSet("audit", auditUsage)
	// The settings it reads, only: --project is a project's name here, not
	// the docs API's project id.
	t := config.Table()
	flags := settings.Table{t.Of(config.EnvRedisURL), t.Of(config.EnvRedisPrefix), t.Of(config.EnvAuditRetention)}.Flags(fs, false)
	since := fs.String("since", "", "export from this long ago (24h, 7d) or this date or time (2026-11-01)")
	name := fs.String("project", "", "only the records of this project")
	format := cli.NewFormat("json", "csv")
	fs.Var(format, "format", format.Usage())
	err := r.parseFlagsOnly(fs, args, "audit", "the start goes in --since, e.g. --since 24h")
	if err != nil {
		return err
	}
	q := store.AuditQuery{Project: strings.ToLower(strings.TrimSpace(*name))}
	if *since != "" {
		if q.Since, err = cli.ParseSince(*since, r.now()); err != nil {
			return cli.Usage("--since: "+err.Error(), "give a duration such as 24h or 7d, or a date such as 2026-11-01")
		}
	}
	s, err := r.env().Source(flags())
	if err != nil {
		return err
	}
	if q.Project == project.ImplicitName && s.Value(config.EnvProjectsFile) == "" {
		q.Project = "" // the records of the implicit project name none (bot.ProjectKey)
	}
	st, err := storeOf(ctx, s, config.EnvAuditRetention)
	if err != nil {
		return err
	}
	defer st.Close()

	out, err := term.NewAuditExport(r.stdout, format.Value)
	if err != nil {
		return err
	}
	if err := st.AuditLog(config.AuditOptions(s)).Each(ctx, q, out.Write); err != nil {
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "exporting the audit trail: " + store.Cause(err), Fix: store.Fix(err)}
	}
	return out.Close()
}

// openStore connects to Redis as the bot does, or says why it cannot.
// storeOf opens the store that s names (REDIS_URL, DOCSBOT_REDIS_PREFIX),
// after refusing, as a usage error, a problem of those settings or of the
// others named (the command's own), secrets masked.
func storeOf(ctx context.Context, s settings.Source, others ...string) (*store.Store, error) {
	secrets := s.Secrets(config.EnvRedisURL)
	var problems []string
	for _, p := range s.Problems(func(v string) string { return bot.SecretKinds().Quote(v, secrets...) }) {
		if p.Env == config.EnvRedisURL || p.Env == config.EnvRedisPrefix || slices.Contains(others, p.Env) {
			problems = append(problems, bot.SecretKinds().Scrub(p.Text, secrets...))
		}
	}
	if len(problems) > 0 {
		return nil, cli.Usage(strings.Join(problems, "; "), "")
	}
	return openStore(ctx, s.Value(config.EnvRedisURL), s.Value(config.EnvRedisPrefix))
}

func openStore(ctx context.Context, url, prefix string, opts ...store.Option) (*store.Store, error) {
	st, err := store.Open(ctx, url, append([]store.Option{store.WithPrefix(prefix)}, opts...)...)
	if err != nil {
		return nil, &cli.Error{Code: cli.ExitFailure, Err: err,
			Msg: "cannot reach Redis at " + store.RedactURL(url) + ": " + store.Cause(err),
			Fix: store.Fix(err)}
	}
	return st, nil
}
