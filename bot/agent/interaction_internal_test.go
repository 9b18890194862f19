package agent

import (
	"testing"

	"github.com/slack-go/slack"
)

// TestInteractionChannel: the channel of an interaction is its container's
// when set (a block action, an ephemeral message's too), else the payload's
// channel (a message shortcut).
func TestInteractionChannel(t *testing.T) {
	tests := []struct {
		name               string
		container, channel string
		want               string
	}{
		{"block action", "C0CONTAINER", "C0CONTAINER", "C0CONTAINER"},
		{"ephemeral message without a channel field", "C0CONTAINER", "", "C0CONTAINER"},
		{"message shortcut", "", "C0CHANNEL", "C0CHANNEL"},
		{"container over a different channel field", "C0CONTAINER", "C0OTHER", "C0CONTAINER"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ic slack.InteractionCallback
			ic.Container.ChannelID, ic.Channel.ID = tt.container, tt.channel
			if got := interactionChannel(&ic); got != tt.want {
				t.Errorf("interactionChannel = %q, want %q", got, tt.want)
			}
		})
	}
}
