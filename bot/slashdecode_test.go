package bot

import (
	"encoding/json"
	"testing"

	"github.com/slack-go/slack"
)

// slashPayloads are slash_commands payloads as Socket Mode sends them, and
// some it does not.
var slashPayloads = []string{
	`{"token":"x","team_id":"T0","team_domain":"acme","channel_id":"C0","channel_name":"general","user_id":"U1","user_name":"alice",` +
		`"command":"/docs-agent","text":"fix the \"quickstart\"","api_app_id":"A0","is_enterprise_install":"false",` +
		`"response_url":"https://hooks.slack.com/commands/T0/1/x","trigger_id":"1.2.3"}`,
	`{"team_id":"T0","enterprise_id":"E0","enterprise_name":"Acme","is_enterprise_install":true,"command":"/docs-ask","text":"how?"}`,
	`{"team_id":"T0","command":"/docs-agent","is_enterprise_install":null}`,
	`{"team_id":"T0","command":"/docs-agent","is_enterprise_install":"yes"}`,
	`{"team_id":"T0","command":"/docs-agent","is_enterprise_install":1}`,
	`{"TEAM_ID":"T0","Command":"/docs-agent"}`,
	`{"team_id":7}`,
	`[]`,
	`null`,
	`{"team_id":"T0"`,
}

// TestDecodeSlashCommandAsSlackGo: a payload reads as slack-go reads it,
// and one slack-go refuses is refused.
func TestDecodeSlashCommandAsSlackGo(t *testing.T) {
	t.Parallel()
	for _, body := range slashPayloads {
		got, gotErr := decodeSlashCommand([]byte(body))
		var want slack.SlashCommand
		wantErr := json.Unmarshal([]byte(body), &want)
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: error %v, slack-go's %v", body, gotErr, wantErr)
			continue
		}
		if wantErr == nil && got != want {
			t.Errorf("%s: %+v, slack-go's %+v", body, got, want)
		}
	}
}

// FuzzDecodeSlashCommand: whatever the payload, the same as slack-go.
func FuzzDecodeSlashCommand(f *testing.F) {
	for _, s := range slashPayloads {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, gotErr := decodeSlashCommand(body)
		var want slack.SlashCommand
		wantErr := json.Unmarshal(body, &want)
		if (gotErr == nil) != (wantErr == nil) || (wantErr == nil && got != want) {
			t.Fatalf("%q: %+v, %v; slack-go's %+v, %v", body, got, gotErr, want, wantErr)
		}
	})
}

// BenchmarkDecodeSlashCommand: one pass, and slack-go's two.
func BenchmarkDecodeSlashCommand(b *testing.B) {
	body := []byte(slashPayloads[0])
	b.Run("one pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeSlashCommand(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("slack-go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var cmd slack.SlashCommand
			if err := json.Unmarshal(body, &cmd); err != nil {
				b.Fatal(err)
			}
		}
	})
}
