package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/redact"
	"github.com/docsbot/docsbot/cmd/internal/settings"
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
--project keeps the records of one project.

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
	t := settingsTable()
	flags := settings.Table{t.Of(envRedisURL), t.Of(envRedisPrefix), t.Of(envAuditRetention)}.Flags(fs, false)
	since := fs.String("since", "", "export from this long ago (24h, 7d) or this date or time (2026-11-01)")
	project := fs.String("project", "", "only the records of this project")
	format := newFormat("json", "csv")
	fs.Var(format, "format", format.usage())
	pos, err := r.parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError(fmt.Sprintf("audit: unexpected argument %q", pos[0]), "the start goes in --since, e.g. --since 24h")
	}
	q := store.AuditQuery{Project: *project}
	if *since != "" {
		if q.Since, err = parseSince(*since, r.now()); err != nil {
			return usageError("--since: "+err.Error(), "give a duration such as 24h or 7d, or a date such as 2026-11-01")
		}
	}
	s, err := r.source(flags())
	if err != nil {
		return err
	}
	secrets := s.secrets()
	var problems []string
	for _, p := range s.Problems(func(v string) string { return redact.Quote(v, secrets...) }) {
		if p.Env == envRedisURL || p.Env == envRedisPrefix || p.Env == envAuditRetention {
			problems = append(problems, redact.Scrub(p.Text, secrets...))
		}
	}
	if len(problems) > 0 {
		return usageError(strings.Join(problems, "; "), "")
	}
	st, err := openStore(ctx, s.Value(envRedisURL), s.Value(envRedisPrefix))
	if err != nil {
		return err
	}
	defer st.Close()

	out, err := newAuditExport(r.stdout, format.value)
	if err != nil {
		return err
	}
	if err := st.AuditLog(auditOptions(s)).Each(ctx, q, out.write); err != nil {
		return &exitError{code: exitFailure, err: err, msg: "exporting the audit trail: " + store.Cause(err), fix: store.Fix(err)}
	}
	return out.close()
}

// parseSince reads --since: a duration back from now (Go's, or whole days
// such as 7d), a date (midnight UTC) or an RFC 3339 time.
func parseSince(v string, now time.Time) (time.Time, error) {
	if days, ok := strings.CutSuffix(v, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n > 0 {
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil {
		if d <= 0 {
			return time.Time{}, fmt.Errorf("%q is not a positive duration", v)
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is neither a duration (24h, 7d) nor a date (2026-11-01) or time (2026-11-01T09:00:00Z)", v)
}

// openStore connects to Redis as the bot does, or says why it cannot.
func openStore(ctx context.Context, url, prefix string, opts ...store.Option) (*store.Store, error) {
	st, err := store.Open(ctx, url, append([]store.Option{store.WithPrefix(prefix)}, opts...)...)
	if err != nil {
		return nil, &exitError{code: exitFailure, err: err,
			msg: "cannot reach Redis at " + store.RedactURL(url) + ": " + store.Cause(err),
			fix: store.Fix(err)}
	}
	return st, nil
}
