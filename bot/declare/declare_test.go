package declare

import (
	"strings"
	"testing"
)

// TestDeclarationsScopes: each scope once, its events' included, in the
// order first declared, with every declaration's reason; the tabs' reasons
// joined.
func TestDeclarationsScopes(t *testing.T) {
	t.Parallel()
	ds := Declarations{
		{Scopes: []Scope{{"chat:write", "posting"}}},
		{Events: []Event{{Name: "message.im", Scope: Scope{"im:history", "DMs"}}, {Name: "app_home_opened"}},
			Scopes: []Scope{{"im:write", "a digest's DM"}}, MessagesTab: "DMs start jobs"},
		{Scopes: []Scope{{"im:write", "the Home's DM"}, {"chat:write", "posting"}}, HomeTab: "the jobs"},
	}
	want := []Scope{{"chat:write", "posting"}, {"im:history", "DMs"}, {"im:write", "a digest's DM; the Home's DM"}}
	if got := ds.Scopes(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Scopes = %v, want %v", got, want)
	}
	if got := strings.Join(ds.ScopeNames(), ","); got != "chat:write,im:history,im:write" {
		t.Errorf("ScopeNames = %s", got)
	}
	if home, messages := ds.Tabs(); home != "the jobs" || messages != "DMs start jobs" {
		t.Errorf("Tabs = %q, %q", home, messages)
	}
	if ds.Interactive() {
		t.Error("Interactive with no button, form or shortcut")
	}
}
