package mrkdwn

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"<!channel> & <@U1>", "&lt;!channel&gt; &amp; &lt;@U1&gt;"},
		{"&amp; already", "&amp;amp; already"},
		{"ünïcödé <b>", "ünïcödé &lt;b&gt;"},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCut(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"eleven chars", 10, "eleven ch…"},
		{"héllo wörld", 6, "héllo…"},
		{"日本語のテキスト", 4, "日本語…"},
		{"anything", 0, ""},
	}
	for _, tt := range tests {
		got := Cut(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if n := len([]rune(got)); n > tt.n {
			t.Errorf("Cut(%q, %d) has %d runes", tt.in, tt.n, n)
		}
	}
}

func TestLink(t *testing.T) {
	t.Parallel()
	tests := []struct{ raw, label, want string }{
		{"https://github.com/acme/docs/pull/12", "acme/docs#12", "<https://github.com/acme/docs/pull/12|acme/docs#12>"},
		{"https://x.example/a?b=1&c=2", "", "<https://x.example/a?b=1&amp;c=2|https://x.example/a?b=1&amp;c=2>"},
		{"javascript:alert(1)", "x", "`javascript:alert(1)`"},
		{"https://x.example/|<!here>", "x", "`https://x.example/|&lt;!here&gt;`"},
		{"/relative/path", "x", "`/relative/path`"},
		{"https://x.example/`tick`", "x", "<https://x.example/`tick`|x>"},
		{"ftp://files.example/x", "x", "`ftp://files.example/x`"},
		// No '|' or '>' in a link's address, which would end it: what
		// follows would read as its label or as text.
		{"https://docs.example.com/a|https://evil.example/", "x", "`https://docs.example.com/a|https://evil.example/`"},
		{"https://docs.example.com/a>evil", "x", "`https://docs.example.com/a&gt;evil`"},
		{"https://x.example/#a\x00", "x", "`https://x.example/#a\x00`"},  // url.Parse lets a control character by in a fragment
		{"https://x.example/", "a|b>c", "<https://x.example/|a|b&gt;c>"}, // the first '|' ends the address
		// Too long for a link (over 3,000 characters): inert, and cut.
		{"https://x.example/" + strings.Repeat("a", 3000), "x", "`https://x.example/" + strings.Repeat("a", inertLinkMax-len("https://x.example/")-1) + "…`"},
	}
	for _, tt := range tests {
		if got := Link(tt.raw, tt.label); got != tt.want {
			t.Errorf("Link(%q, %q) = %q, want %q", tt.raw, tt.label, got, tt.want)
		}
	}
}

func TestMention(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"U0ALICE", "<@U0ALICE>"},
		{"W123ABC", "<@W123ABC>"},
		{"U0ALICE><!channel", "U0ALICE&gt;&lt;!channel"},
		{"u0alice", "u0alice"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Mention(tt.in); got != tt.want {
			t.Errorf("Mention(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPlainUndoesSlackFormatting(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"a &amp; b &lt;c&gt;", "a & b <c>"},
		{"&amp;lt; stays literal", "&lt; stays literal"},
		{"see <https://docs.example/x?a=1&amp;b=2>", "see https://docs.example/x?a=1&b=2"},
		{"read <https://docs.example|the guide>", "read the guide (https://docs.example)"},
		{"ask <@U0BOB> or <@U0ALICE|alice>", "ask @U0BOB or @alice"},
		{"in <#C0GENERAL|general> and <#C0OTHER>", "in #general and #C0OTHER"},
		{"<!channel> <!here|here> <!subteam^S1|@docs-team>", "@channel @here @docs-team"},
		{"mail <mailto:a@b.example|a@b.example>", "mail a@b.example"},
		{"unclosed < bracket", "unclosed < bracket"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Plain(tt.in); got != tt.want {
			t.Errorf("Plain(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
