package slacktest

import "testing"

func TestEscape(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a < b & c > d", "a &lt; b &amp; c &gt; d"},
		{"&amp; typed as is", "&amp;amp; typed as is"},
		{"<@U0BOB> <https://example.com|x>", "&lt;@U0BOB&gt; &lt;https://example.com|x&gt;"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
