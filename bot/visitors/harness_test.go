package visitors_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL) }

// harness is the end-to-end world of bottest, with this package's helpers.
type harness struct{ *bottest.Harness }

const (
	general = bottest.General
	alice   = "U0ALICE"
)

func newHarness(t *testing.T, apiOpts ...docsapitest.Option) *harness {
	t.Helper()
	return &harness{bottest.New(t, redisURL, apiOpts...)}
}

// rendered is what a message shows (bottest.Rendered).
func rendered(m slacktest.Message) string { return bottest.Rendered(m) }
