package config

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/ask"
)

// TestServeAskLimits: DOCSBOT_ASK_BUDGET, DOCSBOT_ASK_PER_GUEST and
// DOCSBOT_LINK_DOMAINS reach the answers' settings, with their defaults
// unset; a budget or a guest's share that is not a whole number of at
// least 1 and a link domain that is not a host name are problems, each
// named by its variable.
func TestServeAskLimits(t *testing.T) {
	t.Parallel()
	base := map[string]string{EnvSlackBotToken: "xoxb-1-2-abc", EnvSlackAppToken: "xapp-1-abc", EnvAPIKey: "mint_0000000000000000000000",
		EnvProject: "proj_1"}
	serve := func(extra map[string]string) (Serve, error) {
		vars := map[string]string{}
		for k, v := range base {
			vars[k] = v
		}
		for k, v := range extra {
			vars[k] = v
		}
		e := Env{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, Dir: t.TempDir(), Stderr: io.Discard}
		return e.Serve(nil)
	}
	c, err := serve(nil)
	if err != nil {
		t.Fatalf("defaults: %v", err)
	}
	if c.Ask.Budget != ask.DefaultBudget || c.Ask.PerGuest != ask.DefaultPerGuest || len(c.Ask.LinkDomains) != 0 {
		t.Errorf("defaults: budget %d, a guest's share %d, link domains %q; want %d, %d and none", c.Ask.Budget, c.Ask.PerGuest, c.Ask.LinkDomains,
			ask.DefaultBudget, ask.DefaultPerGuest)
	}
	c, err = serve(map[string]string{EnvAskBudget: "40", EnvAskPerGuest: "3", EnvLinkDomains: "example.com, Status.Example.org"})
	if err != nil {
		t.Fatalf("set: %v", err)
	}
	if c.Ask.Budget != 40 || c.Ask.PerGuest != 3 || !slices.Equal(c.Ask.LinkDomains, []string{"example.com", "Status.Example.org"}) {
		t.Errorf("set: budget %d, a guest's share %d, link domains %q", c.Ask.Budget, c.Ask.PerGuest, c.Ask.LinkDomains)
	}
	for name, bad := range map[string]map[string]string{
		EnvAskBudget:   {EnvAskBudget: "0"},
		EnvAskPerGuest: {EnvAskPerGuest: "0"},
		EnvLinkDomains: {EnvLinkDomains: "example.com,https://evil.example/login"},
	} {
		c, err := serve(bad)
		if err == nil || !slices.ContainsFunc(c.Problems, func(p Problem) bool { return slices.Contains(p.Vars, name) }) {
			t.Errorf("%s=%s: %v, problems %+v; want a problem of %s", name, bad[name], err, c.Problems, name)
		}
		if name == EnvLinkDomains && err != nil && !strings.Contains(err.Error(), "is not a host name") {
			t.Errorf("%s: %v, want it to say the value is not a host name", name, err)
		}
	}
}
