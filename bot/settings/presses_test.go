package settings_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/settings"
	"github.com/docsbot/docsbot/store"
)

// TestSettingsWorkLeftByADeadReplicaIsDone: a replica took a press of
// Disconnect, another it had decided (its time and telling marked) but not
// written, and the telling of a modal's change after writing its first
// audit record, then died. Another replica disconnects both projects, the
// second at the decided time, audits and confirms each once, and of the
// change appends only the audit record not yet marked, then confirms it
// once. A member's presses of Disconnect
// and Clear (forged: their Home has neither) are refused in their DM, the
// trigger being gone, and audited once each: the other project stays
// connected and the editors set.
func TestSettingsWorkLeftByADeadReplicaIsDone(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.Slack.MakeAdmin(alice, false)
	sealer, _ := store.NewSealer(secretsKey)
	conns := h.OpenStore().Connections(sealer)
	for _, name := range []string{"web", "guides", "api"} {
		if err := conns.Save(t.Context(), store.Connection{Team: team, Name: name, ProjectID: h.API.ProjectID, APIKey: h.API.Key, By: alice, At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	editors := store.WorkspaceSetting{Key: bot.SettingEditors, Value: alice, By: alice, At: time.Now()}
	if _, err := h.OpenStore().WorkspaceSettings().Apply(t.Context(), team, []store.WorkspaceSetting{editors}); err != nil {
		t.Fatal(err)
	}

	// The press as Slack sent it (its trigger long gone), and a telling
	// whose first audit record is marked.
	press := &slack.InteractionCallback{Type: slack.InteractionTypeBlockActions, Team: slack.Team{ID: team}, User: slack.User{ID: alice},
		TriggerID: "1795856400.expired", ActionCallback: slack.ActionCallbacks{BlockActions: []*slack.BlockAction{
			{ActionID: settings.ActionDisconnect, Value: "web", ActionTs: "1795856400.000100"}}}}
	h.DeadReplicaWork("act:dead-replica-disconnect", "settings.disconnect", press, nil)
	// A Disconnect of api decided (its time chosen, its telling written
	// down) but not written.
	retired := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	decided, _ := json.Marshal(map[string]any{"retired": retired, "told": map[string]any{"team": team, "user": alice, "key": "disconnect:api:20261203T090000.000",
		"audits": []string{"disconnected the docs project `api` (project id " + h.API.ProjectID + ")"}, "confirm": "The docs project *api* is disconnected."}})
	apiPress := *press
	apiPress.ActionCallback.BlockActions = []*slack.BlockAction{{ActionID: settings.ActionDisconnect, Value: "api", ActionTs: "1795856400.000400"}}
	h.DeadReplicaWork("act:dead-replica-disconnect-api", "settings.disconnect", &apiPress, map[string]string{"decided": string(decided)})
	// A member's presses, forged (their Home has no such buttons): refused.
	for kind, action := range map[string]*slack.BlockAction{
		"settings.disconnect": {ActionID: settings.ActionDisconnect, Value: "guides", ActionTs: "1795856400.000200"},
		"settings.clear":      {ActionID: settings.ActionClear + bot.SettingEditors, Value: bot.SettingEditors, ActionTs: "1795856400.000300"},
	} {
		forged := &slack.InteractionCallback{Type: slack.InteractionTypeBlockActions, Team: slack.Team{ID: team}, User: slack.User{ID: bob},
			TriggerID: "1795856400.expired", ActionCallback: slack.ActionCallbacks{BlockActions: []*slack.BlockAction{action}}}
		h.DeadReplicaWork("act:forged-"+kind, kind, forged, nil)
	}
	told := map[string]any{"team": team, "user": alice, "key": "set:20261203T090000.000", "numbered": true,
		"audits":  []string{"set Editors (over DOCSBOT_EDITORS) to \"U0ALICE\"", "set Experts (over DOCSBOT_EXPERTS) to \"U0BOB\""},
		"confirm": "✅ docsbot's settings changed in this workspace, in force within 5 seconds:\n• *Editors*, *Experts*"}
	h.DeadReplicaWork("settings:set:20261203T090000.000", "settings.told", told, map[string]string{"audit:0": "1"})
	firstRun(h)

	dmSaying := func(text string) int {
		n := 0
		for _, m := range h.Slack.Messages("D0ALICE") {
			if strings.Contains(m.Text, text) {
				n++
			}
		}
		return n
	}
	h.WaitFor("the disconnects confirmed", func() bool { return dmSaying("is disconnected") == 2 })
	h.WaitFor("the change confirmed", func() bool { return dmSaying("settings changed") == 1 })
	h.WaitFor("bob's presses refused in his DM", func() bool {
		n := 0
		for _, m := range h.Slack.Messages("D0BOB") {
			if strings.Contains(m.Text, "Only admins") {
				n++
			}
		}
		return n == 2
	})
	h.Idle()
	list, _, err := conns.List(t.Context(), team)
	if err != nil || len(list) != 3 {
		t.Fatalf("after the presses: %+v, %v", list, err)
	}
	for _, c := range list {
		if got := !c.Retired.IsZero(); got != (c.Name != "guides") {
			t.Errorf("%s retired %t: alice's presses retire web and api, not bob's guides", c.Name, got)
		}
		if c.Name == "api" && !c.Retired.Equal(retired) {
			t.Errorf("api retired at %v, want the decided %v", c.Retired, retired)
		}
	}
	if all, err := h.OpenStore().WorkspaceSettings().All(t.Context(), team); err != nil || all[bot.SettingEditors].Value != alice {
		t.Errorf("the editors after bob's Clear: %+v, %v; want alice still", all[bot.SettingEditors], err)
	}
	works := map[string]int{}
	var refusals []string
	err = h.OpenStore().AuditLog(store.AuditOptions{}).Each(t.Context(), store.AuditQuery{}, func(r store.AuditRecord) error {
		switch r.Action {
		case store.AuditSettings:
			works[r.Work+" "+r.Detail]++
		case store.AuditRefusal:
			refusals = append(refusals, r.User+" "+r.Detail)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var disconnects int
	for k, n := range works {
		if strings.HasPrefix(k, "settings:disconnect:web:") && strings.Contains(k, "disconnected the docs project `web`") {
			disconnects += n
		}
	}
	if disconnects != 1 || works["settings:disconnect:api:20261203T090000.000 disconnected the docs project `api` (project id "+h.API.ProjectID+")"] != 1 ||
		works[`settings:set:20261203T090000.000:1 set Experts (over DOCSBOT_EXPERTS) to "U0BOB"`] != 1 || len(works) != 3 {
		t.Errorf("audit records of settings: %v; want the two disconnects and the second change, once each", works)
	}
	slices.Sort(refusals)
	if want := []string{bob + " settings: clear " + bot.SettingEditors + ": not an admin", bob + " settings: disconnect guides: not an admin"}; !slices.Equal(refusals, want) {
		t.Errorf("refusals audited: %q, want %q", refusals, want)
	}
	if n, m := dmSaying("is disconnected"), dmSaying("settings changed"); n != 2 || m != 1 {
		t.Errorf("alice was told %d disconnects and %d changes, want 2 and 1", n, m)
	}
}
