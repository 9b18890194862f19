package helpchannels_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot/helpchannels"
)

// TestIsQuestion: the rule of which help channel messages are questions,
// without the assistant, in several languages.
func TestIsQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want bool
	}{
		{"How do I rotate an API key", true},
		{"my deploy keeps failing, any idea?", true},
		{"The webhook signature does not match anymore?  ", true},
		{"Is there a rate limit on the search endpoint", true},
		{"thanks, that worked for me", false},
		{"lunch at noon anyone coming", false},
		{"how do I?", false}, // three words: chatter
		{"why?", false},      // one word
		{"deployed the new version today :tada:", false},
		{"¿Cómo configuro los webhooks en producción", true},
		{"Cómo roto una clave de API", true},
		{"Comment configurer les webhooks en production", true},
		{"Wie rotiere ich einen API Schlüssel", true},
		{"Onde fica o log de auditoria", true},
		{"Dove trovo i log di audit", true},
		{"APIキーをローテーションする 方法 は ありますか？", true},
		{"كيف أغير مفتاح API الخاص بي؟", true},
		{"Πώς αλλάζω το κλειδί API\u037e", true},
		{"Guten Morgen zusammen, schönes Wochenende", false},
		{"(How do webhooks get signed)", true},
		{"*How do webhooks get signed?*", true},
	}
	for _, tt := range tests {
		if got := helpchannels.IsQuestion(tt.text); got != tt.want {
			t.Errorf("IsQuestion(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestIsQuestionAllocatesNothing: every top-level message in every channel
// the bot is in is looked at, chatter included, so the look allocates
// nothing (it split the list of question words, and the message, into new
// slices for every message).
func TestIsQuestionAllocatesNothing(t *testing.T) {
	for _, text := range []string{
		"thanks, that helps a lot",
		"I will look at it after the standup",
		"How do I rotate an API key? (question 12)",
		"Guten Morgen zusammen, schönes Wochenende",
		"ok",
	} {
		if n := testing.AllocsPerRun(100, func() { helpchannels.IsQuestion(text) }); n != 0 {
			t.Errorf("IsQuestion(%q) allocates %.0f times", text, n)
		}
	}
}

// BenchmarkIsQuestion is the look at a line of chatter and at a question.
func BenchmarkIsQuestion(b *testing.B) {
	for _, text := range []string{"I will look at it after the standup", "How do I rotate an API key? (question 12)"} {
		b.Run(text[:6], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				helpchannels.IsQuestion(text)
			}
		})
	}
}
