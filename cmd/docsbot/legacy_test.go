package main

import (
	"testing"

	"github.com/docsbot/docsbot/bot/project"
)

// TestLegacyProject: records from before the projects file go to the project
// of DOCS_PROJECT_ID when it is still set and in the file, else to the
// file's first project.
func TestLegacyProject(t *testing.T) {
	set, err := project.New(
		project.Project{Name: "docs", ID: "p-docs", APIKey: project.NewSecret("mint_docs_key"), APIURL: "http://127.0.0.1:1"},
		project.Project{Name: "api", ID: "p-api", APIKey: project.NewSecret("mint_api_key"), APIURL: "http://127.0.0.1:1"},
	)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ id, want string }{
		{"p-api", "api"},
		{"p-docs", "docs"},
		{"", "docs"},
		{"p-gone", "docs"},
	}
	for _, tt := range tests {
		if got := legacyProject(set, tt.id).Name; got != tt.want {
			t.Errorf("legacyProject(DOCS_PROJECT_ID=%q) = %s, want %s", tt.id, got, tt.want)
		}
	}
}
