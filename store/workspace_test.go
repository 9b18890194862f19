package store_test

import (
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestWorkNamesItsWorkspace: a piece of work keeps the workspace it was
// recorded for, team and enterprise, through its claims; one recorded
// without (the one workspace) and one recorded before work named it (no ws
// field in its record) both come back with the zero Workspace.
func TestWorkNamesItsWorkspace(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	grid := work(1)
	grid.Workspace = store.Workspace{Team: "T0GRID", Enterprise: "E0ORG"}
	team := work(2)
	team.Workspace = store.Workspace{Team: "T0ONE"}
	one := work(3)
	for _, w := range []store.Work{grid, team, one} {
		enqueue(t, s, w)
	}
	// A record as versions before workspaces wrote it: no ws field.
	old := work(4)
	enqueue(t, s, old)
	if err := rdb.HDel(t.Context(), s.WorkKeyOf(old.Key), "ws").Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string]store.Workspace{grid.Key: grid.Workspace, team.Key: team.Workspace, one.Key: {}, old.Key: {}}
	got := claimWork(t, s, time.Millisecond)
	if len(got) != len(want) {
		t.Fatalf("claimed %d pieces of work, want %d", len(got), len(want))
	}
	for _, w := range got {
		if w.Workspace != want[w.Key] {
			t.Errorf("%s: workspace %+v, want %+v", w.Key, w.Workspace, want[w.Key])
		}
	}
	// Claimed again once the lease ran out: the workspace stays.
	again := map[string]store.Workspace{}
	redistest.Until(t, "the work due again", func() bool {
		for _, w := range claimWork(t, s, time.Minute) {
			again[w.Key] = w.Workspace
		}
		return len(again) == len(want)
	})
	for key, ws := range again {
		if ws != want[key] {
			t.Errorf("%s, claimed again: workspace %+v, want %+v", key, ws, want[key])
		}
	}
}

func TestWorkspaceString(t *testing.T) {
	t.Parallel()
	for _, w := range []store.Workspace{{}, {Team: "T1"}, {Team: "T1", Enterprise: "E1"}} {
		if got := store.ParseWorkspace(w.String()); got != w {
			t.Errorf("ParseWorkspace(%q) = %+v, want %+v", w.String(), got, w)
		}
	}
	if !(store.Workspace{}).IsZero() || (store.Workspace{Team: "T1"}).IsZero() {
		t.Error("IsZero wrong")
	}
}

// TestRecordsNameTheirWorkspace: a conversation, a help channel's mode, a
// digest subscription, a deployment and a job keep the workspace they are
// written with; written with none (the one workspace) they are stored
// byte for byte as before, so records written the old way read back with
// the zero workspace and keep working.
func TestRecordsNameTheirWorkspace(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	grid := store.Workspace{Team: "T0GRID", Enterprise: "E0ORG"}

	// A conversation written the old way, then one with a workspace.
	old := store.ConversationKey{Thread: store.Thread{Team: "T0ONE", Channel: "C0ONE", TS: "1700000000.000100"}}
	if err := rdb.Set(ctx, s.Prefix()+"conv:T0ONE:C0ONE:1700000000.000100", `{"p":"api","a":"U0ALICE","v":1}`, time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	if c, err := s.Conversations().Conversation(ctx, old); err != nil || !c.Workspace.IsZero() || c.Asker != "U0ALICE" {
		t.Errorf("old conversation = %v (workspace %+v), %v; want it read with the zero workspace", c, c.Workspace, err)
	}
	thread := store.ConversationKey{Thread: store.Thread{Team: grid.Team, Channel: "C0GRID", TS: "1700000000.000200"}}
	if _, err := s.Conversations().UpdateConversation(ctx, thread, time.Hour, store.Conversation{}, func(c *store.Conversation) error {
		c.Workspace = grid
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if c, err := s.Conversations().Conversation(ctx, thread); err != nil || c.Workspace != grid {
		t.Errorf("conversation's workspace = %+v, %v; want %+v", c.Workspace, err, grid)
	}

	// A help channel's mode set the old way, and one with a workspace.
	if err := rdb.HSet(ctx, s.Prefix()+"help:modes", "C0OLD", `{"m":"auto","by":"U0ALICE","at":"2026-01-02T03:04:05Z"}`).Err(); err != nil {
		t.Fatal(err)
	}
	if m, err := s.HelpChannels().Mode(ctx, "C0OLD"); err != nil || m.Mode != "auto" || !m.Workspace.IsZero() {
		t.Errorf("old mode = %+v, %v; want auto with the zero workspace", m, err)
	}
	if err := s.HelpChannels().SetMode(ctx, store.ChannelMode{Channel: "C0GRID", Mode: "private", By: "U0BOB", At: time.Now(), Workspace: grid}); err != nil {
		t.Fatal(err)
	}
	if m, err := s.HelpChannels().Mode(ctx, "C0GRID"); err != nil || m.Workspace != grid {
		t.Errorf("mode's workspace = %+v, %v; want %+v", m.Workspace, err, grid)
	}

	// A digest subscription: its enterprise kept, none in the old one.
	subs := s.Digests()
	for _, d := range []store.DigestSub{
		{Team: "T0ONE", Channel: "C0ONE", Frequency: "weekly", CreatedBy: "U0ALICE", CreatedAt: time.Now()},
		{Team: grid.Team, Channel: "C0GRID", Frequency: "weekly", CreatedBy: "U0BOB", CreatedAt: time.Now(), Enterprise: grid.Enterprise},
	} {
		if err := subs.SubscribeDigest(ctx, d); err != nil {
			t.Fatal(err)
		}
		got, err := subs.DigestSub(ctx, d.Team, d.Channel, "")
		if err != nil || got.Workspace() != d.Workspace() {
			t.Errorf("digest of %s: workspace %+v, %v; want %+v", d.Channel, got.Workspace(), err, d.Workspace())
		}
	}
	raw, err := rdb.HGet(ctx, s.Prefix()+"digest:subs", "T0ONE:C0ONE").Result()
	if err != nil || strings.Contains(raw, `"e"`) {
		t.Errorf("a subscription of the one workspace is stored as %q, %v; want it as before, without an enterprise", raw, err)
	}

	// A deployment's record.
	rec := store.DeployRecord{ID: "cmd:1", State: "queued", User: "U0BOB", Channel: "C0GRID", Started: time.Now(), Workspace: grid}
	if err := s.Deploys().AddDeploy(ctx, grid.Team, rec); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Deploys().Deploy(ctx, grid.Team, rec.ID); err != nil || got.Workspace != grid {
		t.Errorf("deployment's workspace = %+v, %v; want %+v", got.Workspace, err, grid)
	}

	// A job: its enterprise beside its thread's team.
	j := testJob(1)
	j.Thread.Team, j.Enterprise = grid.Team, grid.Enterprise
	if err := s.Jobs().LinkJob(ctx, j, time.Minute); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Jobs().JobByThread(ctx, j.Thread); err != nil || got.Workspace() != grid {
		t.Errorf("job's workspace = %+v, %v; want %+v", got, err, grid)
	}
	plain := testJob(2)
	if err := s.Jobs().LinkJob(ctx, plain, time.Minute); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Jobs().JobByThread(ctx, plain.Thread); err != nil || got.Enterprise != "" {
		t.Errorf("job of the one workspace: enterprise %q, %v; want none", got.Enterprise, err)
	}
}
