package slackid_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/slackid"
)

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		id, kinds string
		want      bool
	}{
		{"U024BE7LH", "UW", true},
		{"W0123ABC", "UW", true},
		{"S0614TZR7", "UWS", true},
		{"C1234567890", "CG", true},
		{"G01ABCDEF", "CGD", true},
		{"D0ABC123", "CGD", true},
		{"U1", "UW", true}, // the shortest: a kind letter and one more
		{"U" + strings.Repeat("9", 60), "UW", true},
		{"", "UW", false},
		{"U", "UW", false},
		{"C024BE7LH", "UW", false},    // another kind
		{"u024BE7LH", "UW", false},    // lower case kind
		{"U024be7lh", "UW", false},    // lower case after the kind
		{"U024-BE7LH", "UW", false},   // punctuation
		{"U024 BE7LH", "UW", false},   // space
		{"U024BE7LH>", "UW", false},   // markup
		{"UÉ24BE7LH", "UW", false},    // not ASCII
		{"#general", "CG", false},     // a channel's name
		{"U024BE7LH", "", false},      // no kind accepted
		{"xoxb-123", "UWSCGD", false}, // a token
	} {
		if got := slackid.Valid(tc.id, tc.kinds); got != tc.want {
			t.Errorf("Valid(%q, %q) = %v, want %v", tc.id, tc.kinds, got, tc.want)
		}
	}
}
