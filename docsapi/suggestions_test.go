package docsapi_test

import (
	"slices"
	"testing"

	"github.com/docsbot/docsbot/docsapi"
)

func TestExtractSuggestions(t *testing.T) {
	t.Parallel()
	type sg = docsapi.Suggestion
	tests := []struct {
		name, in, text string
		want           []sg
	}{
		{"none", "Just text.", "Just text.", nil},
		{"block at the end", "Install it.\n\n```suggestions\n(Quickstart)[/quickstart]\n(Auth)[/authentication]\n```",
			"Install it.", []sg{{"Quickstart", "/quickstart"}, {"Auth", "/authentication"}}},
		{"block in the middle, bullets, markdown links, junk lines", "A.\n\n```Suggestions\n- (One)[/one]\n* [Two](/two)\nnot a link\n\n```\n\nB.",
			"A.\n\nB.", []sg{{"One", "/one"}, {"Two", "/two"}}},
		{"tildes and a longer fence", "A.\n~~~~suggestions\n(One)[/one]\n~~~\n(Two)[/two]\n~~~~\nB.", "A.\nB.", []sg{{"One", "/one"}, {"Two", "/two"}}},
		{"open block of a cut answer", "A.\n```suggestions\n(One)[/one]\n(Tw", "A.", []sg{{"One", "/one"}}},
		{"other code blocks kept", "```go\n```suggestions\n(x)[/x]\n```\nafter", "```go\n```suggestions\n(x)[/x]\n```\nafter", nil},
		{"indented four spaces is no fence", "    ```suggestions\n(x)[/x]", "```suggestions\n(x)[/x]", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, got := docsapi.ExtractSuggestions(tt.in)
			if text != tt.text || !slices.Equal(got, tt.want) {
				t.Errorf("ExtractSuggestions(%q) = %q, %v; want %q, %v", tt.in, text, got, tt.text, tt.want)
			}
		})
	}
}
