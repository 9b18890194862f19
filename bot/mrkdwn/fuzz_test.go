package mrkdwn

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzEscape: whatever a person or the API writes, escaped it carries no
// markup Slack would act on (no <!here>, <@U…>, <#C…> or link: no '<' or
// '>' at all), and reads back as written (Plain).
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "<!channel>", "<@U0BOB>", "<#C0GENERAL|general>", "<https://evil.example|docs>",
		"&lt;!here&gt;", "a & b", "ünïcödé <b>", "> quote\n> more", "<<>>&&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, out := range map[string]string{"Escape": Escape(s), "Quote": Quote(s), "Mention": Mention(s)} {
			if name == "Mention" && strings.HasPrefix(out, "<@") {
				if !strings.HasSuffix(out, ">") || strings.ContainsAny(out[2:len(out)-1], "<>|!#&") {
					t.Fatalf("Mention(%q) = %q: not a plain user mention", s, out)
				}
				continue
			}
			if strings.ContainsAny(out, "<>") {
				t.Fatalf("%s(%q) = %q holds markup", name, s, out)
			}
		}
		if utf8.ValidString(s) {
			if back := Plain(Escape(s)); back != s {
				t.Fatalf("Plain(Escape(%q)) = %q", s, back)
			}
		}
	})
}
