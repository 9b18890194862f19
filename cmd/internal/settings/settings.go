// Package settings reads the settings of a program from one table: each row
// names a variable, its flag, its default and its meaning, and the table
// alone defines the flags, writes their help and the usage lists, and looks
// a value up in the flags given, then the environment, then a .env file,
// then the default. What the values mean is the program's; each row may carry
// the check of its values, which Problems runs, most of them built from the
// checks of checks.go (Must, Duration, OneOf, IDs, ...).
package settings

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/joho/godotenv"
)

// Setting is one row of a table: the one place where a setting's variable,
// flag, default and meaning are written.
type Setting struct {
	Env  string
	Flag string // "" when the setting is no flag
	// Default is the default, as typed; "" for none.
	Default string
	// None says what no value means, for the help ("required", "everyone").
	None string
	// EmptyOff means that the setting given empty turns its feature off,
	// rather than leaving the default.
	EmptyOff bool
	Secret   bool
	// Common marks the settings of every command (docsbot: the docs API's);
	// the others belong to some commands only.
	Common bool
	Doc    string
	// Check, if not nil, says what is wrong with a value given (not
	// empty): the words that follow the variable's name in a message, such
	// as ` "soon" is not a positive duration`, or "" when nothing is. quote
	// shows a value as a message may, masked when it holds a secret.
	Check func(v string, quote func(string) string) string
	// ReplacedBy, when set, names the setting that replaces this
	// deprecated one: this one is still read for it while it is not given
	// (Source.Get), the newer one wins when both are, and
	// Source.Deprecations names the newer one to set instead.
	ReplacedBy string
}

// Table is the list of settings, in the order the help lists them.
type Table []Setting

// Of returns the row of the variable env; it panics on a name that is not in
// the table, a mistake of the program.
func (t Table) Of(env string) Setting {
	for _, s := range t {
		if s.Env == env {
			return s
		}
	}
	panic("settings: no setting " + env)
}

// FlagHelp is the help of the setting's flag: its meaning, then where the
// value comes from when the flag is not given.
func (s Setting) FlagHelp() string {
	doc := strings.ReplaceAll(s.Doc, "`", "")
	switch {
	case s.Default != "":
		return fmt.Sprintf("%s (default $%s, else %s)", doc, s.Env, s.Default)
	case s.None != "":
		return fmt.Sprintf("%s (default $%s, else %s)", doc, s.Env, s.None)
	}
	return fmt.Sprintf("%s (default $%s)", doc, s.Env)
}

// Write lists the common settings, or the others, for a usage text:
// variable, meaning, default and flag.
func (t Table) Write(w io.Writer, common bool) {
	for _, s := range t {
		if s.Common != common {
			continue
		}
		extra := []string{}
		switch {
		case s.Default != "":
			extra = append(extra, "default "+s.Default)
		case s.None != "":
			extra = append(extra, s.None)
		}
		if s.Flag != "" {
			extra = append(extra, "flag --"+s.Flag)
		}
		fmt.Fprintf(w, "  %-27s %s (%s)\n", s.Env, strings.ReplaceAll(s.Doc, "`", ""), strings.Join(extra, "; "))
	}
}

// Values are the settings given as flags, by variable, as typed.
type Values map[string]string

// Flags defines a flag for each setting of the table that has one (only the
// common ones when common is true) and returns what reads the flags given,
// once fs is parsed. The flag of a secret warns that flags are visible.
func (t Table) Flags(fs *flag.FlagSet, common bool) func() Values {
	vals, envOf := map[string]*string{}, map[string]string{}
	for _, s := range t {
		if s.Flag == "" || (common && !s.Common) {
			continue
		}
		help := s.FlagHelp()
		if s.Secret {
			help += "; the environment is safer: flags show in process lists"
		}
		vals[s.Flag], envOf[s.Flag] = fs.String(s.Flag, "", help), s.Env
	}
	return func() Values {
		given := Values{}
		fs.Visit(func(f *flag.Flag) {
			if env, ok := envOf[f.Name]; ok {
				given[env] = *vals[f.Name]
			}
		})
		return given
	}
}

// Source finds each setting of Table: a flag given, then the environment,
// then the .env file, then the default. Values are trimmed, and an empty one
// counts as not given, except for a setting whose empty value means off.
type Source struct {
	Table      Table
	Flags      Values
	LookupEnv  func(string) (string, bool)
	Dotenv     map[string]string
	DotenvPath string
}

// Get returns the setting's value and where it came from ("flag --api-url",
// "environment variable DOCS_API_URL", "DOCS_API_URL in /path/.env" or
// "default"), or "", "" when it has none. A setting not given takes the
// value of a deprecated one it replaces (ReplacedBy), if that is given,
// before its default.
func (s Source) Get(name string) (value, from string) {
	row := s.Table.Of(name)
	if v, from, ok := s.given(row); ok {
		return v, from
	}
	for _, old := range s.Table {
		if old.ReplacedBy == name {
			if v, from, ok := s.given(old); ok {
				return v, from
			}
		}
	}
	if row.Default != "" {
		return row.Default, "default"
	}
	return "", ""
}

