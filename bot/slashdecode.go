package bot

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"
	"github.com/tidwall/gjson"
)

// slashFields is slack.SlashCommand without its UnmarshalJSON.
type slashFields slack.SlashCommand

// decodeSlashCommand reads a slash_commands envelope's payload as
// json.Unmarshal into a slack.SlashCommand does, is_enterprise_install as
// a boolean or a string of one: with gjson when it is as Slack writes it
// (readSlashCommand), else in one json.Unmarshal where slack-go's
// UnmarshalJSON makes two of the same bytes.
func decodeSlashCommand(payload []byte) (slack.SlashCommand, error) {
	if cmd, ok := readSlashCommand(payload); ok {
		return cmd, nil
	}
	var cmd slack.SlashCommand
	p := struct {
		*slashFields
		IsEnterpriseInstall any `json:"is_enterprise_install"`
	}{slashFields: (*slashFields)(&cmd)}
	if err := json.Unmarshal(payload, &p); err != nil {
		return cmd, err
	}
	switch v := p.IsEnterpriseInstall.(type) {
	case nil:
	case bool:
		cmd.IsEnterpriseInstall = v
	case string:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return cmd, fmt.Errorf("parsing boolean for is_enterprise_install: %w", err)
		}
		cmd.IsEnterpriseInstall = b
	default:
		return cmd, fmt.Errorf("wrong data type for is_enterprise_install: %T", v)
	}
	return cmd, nil
}

// readSlashCommand reads payload with gjson, which is a small part of
// json.Unmarshal's work (BENCHMARKS.md, "Frames read once"), when every
// field slack.SlashCommand has is spelled as Slack spells it and holds a
// string of valid UTF-8 (is_enterprise_install a boolean, or a string
// strconv.ParseBool reads). ok is false for anything else (a key that
// matches a field only when case is ignored, as json.Unmarshal matches
// it; a number; a string json.Unmarshal would mend), which
// decodeSlashCommand then reads with json.Unmarshal.
func readSlashCommand(payload []byte) (cmd slack.SlashCommand, ok bool) {
	if !gjson.ValidBytes(payload) {
		return cmd, false
	}
	root := gjson.ParseBytes(payload)
	if !root.IsObject() {
		return cmd, false
	}
	ok = true
	root.ForEach(func(k, v gjson.Result) bool {
		field := slashField(&cmd, k.Str)
		switch {
		case k.Str == "is_enterprise_install":
			ok = readBool(v, &cmd.IsEnterpriseInstall)
		case field == nil:
			ok = !foldsToField(k.Str)
		case v.Type == gjson.Null:
		case v.Type == gjson.String && utf8.ValidString(v.Str):
			*field = v.Str
		default:
			ok = false
		}
		return ok
	})
	return cmd, ok
}

// readBool sets *b from a JSON boolean, or a string strconv.ParseBool
// reads; null leaves it. It reports whether v was one of those.
func readBool(v gjson.Result, b *bool) bool {
	switch v.Type {
	case gjson.Null:
		return true
	case gjson.True, gjson.False:
		*b = v.Bool()
		return true
	case gjson.String:
		parsed, err := strconv.ParseBool(v.Str)
		*b = parsed
		return err == nil
	}
	return false
}

// slashField is the string field of cmd whose JSON name is key, nil for
// none.
func slashField(cmd *slack.SlashCommand, key string) *string {
	switch key {
	case "token":
		return &cmd.Token
	case "team_id":
		return &cmd.TeamID
	case "team_domain":
		return &cmd.TeamDomain
	case "enterprise_id":
		return &cmd.EnterpriseID
	case "enterprise_name":
		return &cmd.EnterpriseName
	case "channel_id":
		return &cmd.ChannelID
	case "channel_name":
		return &cmd.ChannelName
	case "user_id":
		return &cmd.UserID
	case "user_name":
		return &cmd.UserName
	case "command":
		return &cmd.Command
	case "text":
		return &cmd.Text
	case "response_url":
		return &cmd.ResponseURL
	case "trigger_id":
		return &cmd.TriggerID
	case "api_app_id":
		return &cmd.APIAppID
	}
	return nil
}

// foldsToField reports whether key is, case aside, the JSON name of a field
// of slack.SlashCommand: json.Unmarshal would read it into that field.
func foldsToField(key string) bool {
	for _, name := range [...]string{"token", "team_id", "team_domain", "enterprise_id", "enterprise_name", "is_enterprise_install",
		"channel_id", "channel_name", "user_id", "user_name", "command", "text", "response_url", "trigger_id", "api_app_id"} {
		if strings.EqualFold(key, name) {
			return true
		}
	}
	return false
}
