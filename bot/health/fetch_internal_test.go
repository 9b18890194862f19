package health

import (
	"fmt"
	"testing"

	"github.com/docsbot/docsbot/docsapi"
)

// TestBoundedSaysWhatWasRead: a list cut at the pages bound is noted with
// how many pages were read and that the rest is not counted ("Only the
// first pages of the page views were read." read as a riddle); any other
// error is returned as it is.
func TestBoundedSaysWhatWasRead(t *testing.T) {
	t.Parallel()
	var rep report
	if err := rep.bounded(fmt.Errorf("views: %w", docsapi.ErrPageBound), "the page views", 3); err != nil {
		t.Fatalf("bounded = %v, want the bound noted", err)
	}
	want := "docsbot read the first 3 pages of results for the page views; what follows them is not counted."
	if len(rep.Notes) != 1 || rep.Notes[0] != want {
		t.Errorf("notes = %q, want %q", rep.Notes, want)
	}
	other := fmt.Errorf("views: %w", docsapi.ErrOutcomeUnknown)
	if err := rep.bounded(other, "the page views", 3); err != other || len(rep.Notes) != 1 {
		t.Errorf("bounded(another error) = %v with notes %q, want the error as it is and no note", err, rep.Notes)
	}
}
