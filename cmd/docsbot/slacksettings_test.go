package main

import (
	"os"
	"strings"
	"testing"

	slacksettings "github.com/docsbot/docsbot/bot/settings"
)

// TestReadmeListsTheSettingsSetInSlack keeps the README's table of the
// settings a workspace sets in Slack the same as bot/settings' table: a
// row each, with the variable it goes over and its meaning; and each
// variable is one docsbot reads and no secret (a digest's channels go over
// its command's subscriptions).
func TestReadmeListsTheSettingsSetInSlack(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(raw), "### Setting docsbot up from Slack")
	section, _, _ = strings.Cut(section, "\n## ")
	rows := 0
	for line := range strings.SplitSeq(section, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| Setting |") {
			rows++
		}
	}
	table := slacksettings.Table()
	if rows != len(table) {
		t.Errorf("the README's table of settings set in Slack has %d rows, want %d", rows, len(table))
	}
	for _, st := range table {
		per := "workspace"
		if st.PerChannel {
			per = "channel"
		}
		if want := "| " + st.Label + " | `" + st.Env + "` | " + per + " | " + st.Doc + " |"; !strings.Contains(section, want) {
			t.Errorf("the README's table of settings set in Slack has no row %q", want)
		}
		if st.Kind == slacksettings.KindDigest {
			// A digest's channels are its command's subscriptions.
			if !strings.HasPrefix(st.Env, "/docs-") || !strings.HasSuffix(st.Env, " digest") {
				t.Errorf("%s goes over %q, want a digest command", st.Label, st.Env)
			}
			continue
		}
		if row := settingsTable().Of(st.Env); row.Secret {
			t.Errorf("%s is a secret: never set in Slack", st.Env)
		}
	}
}
