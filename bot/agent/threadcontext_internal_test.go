package agent

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestThreadContextRender(t *testing.T) {
	t.Parallel()
	line := func(i int) string { return fmt.Sprintf("alice: note %02d %s", i, strings.Repeat("x", 90)) }
	many := make([]string, 30)
	for i := range many {
		many[i] = line(i)
	}
	huge := "bob: " + strings.Repeat("y", 5000)
	tests := []struct {
		name     string
		tr       threadRead
		limit    int
		left     int
		has, not []string
	}{
		{"empty", threadRead{}, 1000, 0, nil, []string{"Context"}},
		{"short", threadRead{link: "https://x.slack.com/archives/C1/p1", lines: many[:3]}, 1000, 0,
			[]string{"(https://x.slack.com/archives/C1/p1)", "at most 1000 characters", many[0], many[2]}, []string{"left out"}},
		{"over the cap", threadRead{lines: many}, 1000, 21,
			[]string{many[0], many[29], "the latest 8 are shown, 21 in between are left out"}, []string{many[1] + "\n"}},
		{"a huge first message", threadRead{lines: append([]string{huge}, many[:2]...)}, 1000, 0,
			[]string{"bob: yyy", "…", many[1]}, nil},
	}
	for _, tt := range tests {
		got, left := tt.tr.render(tt.limit)
		if left != tt.left {
			t.Errorf("%s: %d left out, want %d", tt.name, left, tt.left)
		}
		for _, h := range tt.has {
			if !strings.Contains(got, h) {
				t.Errorf("%s: context lacks %q:\n%s", tt.name, h, got)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: context has %q", tt.name, n)
			}
		}
		if tt.tr.lines != nil && utf8.RuneCountInString(got) > tt.limit+400 {
			t.Errorf("%s: %d characters for a cap of %d", tt.name, utf8.RuneCountInString(got), tt.limit)
		}
	}
}
