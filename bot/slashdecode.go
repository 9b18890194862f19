package bot

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/slack-go/slack"
)

// slashFields is slack.SlashCommand without its UnmarshalJSON.
type slashFields slack.SlashCommand

// decodeSlashCommand reads a slash_commands envelope's payload as
// json.Unmarshal into a slack.SlashCommand does, is_enterprise_install as
// a boolean or a string of one, in one json.Unmarshal where slack-go's
// UnmarshalJSON makes two of the same bytes.
func decodeSlashCommand(payload []byte) (slack.SlashCommand, error) {
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
