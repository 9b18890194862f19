package secret_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/secret"
)

func TestMask(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"mint_0123456789abcdefghij", "mint_…ghij"},
		{"mint_short", "mint_…"},
		{"mint_dsc_0123456789abcdefghij", "mint_…ghij"}, // the assistant key: a kind of mint_
		{"xoxb-1111111111-2222222222-abcdefghijklmnop", "…mnop"},
		{"short", "…"},
	}
	kinds := secret.Kinds{docsapi.KeyPrefix}
	for _, tt := range tests {
		if got := kinds.Mask(tt.in); got != tt.want {
			t.Errorf("Mask(%q, KeyPrefix) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestScrubLongestFirst(t *testing.T) {
	t.Parallel()
	const short, long = "abcdefghijklmnop", "abcdefghijklmnopqrstuvwxyz"
	got := secret.Kinds{docsapi.KeyPrefix}.Scrub("key "+long+" and "+short, short, long)
	if want := "key …wxyz and …mnop"; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v, want string
		url     bool
	}{
		{v: "soon", want: `"soon"`},
		{v: "mint_0123456789abcdefghij", want: "mint_…ghij"},
		{v: "known0123456789abcdef", want: "…cdef"},
		{v: "https://u:p@host", want: "…host", url: true},
		{v: "https//host", want: `"https//host"`, url: true},
	}
	kinds := secret.Kinds{docsapi.KeyPrefix}
	for _, tt := range tests {
		got := kinds.Quote(tt.v, "known0123456789abcdef")
		if tt.url {
			got = kinds.QuoteURL(tt.v)
		}
		if got != tt.want {
			t.Errorf("Quote(%q) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestRedactURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw, want string
		secrets   []string
	}{
		{"redis://localhost:6379/0", "redis://localhost:6379/0", nil},
		{"redis://user:s3cret@host:6379", "redis://REDACTED@host:6379", []string{"user:s3cret", "s3cret"}},
		{"rediss://:p%40ss@host", "rediss://REDACTED@host", []string{":p%40ss", ":p@ss", "p%40ss", "p@ss"}},
		{"unix://u:pw@/run/redis.sock", "unix://REDACTED@/run/redis.sock", []string{"u:pw", "pw"}},
		{"user:pw@host:1", "REDACTED@host:1", []string{"user:pw", "pw"}},
		{"redis://token@host", "redis://REDACTED@host", []string{"token"}},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			r := secret.RedactURL(tt.raw)
			if r.URL != tt.want {
				t.Errorf("url = %q, want %q", r.URL, tt.want)
			}
			for _, s := range tt.secrets {
				if !strings.Contains(strings.Join(r.Secrets, "\n"), s) {
					t.Errorf("secrets %q lack %q", r.Secrets, s)
				}
			}
		})
	}
}

func TestRedactedURLScrub(t *testing.T) {
	t.Parallel()
	r := secret.RedactURL("redis://user:s3cret@host")
	if got := r.Scrub(`parse "redis://user:s3cret@host": bad`); strings.Contains(got, "s3cret") || !strings.Contains(got, "REDACTED") {
		t.Errorf("Scrub = %q, want the password replaced", got)
	}
}
