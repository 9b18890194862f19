package agent

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
)

// FuzzParseCommand: whatever follows /docs-agent, for a bot serving one
// project or a projects file, parseCommand never panics and asks for one
// thing at most (a problem's answer, the help, a list or status, else a job
// whose instruction is the text as typed); a project=NAME is read only with
// a projects file, for a list or status, in lower case and from the text; a
// status names a job id of the text. The text as typed, escaped again as
// Slack sends it, parses to the same command.
func FuzzParseCommand(f *testing.F) {
	two, err := project.New(
		project.Project{Name: "docs", ID: "p-docs", APIKey: project.NewSecret("mint_docs_key"), APIURL: "http://127.0.0.1:1"},
		project.Project{Name: "api", ID: "p-api", APIKey: project.NewSecret("mint_api_key"), APIURL: "http://127.0.0.1:1"},
	)
	if err != nil {
		f.Fatal(err)
	}
	sets := []*project.Set{project.Single("p1", "mint_key", "http://127.0.0.1:1"), two}
	for _, s := range []string{
		"", "help", " HELP ", "list", "list.", "status job-123", "status", "status a b", "Add a quickstart",
		"project=api list", "list project=API", "project=nope list", "project= list", "project=api project=docs list",
		"project=api Add a page", "project=api help", "help project=docs", "&lt;b&gt; tags &amp; such", "<@U0BOB> list",
		"<https://example.com|the page> needs work", "status job-1 project=api", "retry", "\tlist\n",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, file bool) {
		set := sets[0]
		if file {
			set = sets[1]
		}
		c := parseCommand(raw, set)
		asks := 0
		for _, b := range []bool{c.Problem != "", c.Help, c.Listing} {
			if b {
				asks++
			}
		}
		switch {
		case c.Text != strings.TrimSpace(c.Text):
			t.Fatalf("parseCommand(%q): text %q not trimmed", raw, c.Text)
		case asks > 1:
			t.Fatalf("parseCommand(%q) asks for more than one thing: %+v", raw, c)
		case c.Text == "" && asks > 0:
			t.Fatalf("parseCommand(%q): nothing typed, yet %+v", raw, c)
		case !c.Listing && (c.JobID != "" || c.Project != ""):
			t.Fatalf("parseCommand(%q): a job id or project without a list or status: %+v", raw, c)
		case c.JobID != "" && (!isJobID(c.JobID) || !strings.Contains(c.Text, c.JobID)):
			t.Fatalf("parseCommand(%q): job id %q", raw, c.JobID)
		case set.Implicit() && (c.Problem != "" || c.Project != ""):
			t.Fatalf("parseCommand(%q) for one project: %+v", raw, c)
		case c.Project != "" && (c.Project != strings.ToLower(c.Project) || !strings.Contains(strings.ToLower(c.Text), "project="+c.Project)):
			t.Fatalf("parseCommand(%q): project %q", raw, c.Project)
		}
		if utf8.ValidString(c.Text) {
			if again := parseCommand(mrkdwn.Escape(c.Text), set); again != c {
				t.Fatalf("parseCommand(%q) = %+v, but its text escaped again parses to %+v", raw, c, again)
			}
		}
	})
}
