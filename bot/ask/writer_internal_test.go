package ask

import (
	"net/url"
	"testing"
)

func TestLinksOn(t *testing.T) {
	t.Parallel()
	site, _ := url.Parse("https://docs.example.com/")
	tests := []struct{ md, want string }{
		{"See [Keys](/guides/keys).", "See [Keys](https://docs.example.com/guides/keys)."},
		{"![diagram](/img/a.png)", "![diagram](https://docs.example.com/img/a.png)"},
		{"[Status](https://status.example.com)", "[Status](https://status.example.com)"},
		{"[relative](keys)", "[relative](keys)"},
		{"no links", "no links"},
	}
	for _, tt := range tests {
		if got := linksOn(tt.md, site); got != tt.want {
			t.Errorf("linksOn(%q) = %q, want %q", tt.md, got, tt.want)
		}
	}
	if got := linksOn("[Keys](/k)", nil); got != "[Keys](/k)" {
		t.Errorf("without a site: %q", got)
	}
}

// TestShowableHoldsWhatMayChange: a growing text is shown up to what can no
// longer change: not an unclosed link, a last line that may open the
// suggestions block, or the block itself.
func TestShowableHoldsWhatMayChange(t *testing.T) {
	t.Parallel()
	tests := []struct{ text, growing, final string }{
		{"See [Keys](/k", "See ", "See [Keys](/k"},
		{"See [Keys](/k) now", "See [Keys](/k) now", "See [Keys](/k) now"},
		{"Done.\n``", "Done.\n", "Done.\n``"},
		{"Done.\n```suggestions\n(A)[/a]\n```", "Done.\n", "Done.\n"},
	}
	for _, tt := range tests {
		w := &writer{}
		w.add(tt.text)
		if got := w.showable(false); got != tt.growing {
			t.Errorf("growing %q: shows %q, want %q", tt.text, got, tt.growing)
		}
		if got := w.showable(true); got != tt.final {
			t.Errorf("final %q: shows %q, want %q", tt.text, got, tt.final)
		}
	}
}
