package bot_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL) }

const (
	general = bottest.General
	alice   = "U0ALICE"
)
