package term

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

// NewProgress starts the progress of job id on w, timed by now.
func NewProgress(w io.Writer, id string, now func() time.Time) *Progress {
	return &Progress{w: w, tty: IsTerminal(w), id: id, now: now, start: now()}
}

// Progress shows how a watched job is doing: on a terminal one line redrawn
// in place, elsewhere one line per status change.
type Progress struct {
	w     io.Writer
	tty   bool
	id    string
	now   func() time.Time
	start time.Time
	last  docsapi.Status
	seen  bool
	drawn bool
}

// Update records the status of a poll, changed or not.
func (p *Progress) Update(s docsapi.Status, changed bool) {
	p.seen, p.last = true, s
	switch {
	case p.tty:
		p.draw()
	case changed:
		fmt.Fprintf(p.w, "job %s: %s (%s)\n", p.id, p.StatusText(), Elapsed(p.now().Sub(p.start)))
	}
}

// StatusText is the job's status as the progress line shows it: "not known
// yet" before the first answer.
func (p *Progress) StatusText() string {
	switch {
	case !p.seen:
		return "not known yet"
	case !p.last.Known():
		return Printable(string(p.last)) + ", an unknown status: still watching"
	}
	return string(p.last)
}

func (p *Progress) draw() {
	fmt.Fprintf(p.w, "\r\033[Kjob %s: %s · %s", p.id, p.StatusText(), Elapsed(p.now().Sub(p.start)))
	p.drawn = true
}

// Note prints a line of its own, keeping the progress line below it.
func (p *Progress) Note(msg string) {
	p.Clear()
	fmt.Fprintln(p.w, msg)
	if p.tty && p.seen {
		p.draw()
	}
}

// Clear removes the progress line from a terminal.
func (p *Progress) Clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// Sleep waits d, redrawing the progress line every second on a terminal.
func (p *Progress) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	var tick <-chan time.Time
	if p.tty && p.seen {
		tk := time.NewTicker(time.Second)
		defer tk.Stop()
		tick = tk.C
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return nil
		case <-tick:
			p.draw()
		}
	}
}
