package redact_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot/redact"
)

func TestMask(t *testing.T) {
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
	for _, tt := range tests {
		if got := redact.Mask(tt.in); got != tt.want {
			t.Errorf("Mask(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := redact.MaskOr(""); got != "(none)" {
		t.Errorf("MaskOr(\"\") = %q, want (none)", got)
	}
}

func TestScrubLongestFirst(t *testing.T) {
	t.Parallel()
	const short, long = "abcdefghijklmnop", "abcdefghijklmnopqrstuvwxyz"
	got := redact.Scrub("key "+long+" and "+short, short, long)
	if want := "key …wxyz and …mnop"; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v, want string
		url     bool
	}{
		{v: "soon", want: `"soon"`},
		{v: "mint_0123456789abcdefghij", want: "mint_…ghij"},
		{v: "known0123456789abcdef", want: "…cdef"},
		{v: "https://u:p@host", want: "…host", url: true},
		{v: "https//host", want: `"https//host"`, url: true},
	}
	for _, tt := range tests {
		got := redact.Quote(tt.v, "known0123456789abcdef")
		if tt.url {
			got = redact.QuoteURL(tt.v)
		}
		if got != tt.want {
			t.Errorf("Quote(%q) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
