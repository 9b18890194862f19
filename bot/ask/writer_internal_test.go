package ask

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// TestShowableHoldsWhatMayChange: a growing text is shown up to what can no
// longer change: not a last line that may open the suggestions block, the
// block itself, an unclosed link or the last word.
func TestShowableHoldsWhatMayChange(t *testing.T) {
	t.Parallel()
	site, _ := url.Parse("https://docs.example.com/")
	tests := []struct{ text, growing, final string }{
		{"See [Keys](/k", "See ", "See [Keys]\u200b(/k"}, // never closed: no link, nor one a later ')' could close
		{"See [Keys](/k) now", "See [Keys](https://docs.example.com/k) ", "See [Keys](https://docs.example.com/k) now"},
		{"Done.\n``", "Done.\n", "Done.\n``"},
		{"Done.\n```suggestions\n(A)[/a]\n```", "Done.\n", "Done.\n"},
		{"Ping <", "Ping ", "Ping <"},
	}
	for _, tt := range tests {
		w := &writer{sites: mrkdwn.NewSites(site, nil)}
		w.add(tt.text)
		if got, _ := w.next(w.showable(false), 0, false); got != tt.growing {
			t.Errorf("growing %q: shows %q, want %q", tt.text, got, tt.growing)
		}
		if got, _ := w.next(w.showable(true), 0, true); got != tt.final {
			t.Errorf("final %q: shows %q, want %q", tt.text, got, tt.final)
		}
	}
}

// TestNextPieceFitsSlack: a piece that grows past Slack's limit once made
// safe (many relative links on a long site address) is cut smaller.
func TestNextPieceFitsSlack(t *testing.T) {
	t.Parallel()
	site, _ := url.Parse("https://docs.example.com/" + strings.Repeat("a", 100) + "/")
	w := &writer{sites: mrkdwn.NewSites(site, nil)}
	text := strings.Repeat("[k](/x) ", 2000)
	for from := 0; from < len(text); {
		piece, end := w.next(text, from, true)
		if n := utf8.RuneCountInString(piece); n > sentMax || end <= from {
			t.Fatalf("a piece of %d characters (ending at %d from %d), want at most %d", n, end, from, sentMax)
		}
		from = end
	}
}

// TestHistoryOf: the oldest exchanges go first; the latest alone is cut to
// fit, its answer more than its question.
func TestHistoryOf(t *testing.T) {
	t.Parallel()
	ex := func(q, a int) []store.Turn {
		return []store.Turn{{Role: "user", Text: strings.Repeat("q", q)}, {Role: "assistant", Text: strings.Repeat("a", a)}}
	}
	size := func(turns []store.Turn) int {
		n := 0
		for _, t := range turns {
			n += utf8.RuneCountInString(t.Text)
		}
		return n
	}
	tests := []struct {
		name       string
		turns      []store.Turn
		kept, left int
	}{
		{"none", nil, 0, 0},
		{"all fit", append(ex(100, 1000), ex(100, 1000)...), 4, 0},
		{"oldest left out", append(append(ex(100, 5000), ex(100, 2000)...), ex(100, 2000)...), 4, 2},
		{"the latest alone too long", append(ex(100, 100), ex(3000, 30000)...), 2, 2},
	}
	for _, tt := range tests {
		kept, left := historyOf(tt.turns)
		if len(kept) != tt.kept || left != tt.left || size(kept) > HistoryMax {
			t.Errorf("%s: kept %d turns (%d characters), left %d out; want %d and %d, at most %d characters", tt.name, len(kept), size(kept), left, tt.kept, tt.left, HistoryMax)
		}
		if len(kept) > 0 && kept[0].Role != "user" {
			t.Errorf("%s: the history starts with the assistant", tt.name)
		}
	}
	kept, _ := historyOf(ex(3000, 30000))
	if q := utf8.RuneCountInString(kept[0].Text); q != 3000 {
		t.Errorf("a question of 3,000 characters cut to %d with an answer of 30,000", q)
	}
}

// TestStartedGoesOnUnlessTheClaimIsLost: once the answer's message shows,
// a record of its ts that cannot be written (Redis away) does not stop the
// answer there, cut short; a claim another replica took does.
func TestStartedGoesOnUnlessTheClaimIsLost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		record  error
		stopped bool
	}{
		{"recorded", nil, false},
		{"Redis away", fmt.Errorf("store: mark work: %w", store.ErrUnreachable), false},
		{"its record lost and not written back", fmt.Errorf("writing back the record a failover lost: %w", store.ErrUnreachable), false},
		{"the claim another replica's", fmt.Errorf("store: mark work: %w", store.ErrStale), true},
		{"another record in its place", fmt.Errorf("store: mark work: %w", store.ErrNotFound), true},
	}
	for _, tt := range tests {
		var got string
		w := &writer{log: slog.New(slog.DiscardHandler), onStarted: func(_ context.Context, ts string) error {
			got = ts
			return tt.record
		}}
		err := w.started(t.Context(), "1795856400.000100")
		if got != "1795856400.000100" {
			t.Errorf("%s: recorded %q", tt.name, got)
		}
		if stopped := err != nil; stopped != tt.stopped || (stopped && !errors.Is(err, tt.record)) {
			t.Errorf("%s: started = %v, want stopped %v", tt.name, err, tt.stopped)
		}
	}
}
