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