// given returns the row's own value when a flag, the environment or the
// .env file gives it.
func (s Source) given(row Setting) (value, from string, ok bool) {
	given := func(v string, ok bool) bool { return ok && (row.EmptyOff || strings.TrimSpace(v) != "") }
	if v, ok := s.Flags[row.Env]; given(v, ok) {
		return strings.TrimSpace(v), "flag --" + row.Flag, true
	}
	if v, ok := s.LookupEnv(row.Env); given(v, ok) {
		return strings.TrimSpace(v), "environment variable " + row.Env, true
	}
	if v, ok := s.Dotenv[row.Env]; given(v, ok) {
		return strings.TrimSpace(v), row.Env + " in " + s.DotenvPath, true
	}
	return "", "", false
}

// Deprecations says of each deprecated setting given (a row with
// ReplacedBy) which one to set instead, and whether it is still read.
func (s Source) Deprecations() []string {
	var out []string
	for _, row := range s.Table {
		if row.ReplacedBy == "" {
			continue
		}
		_, from, ok := s.given(row)
		if !ok {
			continue
		}
		if _, _, newer := s.given(s.Table.Of(row.ReplacedBy)); newer {
			out = append(out, fmt.Sprintf("%s (%s) is deprecated and not read: %s is set too and wins; remove %s", row.Env, from, row.ReplacedBy, row.Env))
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s) is deprecated: it is still read, but set %s instead", row.Env, from, row.ReplacedBy))
	}
	return out
}

// Value is Get without the origin.
func (s Source) Value(name string) string {
	v, _ := s.Get(name)
	return v
}

// Secrets are the secret values among the settings, for scrubbing them from
// what is shown: those of the rows marked Secret, and the passwords in the
// URL settings urls (such as a Redis URL).
func (s Source) Secrets(urls ...string) []string {
	var out []string
	for _, row := range s.Table {
		if v := s.Value(row.Env); row.Secret && v != "" {
			out = append(out, v)
		}
	}
	for _, env := range urls {
		if p := URLPassword(s.Value(env)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Problem is what a setting's Check found wrong with its value.
type Problem struct {
	Env  string
	Text string // the variable's name, then the words of its Check
}

// Problems checks the value of every setting that has a Check and lists what
// is wrong, in the order of the table, so that one run names everything to
// fix. The checks that store their value (Var) fill the program's settings
// as they go: each is given the value Get reads.
func (s Source) Problems(quote func(string) string) []Problem {
	var out []Problem
	for _, row := range s.Table {
		v, env := s.checked(row)
		if row.Check != nil && v != "" {
			if text := row.Check(v, quote); text != "" {
				out = append(out, Problem{Env: env, Text: env + text})
			}
		}
	}
	return out
}

// checked is the value a row's Check is given, and the variable it came
// from: the value Get reads (the row's own, else that of a deprecated
// setting it replaces, named by that one, else the default), so that a
// check that stores its value (Var) stores the one read. A deprecated row's
// own value is checked only when it is not read (its replacement is given
// too).
func (s Source) checked(row Setting) (v, env string) {
	if row.ReplacedBy != "" {
		if _, _, newer := s.given(s.Table.Of(row.ReplacedBy)); !newer {
			return "", row.Env
		}
		v, _, _ := s.given(row)
		return v, row.Env
	}
	if v, _, ok := s.given(row); ok {
		return v, row.Env
	}
	for _, old := range s.Table {
		if old.ReplacedBy == row.Env {
			if v, _, ok := s.given(old); ok {
				return v, old.Env
			}
		}
	}
	return row.Default, row.Env
}

// DotenvError is a .env file that does not parse. Problem is the parser's
// complaint cut before the text it quotes, which may hold secrets; the
// parser's own error is not kept (it quotes the rest of the file, and it has
// no type to decide anything by).
type DotenvError struct {
	Path, Problem string
}

func (e *DotenvError) Error() string { return e.Path + " is not a valid .env file: " + e.Problem }

// ReadDotenv reads a .env file into a map, without touching the process
// environment. A missing file gives an empty map, a file that cannot be read
// its *fs.PathError, one that does not parse a *DotenvError.
func ReadDotenv(path string) (map[string]string, error) {
	env, err := godotenv.Read(path)
	var pe *fs.PathError
	switch {
	case err == nil:
		return env, nil
	case errors.Is(err, fs.ErrNotExist):
		return map[string]string{}, nil
	case errors.As(err, &pe):
		return nil, err
	}
	// godotenv's errors are untyped: its message is cut (not matched to
	// decide anything) so that the quoted rest of the file is not shown.
	msg := err.Error()
	if i := strings.Index(msg, " near "); i >= 0 {
		msg = msg[:i]
	}
	if i := strings.Index(msg, "unterminated quoted value"); i >= 0 {
		msg = msg[:i+len("unterminated quoted value")]
	}
	return nil, &DotenvError{Path: path, Problem: strings.TrimSpace(msg)}
}

// ShortDuration writes d as a person types it: 1m rather than 1m0s.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
