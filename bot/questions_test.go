package bot_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot"
)

func TestQuestionIn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text     string
		mayStart bool
		want     string
		question bool
	}{
		{"How do I rotate keys?", true, "How do I rotate keys?", true},
		{"ask how webhooks retry", true, "how webhooks retry", true},
		{"Ask: how webhooks retry", true, "how webhooks retry", true},
		{"ASK, where is the changelog", true, "where is the changelog", true},
		{"Document the webhooks retries", true, "", false},
		{"asking for a new page on retries", true, "", false},
		{"Document the webhooks retries", false, "Document the webhooks retries", true},
		{"ask", true, "", false},
		{"  ", false, "", false},
		{"what changed? Write it up", true, "", false},
	}
	for _, tt := range tests {
		got, ok := bot.QuestionIn(tt.text, tt.mayStart)
		if got != tt.want || ok != tt.question {
			t.Errorf("QuestionIn(%q, %v) = %q, %v; want %q, %v", tt.text, tt.mayStart, got, ok, tt.want, tt.question)
		}
	}
}
