package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/store"
)

const workspacesUsage = `Usage:
  docsbot workspaces [list] [--format table|json]
  docsbot workspaces forget ID... 
  docsbot workspaces reseal

The workspaces that installed docsbot by link (install mode): who installed
it and when, when its token expires (with Slack's token rotation) and
whether it is broken (Slack refused to renew its token: the workspace must
add docsbot again).

  list     the installations (the default)
  forget   deletes the installation of each workspace (team id T…) or
           organisation (enterprise id E…) named: its tokens are gone at
           once, on every replica; its people are told to add docsbot again
  reseal   saves every installation again, sealed with the first key of
           DOCSBOT_SECRETS_KEY: after a new key was put first, run it before
           removing the old one

Reads REDIS_URL, DOCSBOT_REDIS_PREFIX and DOCSBOT_SECRETS_KEY like the bot.
No token is ever printed.
`

// runWorkspaces lists, forgets or reseals the installations.
func (r *runner) runWorkspaces(ctx context.Context, args []string) error {
	fs := r.flagSet("workspaces", workspacesUsage)
	t := config.Table()
	flags := settings.Table{t.Of(config.EnvRedisURL), t.Of(config.EnvRedisPrefix), t.Of(config.EnvSecretsKey)}.Flags(fs, false)
	format := cli.NewFormat("table", "json")
	fs.Var(format, "format", format.Usage())
	pos, err := r.parseFlags(fs, args)
	if err != nil {
		return err
	}
	verb := "list"
	if len(pos) > 0 {
		verb, pos = pos[0], pos[1:]
	}
	switch {
	case verb != "list" && verb != "forget" && verb != "reseal":
		return cli.Usage(fmt.Sprintf("workspaces: unknown subcommand %q", verb), "use list, forget or reseal")
	case verb == "forget" && len(pos) == 0:
		return cli.Usage("workspaces forget: name the workspaces (T…) or organisations (E…) to forget", "")
	case verb != "forget" && len(pos) > 0:
		return cli.Usage(fmt.Sprintf("workspaces %s: unexpected argument %q", verb, pos[0]), "")
	}
	s, err := r.env().Source(flags())
	if err != nil {
		return err
	}
	keys, err := store.ParseSealKeys(s.Value(config.EnvSecretsKey))
	if err != nil {
		return cli.Usage(config.EnvSecretsKey+": "+store.Cause(err), "set the key the bot runs with (install mode)")
	}
	sealer, err := store.NewSealer(keys...)
	if err != nil {
		return cli.Usage(config.EnvSecretsKey+": "+store.Cause(err), "")
	}
	st, err := storeOf(ctx, s, config.EnvSecretsKey)
	if err != nil {
		return err
	}
	defer st.Close()
	is := st.Installations(sealer)
	fail := func(what string, err error) error {
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: what + ": " + store.Cause(err), Fix: store.Fix(err)}
	}
	switch verb {
	case "forget":
		for _, id := range pos {
			rec := installationID(id)
			existed, err := is.Delete(ctx, rec)
			if err != nil {
				return fail("forgetting "+id, err)
			}
			if existed {
				fmt.Fprintf(r.stdout, "forgot %s: its tokens are deleted\n", id)
			} else {
				fmt.Fprintf(r.stdout, "%s: no installation\n", id)
			}
		}
		return nil
	case "reseal":
		list, bad, err := is.List(ctx)
		if err != nil {
			return fail("reading the installations", err)
		}
		for _, in := range list {
			if _, err := is.Save(ctx, in); err != nil {
				return fail("resealing "+in.ID(), err)
			}
		}
		fmt.Fprintf(r.stdout, "resealed %d installations with the first key\n", len(list))
		if len(bad) > 0 {
			return &cli.Error{Code: cli.ExitFailure, Msg: fmt.Sprintf("%d installations do not open with any key given: %s", len(bad), strings.Join(sortedKeys(bad), ", ")),
				Fix: "give the key they were sealed with in " + config.EnvSecretsKey + " (after the new one), or forget them"}
		}
		return nil
	}
	list, bad, err := is.List(ctx)
	if err != nil {
		return fail("reading the installations", err)
	}
	return writeInstallations(r.stdout, format.Value, list, bad)
}

// installationID is the record id of a team (T…) or, for an enterprise id
// (E…), of its org-wide install.
func installationID(id string) string {
	if strings.HasPrefix(id, "E") {
		return "E" + id
	}
	return "T" + id
}

// installationRow is an installation as the command shows it: no token.
type installationRow struct {
	Workspace   string    `json:"workspace"`
	Name        string    `json:"name"`
	OrgWide     bool      `json:"org_wide"`
	InstalledBy string    `json:"installed_by"`
	InstalledAt time.Time `json:"installed_at"`
	Expires     time.Time `json:"token_expires,omitzero"`
	State       string    `json:"state"`
}

func writeInstallations(w io.Writer, format string, list []store.Installation, bad map[string]error) error {
	var rows []installationRow
	for _, in := range list {
		row := installationRow{Workspace: in.Workspace.Team, Name: in.TeamName, OrgWide: in.OrgWide, InstalledBy: in.InstalledBy,
			InstalledAt: in.InstalledAt, Expires: in.Expires, State: "ok"}
		if in.OrgWide {
			row.Workspace, row.Name = in.Workspace.Enterprise, in.EnterpriseName
		}
		if !in.Broken.IsZero() {
			row.State = "broken: must be added again"
		}
		rows = append(rows, row)
	}
	for _, id := range sortedKeys(bad) {
		rows = append(rows, installationRow{Workspace: id[1:], State: "does not open with " + config.EnvSecretsKey})
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if rows == nil {
			rows = []installationRow{}
		}
		return enc.Encode(rows)
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, "no workspace has installed docsbot by link")
		return err
	}
	table := [][]string{{"WORKSPACE", "NAME", "INSTALLED BY", "INSTALLED", "TOKEN EXPIRES", "STATE"}}
	for _, r := range rows {
		name := r.Name
		if r.OrgWide {
			name += " (organisation)"
		}
		table = append(table, []string{r.Workspace, name, r.InstalledBy, when(r.InstalledAt), when(r.Expires), r.State})
	}
	return term.WriteTable(w, make([]bool, 6), table)
}

func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

func sortedKeys(m map[string]error) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
