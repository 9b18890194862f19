package agent

import (
	"testing"

	"github.com/docsbot/docsbot/store"
)

func TestTSBefore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want bool
	}{
		{"1700000000.000100", "1700000000.000200", true},
		{"1700000000.000200", "1700000000.000100", false},
		{"1700000000.000100", "1700000000.000100", false},
		{"1700000000.999999", "1700000001.000000", true},
		{"999999999.000001", "1000000000.000000", true}, // fewer digits of seconds: earlier, though it sorts later as a string
		{"1000000000.000000", "999999999.000001", false},
		{"1700000000.1", "1700000000.000200", false}, // .1 is .100000
		{"1700000000.000200", "1700000000.1", true},
		{"1700000000", "1700000000.000001", true},
		{"", "1700000000.000001", false},
		{"1700000000.000001", "", false},
		{"x.000001", "1700000000.000002", false},
		{"1700000000.0000001", "1700000000.000002", false},
		{"1700000000.-1", "1700000000.000002", false},
		{"+1700000000.000001", "1700000000.000002", false},
		{"1700000000.", "1700000000.000002", false},
	}
	for _, tt := range tests {
		if got := tsBefore(tt.a, tt.b); got != tt.want {
			t.Errorf("tsBefore(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// Which posts in a job's thread are not its follow-ups: those posted no
// later than the job's start (jobStart).
func TestPostedByJobStart(t *testing.T) {
	t.Parallel()
	const (
		parent  = "1700000000.000100"
		before  = "1700000001.000100" // a reply before the mention
		mention = "1700000002.000100"
		read    = "1700000003.000100" // a reply read into the context
		root    = "1700000004.000100" // the bot's root message
		after   = "1700000005.000100"
	)
	tests := []struct {
		name string
		job  store.Job
		by   []string // posted by the start
		not  []string // follow-ups
	}{
		{"slash command: the thread starts at the root", store.Job{Thread: store.Thread{TS: parent}}, nil, []string{before, after, ""}},
		{"mention", store.Job{Origin: mention, Root: root}, []string{before, mention}, []string{read, root, after, ""}},
		{"mention, a later reply read into the context", store.Job{Origin: mention, Seen: read, Root: root}, []string{before, mention, read}, []string{root, after}},
		{"mention, the context read up to an earlier reply", store.Job{Origin: mention, Seen: before, Root: root}, []string{parent, before, mention}, []string{read, root, after}},
		{"modal or shortcut in a thread", store.Job{Root: root}, []string{before, mention, root}, []string{after, ""}},
		{"top-level mention or DM", store.Job{Origin: parent, Root: root}, []string{parent}, []string{before, after}},
	}
	for _, tt := range tests {
		start := jobStart(&tt.job)
		for _, ts := range tt.by {
			if !postedBy(ts, start) {
				t.Errorf("%s: post %q taken for a follow-up", tt.name, ts)
			}
		}
		for _, ts := range tt.not {
			if postedBy(ts, start) {
				t.Errorf("%s: post %q not taken for a follow-up", tt.name, ts)
			}
		}
	}
}
