package project_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/project"
)

func TestNew(t *testing.T) {
	t.Parallel()
	docs := project.Project{Name: "docs", ID: "p-docs", APIKey: project.NewSecret(keyDocs), APIURL: "http://127.0.0.1:1", Channels: []string{"C0DOCS"}}
	api := project.Project{Name: "api", ID: "p-api", APIKey: project.NewSecret(keyAPI), Channels: []string{"C0API"}, VisitorsBudget: "acme"}
	with := func(p project.Project, f func(*project.Project)) project.Project { f(&p); return p }

	set, err := project.New(docs, api)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(set.Names(), ","); got != "docs,api" || set.Implicit() {
		t.Errorf("names %q, implicit %t: want docs,api and not implicit", got, set.Implicit())
	}
	if p, ok := set.ForChannel("C0API"); !ok || p.Name != "api" || p.VisitorsBudget != "acme" {
		t.Errorf("ForChannel(C0API) = %+v, %t", p, ok)
	}
	if p, _ := set.Get("docs"); p.VisitorsBudget != "docs" || p.APIKey.Reveal() != keyDocs {
		t.Errorf("docs has budget %q and key %t, want its name and its key", p.VisitorsBudget, p.APIKey.Reveal() == keyDocs)
	}

	for _, tt := range []struct {
		name     string
		projects []project.Project
		want     string
	}{
		{"none", nil, "at least one"},
		{"bad name", []project.Project{with(docs, func(p *project.Project) { p.Name = "Docs Team" })}, "name"},
		{"bad id", []project.Project{with(docs, func(p *project.Project) { p.ID = "a/b" })}, "project id"},
		{"no key", []project.Project{with(docs, func(p *project.Project) { p.APIKey = project.Secret{} })}, "no API key"},
		{"bad URL", []project.Project{with(docs, func(p *project.Project) { p.APIURL = "ftp://x" })}, "API URL"},
		{"channel name", []project.Project{with(docs, func(p *project.Project) { p.Channels = []string{"#docs"} })}, "channel id"},
		{"same name", []project.Project{docs, with(api, func(p *project.Project) { p.Name = "docs" })}, "two projects"},
		{"same id", []project.Project{docs, with(api, func(p *project.Project) { p.ID = docs.ID })}, "project id of"},
		{"same channel", []project.Project{docs, with(api, func(p *project.Project) { p.Channels = docs.Channels })}, "one default project"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := project.New(tt.projects...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New = %v, want an error about %q", err, tt.want)
			}
			if strings.Contains(err.Error(), keyDocs) || strings.Contains(err.Error(), keyAPI) {
				t.Errorf("the error shows a key: %v", err)
			}
		})
	}
}
