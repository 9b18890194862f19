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
	return &Progress{w: w, tty: IsTerminal(w), noun: "job", id: id, now: now, start: now()}
}

// NewDeployProgress starts the progress of the deployment id on w, timed by
// now; feed it with UpdateDeploy.
func NewDeployProgress(w io.Writer, id string, now func() time.Time) *Progress {
	return &Progress{w: w, tty: IsTerminal(w), noun: "deployment", id: id, now: now, start: now()}
}

// Progress shows how a watched job or deployment is doing: on a terminal
// one line redrawn in place, elsewhere one line per status change.
type Progress struct {
	w     io.Writer
	tty   bool
	noun  string // "job", "deployment"
	id    string
	now   func() time.Time
	start time.Time
	last  string
	known bool // last is a documented status
	seen  bool
	drawn bool
}

// Update records the status of a poll of a job, changed or not.
func (p *Progress) Update(s docsapi.Status, changed bool) { p.update(string(s), s.Known(), changed) }

// UpdateDeploy records the state of a poll of a deployment, changed or not.
func (p *Progress) UpdateDeploy(s docsapi.DeployState, changed bool) {
	p.update(string(s), s.Known(), changed)
}

func (p *Progress) update(s string, known, changed bool) {
	p.seen, p.last, p.known = true, s, known
	switch {
	case p.tty:
		p.draw()
	case changed:
		fmt.Fprintf(p.w, "%s %s: %s (%s)\n", p.noun, Printable(p.id), p.StatusText(), Elapsed(p.now().Sub(p.start)))
	}
}

// StatusText is the status as the progress line shows it: "not known yet"
// before the first answer.
func (p *Progress) StatusText() string {
	switch {
	case !p.seen:
		return "not known yet"
	case !p.known:
		return Printable(p.last) + ", an unknown status: still watching"
	}
	return p.last
}

func (p *Progress) draw() {
	fmt.Fprintf(p.w, "\r\033[K%s %s: %s · %s", p.noun, Printable(p.id), p.StatusText(), Elapsed(p.now().Sub(p.start)))
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
