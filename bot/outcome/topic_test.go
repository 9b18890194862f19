package outcome_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/outcome"
)

// TestTopicOf: questions of the same words, whatever their case,
// punctuation, order and the words that only shape a question, are one
// topic; other words are another.
func TestTopicOf(t *testing.T) {
	t.Parallel()
	groups := []struct {
		topic     string
		questions []string
	}{
		{"cli install", []string{"How do I install the CLI?", "how to install the cli", "CLI: install?", "install CLI"}},
		{"cli installing", []string{"Installing the CLI"}},
		{"audit log", []string{"Where are the audit logs?", "audit log, where is it?"}},
		{"access status", []string{"What is the status of my access?"}},
		{"2fa reset", []string{"How can I reset 2FA?", "reset 2fa"}},
		{"café ouvert", []string{"Café ouvert?", "ouvert, the café?"}},
		{"", []string{"How?", "what is it", "  "}},
	}
	for _, g := range groups {
		for _, q := range g.questions {
			if got := outcome.TopicOf(q); got != g.topic {
				t.Errorf("TopicOf(%q) = %q, want %q", q, got, g.topic)
			}
		}
	}
	long := strings.Repeat("alpha beta gamma delta epsilon zeta eta theta iota kappa ", 3)
	if got := outcome.TopicOf(long); len(strings.Fields(got)) != 8 || strings.Contains(got, "kappa") {
		t.Errorf("TopicOf of ten words = %q, want the first eight, sorted", got)
	}
	if q := outcome.Question(strings.Repeat("word ", 200)); len([]rune(q)) != outcome.QuestionMax {
		t.Errorf("Question of 1,000 characters kept %d, want %d", len([]rune(q)), outcome.QuestionMax)
	}
	if q := outcome.Question(" How  do\nI   install? "); q != "How do I install?" {
		t.Errorf("Question = %q, want its spaces collapsed", q)
	}
}

// TestFirstText: the time from a question's Slack ts to its first text, at
// least a millisecond; not measured without a ts or a time shown.
func TestFirstText(t *testing.T) {
	t.Parallel()
	asked := time.Date(2026, 11, 2, 10, 0, 0, 250_000_000, time.UTC)
	ts := fmt.Sprintf("%d.%06d", asked.Unix(), asked.Nanosecond()/1000)
	if at, ok := outcome.TimeOfTS(ts); !ok || !at.Equal(asked) {
		t.Fatalf("TimeOfTS(%s) = %v, %t; want %v", ts, at, ok, asked)
	}
	cases := []struct {
		ts    string
		shown time.Time
		want  time.Duration
	}{
		{ts, asked.Add(2300 * time.Millisecond), 2300 * time.Millisecond},
		{strings.TrimRight(ts, "0"), asked.Add(time.Second), time.Second},
		{ts, asked, time.Millisecond},
		{ts, asked.Add(-time.Second), time.Millisecond},
		{ts, time.Time{}, 0},
		{"", asked, 0},
		{"17935x7200.250000", asked, 0},
		{ts + "1", asked, 0},
	}
	for _, c := range cases {
		if got := outcome.FirstText(c.ts, c.shown); got != c.want {
			t.Errorf("FirstText(%q, %v) = %v, want %v", c.ts, c.shown.Sub(asked), got, c.want)
		}
	}
}
