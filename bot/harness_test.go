package bot_test

import (
	"encoding/json"
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL, bottest.Parallel(8)) }

const (
	general = bottest.General
	alice   = "U0ALICE"
)

// privateText is the text of an ack that answers a slash command privately
// (response_type ephemeral), "" for any other ack.
func privateText(payload json.RawMessage) string {
	var msg struct {
		Text         string `json:"text"`
		ResponseType string `json:"response_type"`
	}
	if json.Unmarshal(payload, &msg) != nil || msg.ResponseType != "ephemeral" {
		return ""
	}
	return msg.Text
}
