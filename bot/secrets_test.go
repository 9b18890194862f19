package bot_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot"
)

// TestSecretKindsMask checks the masked form of every kind of secret docsbot
// handles.
func TestSecretKindsMask(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"xoxb-1111111111-2222222222-abcdefghijklmnop", "xoxb-…mnop"},
		{"xapp-1-A0-3-appTokenValue0123456789", "xapp-…6789"},
		{"mint_0123456789abcdefghij", "mint_…ghij"},
		{"xoxb-short", "xoxb-…"},
		{"mint_short", "mint_…"},
		{"plainSecretValue0123456789", "…6789"},
		{"short", "…"},
		{"", "…"},
		{"mint_0123456789abcdefWXYZ", "mint_…WXYZ"},
	}
	kinds := bot.SecretKinds()
	for _, tt := range tests {
		if got := kinds.Mask(tt.in); got != tt.want {
			t.Errorf("Mask(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := kinds.MaskOr(""); got != "(none)" {
		t.Errorf("MaskOr(\"\") = %q, want (none)", got)
	}
}
