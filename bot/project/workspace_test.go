package project_test

import (
	"fmt"
	"testing"

	"github.com/docsbot/docsbot/bot/project"
)

// TestForWorkspace: a project naming teams serves those workspaces and the
// workspaces of those organisations; one naming none serves all; a set
// where nobody names teams is itself.
func TestForWorkspace(t *testing.T) {
	set, err := project.New(
		project.Project{Name: "acme", ID: "p-acme", APIKey: project.NewSecret("k1"), Teams: []string{"T0ACME"}, Channels: []string{"C0ACME"}},
		project.Project{Name: "grid", ID: "p-grid", APIKey: project.NewSecret("k2"), Teams: []string{"E0GRID"}},
		project.Project{Name: "shared", ID: "p-shared", APIKey: project.NewSecret("k3")},
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ team, enterprise, want string }{
		{"T0ACME", "", "[acme shared]"},
		{"T0GRIDA", "E0GRID", "[grid shared]"},
		{"T0OTHER", "", "[shared]"},
		{"", "", "[shared]"},
	} {
		got := set.ForWorkspace(c.team, c.enterprise)
		if fmt.Sprint(got.Names()) != c.want {
			t.Errorf("ForWorkspace(%q, %q) = %v, want %s", c.team, c.enterprise, got.Names(), c.want)
		}
		if _, ok := got.ForChannel("C0ACME"); ok != (c.team == "T0ACME") {
			t.Errorf("ForWorkspace(%q): the channel default of another workspace's project: %t", c.team, ok)
		}
	}

	only, err := project.New(project.Project{Name: "acme", ID: "p-acme", APIKey: project.NewSecret("k1"), Teams: []string{"T0ACME"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := only.ForWorkspace("T0OTHER", "").Len(); n != 0 {
		t.Errorf("a workspace no project serves has %d projects", n)
	}
	open := project.Single("p", "k", "https://api.example.test")
	if open.ForWorkspace("T0ANY", "") != open {
		t.Error("a set naming no teams is not itself for every workspace")
	}
	if _, err := project.New(project.Project{Name: "bad", ID: "p", APIKey: project.NewSecret("k"), Teams: []string{"acme"}}); err == nil {
		t.Error("New took a team that is not an id")
	}
}
