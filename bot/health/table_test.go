package health_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/health"
)

// TestHealthViewsAsATable: the pages viewed most, a list without readers'
// words, are Slack's data table in the channel; where Slack refuses data
// tables they are today's list, and the refusal is met once.
func TestHealthViewsAsATable(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.StartBot(bottest.Config{})
	h.Command(alice, general, health.Command, "views")
	caption, rows, ok := bottest.Table(posted(h, 1).Blocks)
	if !ok || caption != "Pages viewed most" || len(rows) < 2 || rows[0][0].Text != "Page" || !strings.HasPrefix(rows[1][0].Text, "/") {
		t.Fatalf("table %q %v (%v), want the pages viewed most", caption, rows, ok)
	}

	refusing := bottest.New(t, redisURL)
	refusing.Slack.RefuseBlockType("data_table")
	refusing.StartBot(bottest.Config{})
	for i, text := range []string{"views", ""} {
		refusing.Command(alice, general, health.Command, text)
		m := posted(refusing, i+1)
		if _, _, ok := bottest.Table(m.Blocks); ok || !strings.Contains(bottest.Rendered(m), "human") {
			t.Errorf("%q where tables are refused: %q", text, bottest.Rendered(m))
		}
	}
	refused := 0
	for _, c := range refusing.Slack.Calls("chat.postMessage") {
		if c.Error == "invalid_blocks" {
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("%d posts refused, want 1", refused)
	}
}
