package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/store"
)

const migrateUsage = `Usage:
  docsbot migrate [flags]

Moves what an earlier docsbot kept in Redis under the layout before the
shards (one docsbot:sched and one docsbot:inbox, records and thread links
beside them) into the shards, and says what it moved.

The bot does the same by itself: a replica moves everything before its
first claim, and keeps moving what replicas of the earlier version write
while a rolling update runs. So it is never needed to keep the bot working;
run it after a rolling update to see that nothing is left and, before
installing the release that drops the upgrade (the first after v1.0.0;
store/doc.go, "Keys of the earlier layout"), until it reports nothing
moved. It may run while the bot runs, as often as you like.

Reads REDIS_URL and DOCSBOT_REDIS_PREFIX like the bot.

Examples:
  docsbot migrate
`

// runMigrate moves the keys of the earlier layout into the shards.
func (r *runner) runMigrate(ctx context.Context, args []string) error {
	fs := r.flagSet("migrate", migrateUsage)
	t := config.Table()
	flags := settings.Table{t.Of(config.EnvRedisURL), t.Of(config.EnvRedisPrefix)}.Flags(fs, false)
	pos, err := r.parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usage(fmt.Sprintf("migrate: unexpected argument %q", pos[0]), "")
	}
	s, err := r.env().Source(flags())
	if err != nil {
		return err
	}
	st, err := storeOf(ctx, s)
	if err != nil {
		return err
	}
	defer st.Close()

	up, err := st.Upgrade(ctx)
	if err != nil {
		msg := "moving the earlier layout's keys: " + store.Cause(err)
		if up.Total() > 0 {
			msg += " (" + movedText(up) + " before that; run it again)"
		}
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: msg, Fix: store.Fix(err)}
	}
	where := st.Prefix() + " at " + store.RedactURL(s.Value(config.EnvRedisURL))
	if up.Total() == 0 {
		fmt.Fprintln(r.stdout, "nothing of the earlier layout is left under "+where)
		return nil
	}
	fmt.Fprintln(r.stdout, "moved "+movedText(up)+" of the earlier layout into the shards under "+where)
	return nil
}

// movedText says what an upgrade moved: "2 jobs, 1 thread link and 3 pieces
// of work".
func movedText(up store.Upgraded) string {
	var parts []string
	add := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "1 "+one)
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(up.Jobs, "job", "jobs")
	add(up.Links, "thread link", "thread links")
	add(up.Work, "piece of work", "pieces of work")
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
