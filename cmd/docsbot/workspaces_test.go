package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// TestWorkspacesCommand lists the installations without a token, reseals
// them under a new key put first, and forgets one.
func TestWorkspacesCommand(t *testing.T) {
	t.Parallel()
	st, prefix := sharedStore(t)
	oldKey, newKey := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)
	sealer := mustSealer(t, oldKey)
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, in := range []store.Installation{
		{Workspace: store.Workspace{Team: "T0ACME"}, TeamName: "Acme", BotToken: "xoxb-acme-secret", InstalledBy: "U0ALICE", InstalledAt: at},
		{Workspace: store.Workspace{Team: "T0BETA"}, TeamName: "Beta", BotToken: "xoxb-beta-secret", RefreshToken: "xoxe-1-beta", InstalledBy: "U0BOB",
			InstalledAt: at, Expires: at.Add(12 * time.Hour), Broken: at.Add(time.Hour)},
	} {
		if _, err := st.Installations(sealer).Save(t.Context(), in); err != nil {
			t.Fatal(err)
		}
	}
	b64 := base64.StdEncoding.EncodeToString
	env := func(keys ...[]byte) []string {
		var list []string
		for _, k := range keys {
			list = append(list, b64(k))
		}
		return []string{envRedisURL + "=" + sharedRedis.URL, envRedisPrefix + "=" + prefix, "DOCSBOT_SECRETS_KEY=" + strings.Join(list, ",")}
	}

	res := docsbot(t, nil, env(oldKey), "workspaces")
	if res.code != 0 || !strings.Contains(res.stdout, "T0ACME") || !strings.Contains(res.stdout, "broken: must be added again") {
		t.Fatalf("workspaces:\n%s", res)
	}
	if strings.Contains(res.stdout+res.stderr, "secret") || strings.Contains(res.stdout+res.stderr, "xox") {
		t.Errorf("the list shows a token:\n%s", res)
	}
	// A new key first, the old one after: every one opens; reseal seals
	// with the new one, after which the old key is no longer needed.
	if res := docsbot(t, nil, env(newKey, oldKey), "workspaces", "reseal"); res.code != 0 || !strings.Contains(res.stdout, "resealed 2") {
		t.Fatalf("reseal:\n%s", res)
	}
	res = docsbot(t, nil, env(newKey), "workspaces", "list", "--format", "json")
	var rows []struct{ Workspace, State string }
	if err := json.Unmarshal([]byte(res.stdout), &rows); err != nil || len(rows) != 2 || rows[0].State != "ok" {
		t.Fatalf("after the reseal, with the new key alone:\n%s", res)
	}
	if res := docsbot(t, nil, env(oldKey), "workspaces"); !strings.Contains(res.stdout, "does not open") {
		t.Errorf("the old key alone still opens the resealed tokens:\n%s", res)
	}
	if res := docsbot(t, nil, env(newKey), "workspaces", "forget", "T0BETA"); res.code != 0 || !strings.Contains(res.stdout, "forgot T0BETA") {
		t.Fatalf("forget:\n%s", res)
	}
	if list, bad, err := st.Installations(mustSealer(t, newKey)).List(t.Context()); err != nil || len(list) != 1 || len(bad) != 0 || list[0].Workspace.Team != "T0ACME" {
		t.Errorf("after forget: %d installations (%v, %v), want T0ACME's alone", len(list), bad, err)
	}
	if res := docsbot(t, nil, env(), "workspaces"); res.code == 0 {
		t.Errorf("without DOCSBOT_SECRETS_KEY the command ran:\n%s", res)
	}
}

func mustSealer(t *testing.T, key []byte) *store.Sealer {
	t.Helper()
	s, err := store.NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
