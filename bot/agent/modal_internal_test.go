package agent

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// cutSaid is what the form says of a context it cut.
var cutSaid = regexp.MustCompile(`cut to ([0-9,]+) characters`)

// TestJobFormCarriesWhatItShows: whatever the context holds (markup
// characters, backticks, quotes, new lines), the form's private_metadata
// stays within Slack's 3,000 characters and carries exactly the context the
// form shows, each of the form's sections stays within Slack's 3,000
// characters, and a context cut says so with the cap.
func TestJobFormCarriesWhatItShows(t *testing.T) {
	t.Parallel()
	target := modalTarget{Team: "T0TEST", Channel: "C0GENERAL", ThreadTS: "1795815451.018106",
		ResponseURL: "https://hooks.slack.com/actions/T0TEST/1234567890123/" + strings.Repeat("a", 24), Default: "docs"}
	tests := []struct {
		name string
		text string
		cut  bool
		// cutTo is the characters the form says the context was cut to: -1
		// for fewer than contextShownMax, as many as it carries or more.
		cutTo int
	}{
		{"short", "Which header does the key go in?", false, 0},
		{"markup and quotes", strings.Repeat("<!channel> & \"x\" \\ ```code``` \n", 200), true, contextShownMax},
		// Slack's limit is in characters, this one in bytes, which text of
		// wide characters has more of: the cap is lower, and said.
		{"wide characters", strings.Repeat("文档👎", 2000), true, -1},
	}
	for _, tt := range tests {
		tr := target
		tr.parts = []contextPart{ours("Context: a problem."), quoted(byOthers, tt.text)}
		view := jobModal(tr, "*Problem*", "Fix it", []string{"docs", "api"})
		if n := len(view.PrivateMetadata); n > metadataMax {
			t.Errorf("%s: private_metadata of %d bytes", tt.name, n)
		}
		got, err := parseTarget(view.PrivateMetadata)
		if err != nil || got.Channel != tr.Channel || got.ResponseURL != tr.ResponseURL || got.Default != "docs" {
			t.Fatalf("%s: metadata read back as %+v, %v", tt.name, got, err)
		}
		carried := utf8.RuneCountInString(got.Context)
		if whole := strings.Contains(got.Context, tt.text); carried > contextShownMax || whole == tt.cut {
			t.Errorf("%s: metadata carries %d characters of context, the whole text %v", tt.name, carried, whole)
		}
		raw, _ := json.Marshal(view.Blocks)
		var blocks []struct {
			Type string `json:"type"`
			Text struct {
				Text string `json:"text"`
			} `json:"text"`
			Elements []struct {
				Text string `json:"text"`
			} `json:"elements"`
		}
		if err := json.Unmarshal(raw, &blocks); err != nil {
			t.Fatal(err)
		}
		shown, notice := "", ""
		for _, b := range blocks {
			if n := utf8.RuneCountInString(b.Text.Text); n > sectionMax {
				t.Errorf("%s: a section of %d characters", tt.name, n)
			}
			for _, e := range b.Elements {
				notice += e.Text
			}
			code, ok := strings.CutPrefix(b.Text.Text, "```\n")
			if !ok {
				continue
			}
			code = strings.TrimSuffix(code, "\n```")
			if strings.Contains(code, "```") || strings.ContainsAny(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(code, "&amp;", ""), "&lt;", ""), "&gt;", ""), "<>&") {
				t.Errorf("%s: a code block that its text could end or that is not escaped: %q", tt.name, code)
			}
			shown += strings.ReplaceAll(mrkdwn.Unescape(code), "\u200b", "")
		}
		// Sections end at a line's end, which the next one's start shows.
		if strings.ReplaceAll(shown, "\n", "") != strings.ReplaceAll(got.Context, "\n", "") {
			t.Errorf("%s: the form shows other text than it carries", tt.name)
		}
		said := cutSaid.FindStringSubmatch(notice)
		switch {
		case !tt.cut && said != nil, tt.cut && said == nil:
			t.Errorf("%s: cut %v, the form says %q", tt.name, tt.cut, notice)
		case said == nil:
		case tt.cutTo > 0 && said[1] != humanize.Count(int64(tt.cutTo)):
			t.Errorf("%s: the form says it was cut to %s characters, want %d", tt.name, said[1], tt.cutTo)
		case tt.cutTo < 0:
			n, _ := strconv.Atoi(strings.ReplaceAll(said[1], ",", ""))
			if n < carried || n >= contextShownMax {
				t.Errorf("%s: the form says it was cut to %d characters; it carries %d", tt.name, n, carried)
			}
		}
	}
}
