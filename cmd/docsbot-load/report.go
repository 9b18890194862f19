package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// report is what a scenario hands back: figures for people (sections), the
// same figures for machines (the value itself, as JSON) and the correctness
// checks that failed.
type report interface {
	title() string
	sections() []section
	problems() []string
}

// section is one table of a text report.
type section struct {
	heading string
	rows    []row
}

// row is one figure, with its target when it has one.
type row struct {
	name, value string
	target      string
	met         *bool // nil: no target
}

// fig is a row without a target.
func fig(name, format string, args ...any) row {
	return row{name: name, value: fmt.Sprintf(format, args...)}
}

// goal is a row compared with a target.
func goal(name, value, target string, met bool) row {
	return row{name: name, value: value, target: target, met: &met}
}

// writeText prints r as aligned tables.
func writeText(w io.Writer, r report) error {
	var b strings.Builder
	b.WriteString(r.title() + "\n")
	for _, s := range r.sections() {
		b.WriteString("\n" + s.heading + "\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, x := range s.rows {
			verdict := ""
			switch {
			case x.met == nil:
			case *x.met:
				verdict = "ok"
			default:
				verdict = "MISSED"
			}
			target := x.target
			if target != "" {
				target = "target " + target
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", x.name, x.value, target, verdict)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if p := r.problems(); len(p) > 0 {
		b.WriteString("\nCORRECTNESS PROBLEMS\n")
		for _, x := range p {
			b.WriteString("  - " + x + "\n")
		}
	} else {
		b.WriteString("\nAll correctness checks passed.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeJSON prints r as indented JSON.
func writeJSON(w io.Writer, r report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// machineSection describes where the figures were taken.
func machineSection(m machine, loadStart, loadEnd string) section {
	return section{heading: "Machine", rows: []row{
		fig("CPU", "%d × %s", m.CPUs, m.Model),
		fig("Go", "%s", m.GoVersion),
		fig("load average at start", "%s", loadStart),
		fig("load average at end", "%s", loadEnd),
	}}
}

// ms formats a duration in milliseconds with sensible precision.
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v < 10:
		return fmt.Sprintf("%.2f ms", v)
	case v < 1000:
		return fmt.Sprintf("%.1f ms", v)
	}
	return fmt.Sprintf("%.2f s", v/1000)
}

// msf is a duration as float milliseconds, for JSON.
func msf(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}

// round3 rounds x to three decimals, for JSON.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// mib formats a byte count in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
