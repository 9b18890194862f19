package docsapi

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckVisitorsParams(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		p     VisitorsParams
		field string // "" when valid
	}{
		{"zero", VisitorsParams{}, ""},
		{"full", VisitorsParams{From: "2025-11-01", To: "2025-11-08", Limit: 250, Offset: 500}, ""},
		{"limit 1", VisitorsParams{Limit: 1}, ""},
		{"rfc3339", VisitorsParams{From: "2025-11-01T00:00:00Z", To: "2025-11-08T12:30:00.5+01:00"}, ""},
		{"iso without zone", VisitorsParams{From: "2025-11-01T08:00:00", To: "2025-11-02T08:00"}, ""},
		{"iso basic offset", VisitorsParams{From: "2025-11-01T08:00:00+0100"}, ""},
		{"limit too big", VisitorsParams{Limit: 251}, "limit"},
		{"negative limit", VisitorsParams{Limit: -1}, "limit"},
		{"negative offset", VisitorsParams{Offset: -250}, "offset"},
		{"bad from", VisitorsParams{From: "Nov 1"}, "from date"},
		{"short from", VisitorsParams{From: "2025-11-1"}, "from date"},
		{"impossible date", VisitorsParams{From: "2025-02-30"}, "from date"},
		{"bad to", VisitorsParams{To: "tomorrow"}, "to date"},
		{"to with spaces", VisitorsParams{To: " 2025-11-08"}, "to date"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := checkVisitorsParams(tt.p)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("checkVisitorsParams(%+v) = %v, want nil", tt.p, err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.field {
				t.Fatalf("checkVisitorsParams(%+v) = %v, want a ValidationError on %q", tt.p, err, tt.field)
			}
			if !strings.HasPrefix(err.Error(), "docsapi: invalid "+tt.field+": ") {
				t.Errorf("error text %q does not name the field", err)
			}
		})
	}
}

func TestCheckPromptAndIDs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		err   error
		field string
	}{
		{"empty prompt", checkPrompt(""), "prompt"},
		{"blank prompt", checkPrompt(" \t\n"), "prompt"},
		{"prompt", checkPrompt("fix the typo"), ""},
		{"empty id", checkPathID("job id", ""), "job id"},
		{"blank id", checkPathID("job id", "  "), "job id"},
		{"dot id", checkPathID("job id", "."), "job id"},
		{"dot dot id", checkPathID("job id", ".."), "job id"},
		{"id with slash", checkPathID("job id", "a/b"), ""},
	}
	for _, tt := range tests {
		var ve *ValidationError
		switch {
		case tt.field == "" && tt.err != nil:
			t.Errorf("%s: got %v, want nil", tt.name, tt.err)
		case tt.field != "" && (!errors.As(tt.err, &ve) || ve.Field != tt.field):
			t.Errorf("%s: got %v, want a ValidationError on %q", tt.name, tt.err, tt.field)
		}
	}
	if got, want := (&ValidationError{Field: "prompt", Problem: "must not be empty"}).Error(), "docsapi: invalid prompt: must not be empty"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
