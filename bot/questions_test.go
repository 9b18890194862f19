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

// TestAnswerThreadGoesOnWith: in a channel only the asker's replies go on
// with an answer's conversation; a mention, a DM, and a conversation kept
// before askers were recorded let anyone go on.
func TestAnswerThreadGoesOnWith(t *testing.T) {
	t.Parallel()
	alices := bot.AnswerThread{Answer: true, Asker: "U0ALICE"}
	tests := []struct {
		name        string
		thread      bot.AnswerThread
		user        string
		mention, dm bool
		want        bool
	}{
		{"the asker's reply", alices, "U0ALICE", false, false, true},
		{"another's reply", alices, "U0BOB", false, false, false},
		{"another's mention", alices, "U0BOB", true, false, true},
		{"a reply in a DM", alices, "U0BOB", false, true, true},
		{"an asker not recorded", bot.AnswerThread{Answer: true}, "U0BOB", false, false, true},
		{"not an answer's thread", bot.AnswerThread{}, "U0ALICE", true, false, false},
	}
	for _, tt := range tests {
		if got := tt.thread.GoesOnWith(tt.user, tt.mention, tt.dm); got != tt.want {
			t.Errorf("%s: GoesOnWith = %v, want %v", tt.name, got, tt.want)
		}
	}
}
