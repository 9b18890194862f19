package project_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/project"
)

// served are the projects a test's words list.
type served []string

func (s served) Names() []string { return s }

// TestProblem checks the words of a project=NAME the person must fix: what
// is wrong, the projects listed, the names shown escaped; "" and not a
// problem for any other error.
func TestProblem(t *testing.T) {
	t.Parallel()
	set := served{"api", "guides"}
	tests := []struct {
		name    string
		err     error
		problem bool
		want    []string // "" for no words
	}{
		{"unknown", fmt.Errorf("resolving: %w", &project.UnknownError{Name: "apj"}), true,
			[]string{"There is no docs project `apj`.", "`api`, `guides`", "of your command."}},
		{"empty name", &project.EmptyNameError{}, true, []string{"Write a project name after `project=`.", "`api`, `guides`."}},
		{"two", &project.TokenError{First: "api", Last: "<b>"}, true,
			[]string{"names two docs projects, `api` and `&lt;b&gt;`: name one."}},
		{"other", errors.New("redis unreachable"), false, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := project.IsProblem(tt.err); got != tt.problem {
				t.Errorf("IsProblem = %v, want %v", got, tt.problem)
			}
			got := project.Problem(tt.err, set, "command")
			for _, w := range tt.want {
				if w == "" && got != "" || !strings.Contains(got, w) {
					t.Errorf("Problem = %q, want it to hold %q", got, w)
				}
			}
		})
	}
}

// TestNameWords checks a project's name after a noun, in a command and
// in Which: nothing for the unnamed project, the name escaped otherwise.
func TestNameWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"of", project.Of("api"), " of project *api*"},
		{"of unnamed", project.Of(""), ""},
		{"of plain", project.OfPlain("a<b"), " of project a&lt;b"},
		{"of plain unnamed", project.OfPlain(""), ""},
		{"arg", project.Arg("api"), " project=api"},
		{"arg unnamed", project.Arg(""), ""},
		{"not served", project.NotServed("old"), "docsbot no longer serves the docs project `old`."},
		{"which", project.Which(served{"api"}, "instruction"),
			"Which docs project? The projects are `api`: write `project=NAME` at the start or the end of your instruction."},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}
