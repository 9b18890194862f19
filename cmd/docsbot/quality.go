package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/csvexport"
	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/store"
)

const qualityUsage = `Usage:
  docsbot quality [--since 7d] [--project NAME] [--team ID] [--format text|json|csv] [flags]

Prints how the questions docsbot answered from the docs came out, per
project, from what the bot keeps in Redis (90 days): the questions asked
over the days since --since (7d: the last 7 days, today included, UTC; or a
first day, 2026-11-01) and over as many days before: answered with sources,
resolved without a human, resolved by an expert, handed off, uncertain,
rated, no signal (open 3 days without one), the median time from a
question to the first text of its answer, and the topics of the questions
docsbot could not answer well (answered uncertain, or rated unhelpful by
their asker), most asked first. What /docs-health quality shows in Slack.

--since spans at most 45 days, so that it and the days before it are kept.
--project names one project of DOCSBOT_PROJECTS_FILE or connected in Slack;
without it, each project of the file (without the file, the one project)
and each project a workspace connected in Slack (NAME@TEAM, in that
workspace alone; needs no DOCSBOT_SECRETS_KEY: no key is read). Each workspace's
questions are reported apart (one workspace never sees another's): --team
names one (its id, T…); without it, every workspace with questions.

Formats: text, json (the reports as the bot reads them), csv (two rows a
project: the span and the one before; no question's words).

Reads REDIS_URL, DOCSBOT_REDIS_PREFIX and DOCSBOT_PROJECTS_FILE like the bot.

Examples:
  docsbot quality
  docsbot quality --since 30d --format json | jq '.[].period'
`

// runQuality prints the quality reports of the projects asked for.
func (r *runner) runQuality(ctx context.Context, args []string) error {
	fs := r.flagSet("quality", qualityUsage)
	t := config.Table()
	flags := settings.Table{t.Of(config.EnvRedisURL), t.Of(config.EnvRedisPrefix), t.Of(config.EnvProjectsFile)}.Flags(fs, false)
	since := fs.String("since", "7d", "the days to report on: 7d (the last 7, today included) or a first day (2026-11-01)")
	name := fs.String("project", "", "only this project of DOCSBOT_PROJECTS_FILE")
	team := fs.String("team", "", "only the questions of this workspace (its id, T…)")
	format := cli.NewFormat("text", "json", "csv")
	fs.Var(format, "format", format.Usage())
	if err := r.parseFlagsOnly(fs, args, "quality", "the span goes in --since, e.g. --since 30d"); err != nil {
		return err
	}
	now := r.now()
	rng, perr := daterange.Parse(strings.ToLower(strings.TrimSpace(*since)), daterange.Midnight(now), false)
	if perr != nil || rng.Days() > outcome.MaxReportDays {
		problem := fmt.Sprintf("more than %d days", outcome.MaxReportDays)
		if perr != nil {
			problem = perr.Problem
		}
		return cli.Usage("--since: "+problem, fmt.Sprintf("give 7d, 30d (at most %dd) or a first day such as 2026-11-01", outcome.MaxReportDays))
	}
	s, err := r.env().Source(flags())
	if err != nil {
		return err
	}
	key := strings.TrimSpace(*name)
	keys := []string{key}
	switch {
	case key == project.ImplicitName && s.Value(config.EnvProjectsFile) == "":
		keys[0] = "" // the implicit project's records name none (bot.ProjectKey)
	case key == "":
		if keys, err = r.env().ProjectKeys(s); err != nil {
			return err
		}
	}
	st, err := storeOf(ctx, s)
	if err != nil {
		return err
	}
	defer st.Close()
	failed := func(err error) error {
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "reading the questions' outcomes: " + store.Cause(err), Fix: store.Fix(err)}
	}
	wanted := strings.TrimSpace(*team)
	var of []qualityOf
	for _, k := range keys {
		of = append(of, qualityOf{key: k, team: wanted})
	}
	connected, err := connectedQuality(ctx, st, key, wanted)
	if err != nil {
		return failed(err)
	}
	if key != "" && len(connected) > 0 {
		// NAME is a project connected in Slack: the file's, if it has one
		// by that name, besides.
		if fileKeys, err := r.env().ProjectKeys(s); err != nil || !slices.Contains(fileKeys, key) {
			of = nil
		}
	}
	var reports []outcome.Report
	for _, q := range append(of, connected...) {
		teams := []string{q.team}
		if teams[0] == "" {
			if teams, err = st.Outcomes().OutcomeTeams(ctx, q.key); err != nil {
				return failed(err)
			}
		}
		if len(teams) == 0 {
			teams = []string{""} // no questions: a report of none
		}
		for _, tm := range teams {
			rep, err := outcome.Read(ctx, st.Outcomes(), q.key, tm, rng.First, rng.Last, now)
			if err != nil {
				return failed(err)
			}
			reports = append(reports, rep)
		}
	}
	switch format.Value {
	case "json":
		return term.WriteJSON(r.stdout, reports)
	case "csv":
		return csvexport.WriteQuality(r.stdout, reports)
	}
	return term.WriteQuality(r.stdout, reports)
}

// qualityOf is a project whose report is printed: its key, and the one
// workspace it is read in ("" for every workspace with questions).
type qualityOf struct{ key, team string }

// connectedQuality are the projects connected in Slack (store.Connections)
// whose reports are printed: each in the workspace that connected it, in
// workspace team alone when it is given, those named name alone when it is.
func connectedQuality(ctx context.Context, st *store.Store, name, team string) ([]qualityOf, error) {
	conns := st.Connections(nil) // names only: no key is opened
	teams := []string{team}
	if team == "" {
		var err error
		if teams, err = conns.Teams(ctx); err != nil {
			return nil, err
		}
	}
	var out []qualityOf
	for _, tm := range teams {
		names, err := conns.Names(ctx, tm)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if name == "" || n == name {
				out = append(out, qualityOf{key: bot.ProjectKey(project.Project{Name: n, Workspace: tm}), team: tm})
			}
		}
	}
	return out, nil
}
