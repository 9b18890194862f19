package settings_test

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/settings"
)

func table() settings.Table {
	return settings.Table{
		{Env: "URL", Flag: "url", Default: "https://example.com", Common: true, Doc: "the base URL"},
		{Env: "KEY", Flag: "key", None: "required", Secret: true, Common: true, Doc: "the key"},
		{Env: "ADDR", Flag: "addr", Default: ":8080", EmptyOff: true, Doc: "listen address"},
		{Env: "TOKEN", Secret: true, Doc: "a token"},
		{Env: "LIMIT", Default: "100", Doc: "a limit"},
		{Env: "OLD_LIMIT", None: "deprecated", ReplacedBy: "LIMIT", Doc: "the limit's old name"},
	}
}

func TestSourceGet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                string
		flags               settings.Values
		env, dotenv         map[string]string
		setting             string
		wantValue, wantFrom string
	}{
		{"flag first", settings.Values{"URL": " https://flag "}, map[string]string{"URL": "https://env"}, nil, "URL", "https://flag", "flag --url"},
		{"empty flag is not given", settings.Values{"URL": ""}, map[string]string{"URL": "https://env"}, nil, "URL", "https://env", "environment variable URL"},
		{"environment before .env", nil, map[string]string{"URL": "https://env"}, map[string]string{"URL": "https://dotenv"}, "URL", "https://env", "environment variable URL"},
		{".env", nil, nil, map[string]string{"URL": "https://dotenv"}, "URL", "https://dotenv", "URL in /x/.env"},
		{"default", nil, nil, nil, "URL", "https://example.com", "default"},
		{"none", nil, nil, nil, "KEY", "", ""},
		{"empty turns off", nil, map[string]string{"ADDR": ""}, nil, "ADDR", "", "environment variable ADDR"},
		{"empty flag turns off", settings.Values{"ADDR": ""}, nil, nil, "ADDR", "", "flag --addr"},
		{"a deprecated name is read", nil, map[string]string{"OLD_LIMIT": "7"}, nil, "LIMIT", "7", "environment variable OLD_LIMIT"},
		{"the new name wins", nil, map[string]string{"OLD_LIMIT": "7"}, map[string]string{"LIMIT": "9"}, "LIMIT", "9", "LIMIT in /x/.env"},
		{"the default after both", nil, nil, nil, "LIMIT", "100", "default"},
	}
	for _, tt := range tests {
		s := settings.Source{Table: table(), Flags: tt.flags, Dotenv: tt.dotenv, DotenvPath: "/x/.env",
			LookupEnv: func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }}
		if v, from := s.Get(tt.setting); v != tt.wantValue || from != tt.wantFrom {
			t.Errorf("%s: Get = %q from %q, want %q from %q", tt.name, v, from, tt.wantValue, tt.wantFrom)
		}
	}
}

