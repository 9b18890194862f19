package project

import (
	"regexp"
	"strings"
	"testing"
)

// TestShapesMatchTheirExpressions checks each byte-by-byte shape against
// the regular expression it stands for, on names at and around its limits
// and with every kind of byte.
func TestShapesMatchTheirExpressions(t *testing.T) {
	t.Parallel()
	shapes := []struct {
		name string
		re   *regexp.Regexp
		fn   func(string) bool
	}{
		{"name", regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`), validName},
		{"id", regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`), validID},
		{"env", regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`), validEnvName},
		{"domain", regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`), validDomainShape},
	}
	inputs := []string{"", "a", "A", "0", "_", "-", ".", "docs", "Docs", "docs-site_2", "_private", "-x", ".x", "x.", "x y", "x\n", "\nx",
		"docs.example.com", "DOCS_API_KEY", "2fa", "é", "xé", "x\xff", "x/y", "x:y", "x*", "{x}", "x$", "^x"}
	for _, n := range []int{31, 32, 33, 127, 128, 129, 300} {
		inputs = append(inputs, strings.Repeat("a", n), "A"+strings.Repeat("b", n-1), strings.Repeat("_", n))
	}
	for c := range 256 {
		inputs = append(inputs, string([]byte{byte(c)}), "a"+string([]byte{byte(c)}))
	}
	for _, s := range shapes {
		for _, in := range inputs {
			if got, want := s.fn(in), s.re.MatchString(in); got != want {
				t.Errorf("%s(%q) = %v; %s says %v", s.name, in, got, s.re, want)
			}
		}
	}
}
