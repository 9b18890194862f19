package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
)

func TestReplyOutcome(t *testing.T) {
	t.Parallel()
	acked := slacktest.EventFate{Acked: true, Attempt: 1}
	lastLost := slacktest.EventFate{Attempt: 3, GaveUp: true, LastLost: true}
	lastHeld := slacktest.EventFate{Attempt: 3, GaveUp: true}
	pending := slacktest.EventFate{Attempt: 2}
	tests := []struct {
		name string
		sent int
		told bool
		fate slacktest.EventFate
		want string
	}{
		{"sent once", 1, false, acked, replyDone},
		{"sent twice", 2, false, acked, replyDoubled},
		{"acked, not sent, told", 0, true, acked, replyTold},
		{"last try told though unacked", 0, true, lastHeld, replyTold},
		{"acked, not sent, nobody told", 0, false, acked, replyLost},
		{"never acked, the last try's replica died", 0, false, lastLost, replyGivenUp},
		{"never acked, the last try's replica stayed connected", 0, false, lastHeld, replyLost},
		{"never acked, Slack still sending", 0, false, pending, replyLost},
		{"unknown to Slack", 0, false, slacktest.EventFate{}, replyLost},
		// A lost last try with an ack is not Slack's: the ack made it docsbot's.
		{"acked and the last try's connection closed", 0, false, slacktest.EventFate{Acked: true, Attempt: 3, GaveUp: true, LastLost: true}, replyLost},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := replyOutcome(tc.sent, tc.told, tc.fate); got != tc.want {
				t.Errorf("replyOutcome(%d, %t, %+v) = %q, want %q", tc.sent, tc.told, tc.fate, got, tc.want)
			}
		})
	}
}

// TestChaosModeDefaults checks the defaults that depend on the mode: the
// rolling mode's are those of the run reported in issue 25 (a command every
// 400 ms, 150 results, no posting limit).
func TestChaosModeDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args             []string
		commands         int
		rate, postRate   float64
		wantErr, rolling bool
	}{
		{args: nil, commands: 120, rate: 2, postRate: 1},
		{args: []string{"--rolling"}, commands: 150, rate: 2.5, postRate: 0, rolling: true},
		{args: []string{"--rolling", "--post-rate", "1", "--commands", "30"}, commands: 30, rate: 2.5, postRate: 1, rolling: true},
		{args: []string{"--post-rate", "0", "--rate", "3"}, commands: 120, rate: 3, postRate: 0},
		{args: []string{"--post-rate", "-1"}, wantErr: true},
		// Install mode runs two minutes of commands: the tokens are
		// refreshed while the faults go on.
		{args: []string{"--install"}, commands: 240, rate: 2, postRate: 1},
	}
	for _, tt := range tests {
		var o chaosOptions
		_, err := parseFlags("chaos", tt.args, io.Discard, o.register)
		if tt.wantErr {
			if err == nil {
				t.Errorf("%q: no error", tt.args)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		o = o.withDefaults()
		if o.commands != tt.commands || o.rate != tt.rate || o.postRate != tt.postRate || o.rolling != tt.rolling || o.runs != 1 {
			t.Errorf("%q: commands %d, rate %v, post rate %v, rolling %t, runs %d; want %d, %v, %v, %t, 1",
				tt.args, o.commands, o.rate, o.postRate, o.rolling, o.runs, tt.commands, tt.rate, tt.postRate, tt.rolling)
		}
	}
}

// TestCommandAt: the workspaces take turns, each going round its channels;
// with one workspace, the channels take turns as they always did.
func TestCommandAt(t *testing.T) {
	t.Parallel()
	two := []chaosWorkspace{{team: "T0A", channels: []string{"CA0", "CA1"}}, {team: "T0B", channels: []string{"CB0", "CB1"}}}
	one := []chaosWorkspace{{team: loadTeam, channels: []string{"C0", "C1", "C2"}}}
	tests := []struct {
		workspaces []chaosWorkspace
		want       []string // team/channel of commands 0, 1, ...
	}{
		{two, []string{"T0A/CA0", "T0B/CB0", "T0A/CA1", "T0B/CB1", "T0A/CA0"}},
		{one, []string{loadTeam + "/C0", loadTeam + "/C1", loadTeam + "/C2", loadTeam + "/C0"}},
	}
	for _, tt := range tests {
		for i, want := range tt.want {
			if ws, ch := commandAt(tt.workspaces, i); ws.team+"/"+ch != want {
				t.Errorf("command %d: %s/%s, want %s", i, ws.team, ch, want)
			}
		}
	}
}

// TestInstallProblems: install mode fails on anything lost or doubled in
// a workspace, on any call with a token it should not have used, on a
// broken installation and on a run too short to refresh the tokens.
func TestInstallProblems(t *testing.T) {
	t.Parallel()
	clean := func() *installFigures {
		return &installFigures{Workspaces: []workspaceOutcome{{Team: "T0A"}, {Team: "T0B"}}, Refreshes: 2}
	}
	tests := []struct {
		name   string
		change func(*installFigures)
		want   int
	}{
		{"clean", func(*installFigures) {}, 0},
		{"a result lost in one workspace", func(f *installFigures) { f.Workspaces[1].Results.Lost = 1 }, 1},
		{"a call with another's token", func(f *installFigures) { f.Foreign = 1 }, 1},
		{"an expired token and a reused refresh token", func(f *installFigures) { f.Expired, f.Reused = 1, 1 }, 2},
		{"broken", func(f *installFigures) { f.Broken = 1 }, 1},
		{"no refresh in one workspace", func(f *installFigures) { f.Refreshes = 1 }, 1},
	}
	for _, tt := range tests {
		f := clean()
		tt.change(f)
		if got := f.problems(); len(got) != tt.want {
			t.Errorf("%s: problems %q, want %d", tt.name, got, tt.want)
		}
	}
	sum := clean().plus(clean())
	if sum.Refreshes != 4 || len(sum.Workspaces) != 2 || len(sum.problems()) != 0 {
		t.Errorf("two clean runs add up to %+v", sum)
	}
}

// TestReuseCause: a refresh token presented again is put down to a SIGKILL
// only when one fell between the refresh's request (the latency before
// Slack's exchange) and its answer.
func TestReuseCause(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 11, 44, 8, 0, time.UTC)
	tests := []struct {
		name   string
		kill   time.Duration // from the exchange
		killed bool
	}{
		{"killed while Slack held the request", -150 * time.Millisecond, true},
		{"killed as the answer came back", 50 * time.Millisecond, true},
		{"killed a second before", -time.Second, false},
		{"killed a second after", time.Second, false},
	}
	for _, tt := range tests {
		got := reuseCause(at, []time.Time{at.Add(-10 * time.Second), at.Add(tt.kill)}, 250*time.Millisecond)
		if blamed := !strings.HasPrefix(got, "no replica"); blamed != tt.killed {
			t.Errorf("%s: %q", tt.name, got)
		}
	}
}