func TestSourceDeprecations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"none given", map[string]string{"LIMIT": "9"}, ""},
		{"the old alone", map[string]string{"OLD_LIMIT": "7"}, "OLD_LIMIT (environment variable OLD_LIMIT) is deprecated: it is still read, but set LIMIT instead"},
		{"both", map[string]string{"OLD_LIMIT": "7", "LIMIT": "9"}, "OLD_LIMIT (environment variable OLD_LIMIT) is deprecated and not read: LIMIT is set too and wins; remove OLD_LIMIT"},
	}
	for _, tt := range tests {
		s := settings.Source{Table: table(), LookupEnv: func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }}
		if got := strings.Join(s.Deprecations(), "\n"); got != tt.want {
			t.Errorf("%s: Deprecations = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestFlags(t *testing.T) {
	t.Parallel()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	given := table().Flags(fs, true)
	if fs.Lookup("addr") != nil || fs.Lookup("url") == nil {
		t.Fatal("common flags only: want -url and no -addr")
	}
	if help := fs.Lookup("key").Usage; !strings.Contains(help, "else required") || !strings.Contains(help, "process lists") {
		t.Errorf("help of a secret's flag = %q", help)
	}
	if err := fs.Parse([]string{"-url", "https://flag"}); err != nil {
		t.Fatal(err)
	}
	if got := given(); len(got) != 1 || got["URL"] != "https://flag" {
		t.Errorf("given = %v, want URL only", got)
	}
}

func TestReadDotenv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if env, err := settings.ReadDotenv(filepath.Join(dir, "missing")); err != nil || len(env) != 0 {
		t.Errorf("missing file: %v, %v; want an empty map", env, err)
	}
	bad := filepath.Join(dir, "bad.env")
	if err := os.WriteFile(bad, []byte("KEY=\"mint_secretvalue\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := settings.ReadDotenv(bad)
	de, ok := errors.AsType[*settings.DotenvError](err)
	if !ok || de.Problem != "unterminated quoted value" || strings.Contains(de.Error(), "mint_secretvalue") {
		t.Errorf("bad file: %v; want a DotenvError without the file's text", err)
	}
}

func TestShortDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{time.Minute: "1m", 90 * time.Second: "1m30s", time.Hour: "1h", 10 * time.Second: "10s"} {
		if got := settings.ShortDuration(d); got != want {
			t.Errorf("ShortDuration(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestSourceProblems(t *testing.T) {
	t.Parallel()
	isNumber := func(v string, quote func(string) string) string {
		if strings.Trim(v, "0123456789") != "" {
			return " " + quote(v) + " is not a number"
		}
		return ""
	}
	tab := settings.Table{
		{Env: "A", Default: "1", Check: isNumber},
		{Env: "B", Check: isNumber},
		{Env: "C", Check: isNumber},
		{Env: "D", Doc: "no check"},
	}
	tests := []struct {
		name string
		env  map[string]string
		want []settings.Problem
	}{
		{"a good default passes, an unset setting is not checked", nil, nil},
		{"good values", map[string]string{"A": "2", "B": "3"}, nil},
		{"every bad value, in the table's order, quoted by the caller", map[string]string{"C": "x", "A": "y", "D": "z"},
			[]settings.Problem{{Env: "A", Text: `A <y> is not a number`}, {Env: "C", Text: `C <x> is not a number`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := settings.Source{Table: tab, LookupEnv: func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }}
			got := s.Problems(func(v string) string { return "<" + v + ">" })
			if len(got) != len(tt.want) {
				t.Fatalf("Problems = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("Problems[%d] = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestSourceProblemsStoreWhatIsRead: a check that stores its value (Var) is
// given the value Get reads: the setting's own, else the deprecated one it
// replaces (a problem of it named by it), else the default. A deprecated
// value is checked on its own only when it is not read.
func TestSourceProblemsStoreWhatIsRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want int
		// problem is the one problem's text, "" for none.
		problem string
	}{
		{"the default", nil, 100, ""},
		{"its own", map[string]string{"LIMIT": "7"}, 7, ""},
		{"the deprecated one's", map[string]string{"OLD_LIMIT": "5"}, 5, ""},
		{"its own over the deprecated one's", map[string]string{"LIMIT": "7", "OLD_LIMIT": "5"}, 7, ""},
		{"a bad deprecated value read", map[string]string{"OLD_LIMIT": "x"}, 0, `OLD_LIMIT "x" is not a number`},
		{"a bad deprecated value not read", map[string]string{"LIMIT": "7", "OLD_LIMIT": "x"}, 7, `OLD_LIMIT "x" is not a number`},
		{"a bad value", map[string]string{"LIMIT": "x"}, 0, `LIMIT "x" is not a number`},
	}
	for _, tt := range tests {
		var limit int
		tab := table()
		for i := range tab {
			switch tab[i].Env {
			case "LIMIT":
				tab[i].Check = settings.Var(&limit, strconv.Atoi, "is not a number")
			case "OLD_LIMIT":
				tab[i].Check = settings.Var(nil, strconv.Atoi, "is not a number")
			}
		}
		s := settings.Source{Table: tab, LookupEnv: func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }}
		var texts []string
		for _, p := range s.Problems(strconv.Quote) {
			texts = append(texts, p.Text)
		}
		if limit != tt.want || strings.Join(texts, "; ") != tt.problem {
			t.Errorf("%s: LIMIT read as %d with problems %q; want %d and %q", tt.name, limit, texts, tt.want, tt.problem)
		}
	}
}

func TestSourceSecrets(t *testing.T) {
	t.Parallel()
	env := map[string]string{"KEY": "k1", "URL": "https://user:pw1@example.com", "ADDR": ":1"}
	s := settings.Source{Table: table(), Dotenv: map[string]string{"TOKEN": "t1"},
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
	if got := strings.Join(s.Secrets("URL", "ADDR"), ","); got != "k1,t1,pw1" {
		t.Errorf("Secrets = %q, want the secret rows' values and the URL's password", got)
	}
}
