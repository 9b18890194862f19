package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// TestWorkspaceSettings: settings set in Slack are kept per workspace with
// who set them and when; Apply returns what each held before, a value ""
// clears its setting, every change is published, and one setting of
// several workspaces is read at once.
func TestWorkspaceSettings(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	ws := s.WorkspaceSettings()
	changes := ws.Changes(ctx)
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

	old, err := ws.Apply(ctx, "T1", []store.WorkspaceSetting{
		{Key: "editors", Value: "U1 S1", By: "U0ADMIN", At: at},
		{Key: "ask_per_user", Value: "10", By: "U0ADMIN", At: at},
	})
	if err != nil || len(old) != 0 {
		t.Fatalf("first Apply = %v, %v; want nothing before", old, err)
	}
	if got := <-changes; got != "T1" {
		t.Errorf("change published for %q, want T1", got)
	}
	if _, err := ws.Apply(ctx, "T2", []store.WorkspaceSetting{{Key: "editors", Value: "U2", By: "U0OTHER", At: at}}); err != nil {
		t.Fatal(err)
	}
	<-changes

	later := at.Add(time.Hour)
	old, err = ws.Apply(ctx, "T1", []store.WorkspaceSetting{
		{Key: "editors", Value: "U3", By: "U0ADMIN", At: later},
		{Key: "ask_per_user", Value: "", By: "U0ADMIN", At: later},
		{Key: "ask_budget", Value: "", By: "U0ADMIN", At: later},
	})
	if err != nil {
		t.Fatal(err)
	}
	<-changes
	want := map[string]store.WorkspaceSetting{
		"editors":      {Key: "editors", Value: "U1 S1", By: "U0ADMIN", At: at},
		"ask_per_user": {Key: "ask_per_user", Value: "10", By: "U0ADMIN", At: at},
	}
	if len(old) != len(want) || old["editors"] != want["editors"] || old["ask_per_user"] != want["ask_per_user"] {
		t.Errorf("second Apply's old values = %+v, want %+v", old, want)
	}

	for _, c := range []struct {
		team string
		want map[string]store.WorkspaceSetting
	}{
		{"T1", map[string]store.WorkspaceSetting{"editors": {Key: "editors", Value: "U3", By: "U0ADMIN", At: later}}},
		{"T2", map[string]store.WorkspaceSetting{"editors": {Key: "editors", Value: "U2", By: "U0OTHER", At: at}}},
		{"T3", map[string]store.WorkspaceSetting{}},
	} {
		got, err := ws.All(ctx, c.team)
		if err != nil || len(got) != len(c.want) || got["editors"] != c.want["editors"] {
			t.Errorf("All(%s) = %+v, %v; want %+v", c.team, got, err, c.want)
		}
	}

	// One setting of several workspaces, in one read: those that set it.
	of, err := ws.Of(ctx, "editors", []string{"T1", "T2", "T3"})
	if err != nil || len(of) != 2 || of["T1"].Value != "U3" || of["T2"].Value != "U2" || of["T2"].By != "U0OTHER" {
		t.Errorf("Of(editors) = %+v, %v; want T1's and T2's", of, err)
	}
	if of, err := ws.Of(ctx, "ask_budget", []string{"T1", "T2"}); err != nil || len(of) != 0 {
		t.Errorf("Of(ask_budget) = %+v, %v; want none set", of, err)
	}

	if _, err := ws.Apply(ctx, "", []store.WorkspaceSetting{{Key: "editors", Value: "U1"}}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Apply without a workspace: %v, want ErrInvalid", err)
	}
	if _, err := ws.Apply(ctx, "T1", []store.WorkspaceSetting{{Value: "U1"}}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Apply without a key: %v, want ErrInvalid", err)
	}
}
