package bot_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot"
)

// TestExpertRef: Ask an expert's value reads back as it was written, under
// an answer or the note; a ThreadRef of earlier versions reads as the note's;
// anything else is refused.
func TestExpertRef(t *testing.T) {
	t.Parallel()
	thread := bot.ThreadRef{Channel: "C0HELP", TS: "1.2", Project: "docs"}
	for _, tc := range []struct {
		name string
		ref  bot.ExpertRef
	}{
		{"the note", bot.ExpertRef{ShareRef: bot.ShareRef{ThreadRef: thread}}},
		{"an answer in the channel", bot.ExpertRef{ShareRef: bot.ShareRef{ThreadRef: thread}, Sourced: true, Answer: true}},
		{"a private answer", bot.ExpertRef{ShareRef: bot.ShareRef{ThreadRef: thread, Asker: "U0ALICE", Turn: 2}, Sourced: true, Answer: true}},
		{"a private answer without sources", bot.ExpertRef{ShareRef: bot.ShareRef{ThreadRef: thread, Asker: "U0ALICE", Turn: 1}, Answer: true}},
	} {
		got, ok := bot.ParseExpertRef(tc.ref.String())
		if !ok || got != tc.ref {
			t.Errorf("%s: %q reads as %+v, %v; want %+v", tc.name, tc.ref.String(), got, ok, tc.ref)
		}
	}
	if got, ok := bot.ParseExpertRef("C0HELP:1.2"); !ok || got.Answer || got.Sourced || got.ThreadRef != (bot.ThreadRef{Channel: "C0HELP", TS: "1.2"}) {
		t.Errorf("an earlier version's value reads as %+v, %v; want the note's", got, ok)
	}
	for _, bad := range []string{"", "nope", `{"c":"C0HELP","t":"1.2","a":true,"u":"U0ALICE"}`, `{"c":"X","t":"1.2","a":true}`, `{"c":"C0HELP","t":"","a":true}`, `{`} {
		if got, ok := bot.ParseExpertRef(bad); ok {
			t.Errorf("%q reads as %+v, want refused", bad, got)
		}
	}
}
