package bot_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot"
)

// TestJobDraftValue: a question made into a job fits a button's value,
// whatever its length, keeping the question before the answer and the
// sources, and reads back.
func TestJobDraftValue(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("ünïcode words ", 400)
	tests := []struct {
		name string
		j    bot.JobDraft
	}{
		{"short", bot.JobDraft{Channel: "C1", Thread: "1.2", Question: "How?", Answer: "Like so.", Sources: []string{"/a"}, Project: "docs"}},
		{"long answer", bot.JobDraft{Question: "How do I rotate keys?", Answer: long, Sources: []string{"/a", "/b"}}},
		{"long everything", bot.JobDraft{Question: long, Answer: long, Sources: []string{long[:500], long[:500], long[:500]}}},
	}
	for _, tt := range tests {
		v := tt.j.Value()
		if n := utf8.RuneCountInString(v); n > 2000 {
			t.Errorf("%s: value of %d characters", tt.name, n)
		}
		got, err := bot.ParseJobDraft(v)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !strings.HasPrefix(tt.j.Question, strings.TrimSuffix(got.Question, "…")) || got.Channel != tt.j.Channel || got.Thread != tt.j.Thread {
			t.Errorf("%s: read back %+v", tt.name, got)
		}
		if len(tt.j.Question) < 100 && got.Question != tt.j.Question {
			t.Errorf("%s: a short question was cut: %q", tt.name, got.Question)
		}
	}
	if d, err := bot.ParseJobDraft(`{"a":"x"}`); err != nil || d.Check(bot.ActionJobFromAnswer) == nil {
		t.Error("a value without a question was read")
	}
}
