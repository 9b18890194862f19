package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoTemplatesInTheBinary: neither build of docsbot (with the sandbox,
// and as make build builds it) links text/template or html/template. A
// template's method calls are looked up by name, so the linker keeps every
// exported method of every type the binary holds once one is reachable:
// about 9 MB of the binary and 4 MB of a replica's resident memory
// (BENCHMARKS.md, "A smaller binary"). Pages and manifests are written in
// plain Go instead (bot/install/pages.go, bot/app/manifestyaml.go).
func TestNoTemplatesInTheBinary(t *testing.T) {
	t.Parallel()
	for _, tags := range []string{"", "nosandbox"} {
		out, err := exec.Command("go", "list", "-deps", "-tags", tags, "github.com/docsbot/docsbot/cmd/docsbot").Output()
		if err != nil {
			t.Fatalf("go list -deps (tags %q): %v", tags, err)
		}
		for dep := range strings.FieldsSeq(string(out)) {
			if dep == "text/template" || dep == "html/template" {
				t.Errorf("the docsbot binary (tags %q) links %s; write the page or text in plain Go", tags, dep)
			}
		}
	}
}
