package pane

import (
	"slices"
	"strings"
	"testing"
)

// TestChoose: the prompts offered for what is there and who asks; each
// one's message is what a person would type, naming no project, and is
// read back as that prompt or is a question.
func TestChoose(t *testing.T) {
	for _, c := range []struct {
		name string
		o    offer
		want []string
	}{
		{"an editor, everything", offer{Answers: true, Health: true, Deploys: true, Editor: true},
			[]string{exampleQuestion, "What do readers struggle with this week?", "Deploy status", "Start a docs job…"}},
		{"a viewer", offer{Answers: true, Health: true, Deploys: true},
			[]string{exampleQuestion, "What do readers struggle with this week?", "Deploy status"}},
		{"no answers, no deployments", offer{Health: true, Editor: true},
			[]string{"What do readers struggle with this week?", "Start a docs job…"}},
		{"no health at hand", offer{Answers: true, Deploys: true}, []string{exampleQuestion, "Deploy status"}},
		{"nothing", offer{}, nil},
	} {
		for _, project := range []string{"", "api"} {
			c.o.Project = project
			got := choose(c.o)
			var titles []string
			for _, p := range got {
				titles = append(titles, p.Title)
				base, name, ok := promptOf(p.Message)
				question := !ok && strings.HasSuffix(p.Message, "?")
				if (!question && (!ok || base != p.Message)) || name != "" || strings.Contains(p.Message, "=") {
					t.Errorf("%s: the message %q reads back as %q, %q, %v", c.name, p.Message, base, name, ok)
				}
			}
			if !slices.Equal(titles, c.want) {
				t.Errorf("%s, project %q: %q, want %q", c.name, project, titles, c.want)
			}
		}
	}
}

// TestPromptOf: only a prompt's message, with at most project=NAME after
// it, is a prompt; anything else typed in the pane is a question or a job.
func TestPromptOf(t *testing.T) {
	for _, c := range []struct {
		text, base, project string
	}{
		{"Deploy status", promptDeploy, ""},
		{" Deploy status project=api ", promptDeploy, "api"},
		{"Deploy status please", "", ""},
		{"Deploy status project=", "", ""},
		{"Start a docs job", promptJob, ""},
		{"Start a docs job about keys", "", ""},
		{"How do I rotate a key?", "", ""},
	} {
		base, project, ok := promptOf(c.text)
		if ok != (c.base != "") || base != c.base || project != c.project {
			t.Errorf("promptOf(%q) = %q, %q, %v; want %q, %q", c.text, base, project, ok, c.base, c.project)
		}
	}
}

// TestTitleOf: a title is one line, without project=NAME, cut on a word,
// escaped.
func TestTitleOf(t *testing.T) {
	long := strings.Repeat("rotate ", 20)
	for _, c := range []struct{ text, want string }{
		{"How do I rotate\nan API key?", "How do I rotate an API key?"},
		{"Where are keys kept? project=api", "Where are keys kept?"},
		{"Why does <!channel> & <@U0BOB> get pinged?", "Why does &lt;!channel&gt; &amp; &lt;@U0BOB&gt; get pinged?"},
		{long, strings.TrimSpace(strings.Repeat("rotate ", 8)) + "…"},
		{"  ", ""},
	} {
		if got := titleOf(c.text); got != c.want {
			t.Errorf("titleOf(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
