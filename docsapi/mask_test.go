package docsapi_test

import (
	"testing"

	"github.com/docsbot/docsbot/docsapi"
)

func TestMask(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"mint_0123456789abcdefghij", "mint_…ghij"},
		{"mint_short", "mint_…"},
		{"xoxb-1111111111-2222222222-abcdefghijklmnop", "…mnop"},
		{"short", "…"},
	}
	for _, tt := range tests {
		if got := docsapi.Mask(tt.in, docsapi.KeyPrefix); got != tt.want {
			t.Errorf("Mask(%q, KeyPrefix) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
