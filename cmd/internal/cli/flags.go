package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// FlagSet returns a flag set whose usage shows the text, then the flags.
// Parse it with Parse.
func FlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprint(w, strings.TrimRight(usage, "\n")+"\n")
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprint(w, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// Parse parses args with fs, allowing flags before, between and after the
// positional arguments, which it returns in order. Everything after "--" is
// positional. Help that was asked for goes to stdout and gives an *Error
// with code ExitOK; a mistake shows the problem and the usage on stderr.
func Parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) ([]string, error) {
	var msgs bytes.Buffer
	fs.SetOutput(&msgs)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				stdout.Write(msgs.Bytes())
				return nil, &Error{Code: ExitOK, Quiet: true, Err: err}
			}
			stderr.Write(msgs.Bytes())
			return nil, &Error{Code: ExitUsage, Quiet: true, Msg: err.Error(), Err: err}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// IsSet reports whether the flag called name was given on the command line.
func IsSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// Format is a --format flag that accepts one of a fixed set of values.
type Format struct {
	Value   string
	allowed []string
}

// NewFormat returns a format flag whose default is the first of allowed.
func NewFormat(allowed ...string) *Format {
	return &Format{Value: allowed[0], allowed: allowed}
}

func (f *Format) String() string {
	if f == nil {
		return ""
	}
	return f.Value
}

// Set accepts one of the allowed values.
func (f *Format) Set(s string) error {
	for _, a := range f.allowed {
		if s == a {
			f.Value = s
			return nil
		}
	}
	return fmt.Errorf("must be one of %s", strings.Join(f.allowed, ", "))
}

// Usage is the flag's help.
func (f *Format) Usage() string {
	return "output `format`: " + strings.Join(f.allowed, ", ")
}

// ParseSince reads a start time (docsbot audit --since): a duration back from now (Go's, or whole days
// such as 7d), a date (midnight UTC) or an RFC 3339 time.
func ParseSince(v string, now time.Time) (time.Time, error) {
	if days, ok := strings.CutSuffix(v, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n > 0 {
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil {
		if d <= 0 {
			return time.Time{}, fmt.Errorf("%q is not a positive duration", v)
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is neither a duration (24h, 7d) nor a date (2026-11-01) or time (2026-11-01T09:00:00Z)", v)
}

// MainVersion is the module version the Go toolchain stamped in the build.
func MainVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// Version describes the build: module version, Go version and commit.
func Version() string {
	v, extra := MainVersion(), []string{runtime.Version()}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && len(s.Value) >= 12:
				extra = append(extra, "commit "+s.Value[:12])
			case s.Key == "vcs.modified" && s.Value == "true":
				extra = append(extra, "modified")
			}
		}
	}
	return v + " (" + strings.Join(extra, ", ") + ")"
}
