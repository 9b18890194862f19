// Package testbin builds the docsbot binary for the tests that run it as a
// process of its own (cmd/docsbot's and cmd/docsbot-load's), one build at a
// time on the machine.
package testbin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Build builds ./cmd/docsbot into out as the tests run it: with the compile
// settings of the container image's build (deploy/Dockerfile: CGO_ENABLED=0,
// -trimpath) and the default tags, so the sandbox is in. The tests' binary and
// the image's (TestDockerBuildIsStatic) then share every compiled package but
// main, and -trimpath makes them the same whatever directory the checkout is
// in, so a new clone finds them in the build cache. The go command decides
// what to compile again, as for any build: the binary is never older than
// the source.
func Build(ctx context.Context, out string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, "github.com/docsbot/docsbot/cmd/docsbot")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := CombinedOutput(ctx, cmd); err != nil {
		return fmt.Errorf("%s: %w\n%s", cmd, err, msg)
	}
	return nil
}

// CombinedOutput runs cmd, a go build, as exec.Cmd.CombinedOutput does, once
// no other test process of the machine is running one through it: two test
// binaries (go test runs packages at once) building the same packages at the
// same time would each compile them, where the second, waiting, finds them
// in the build cache and only links. The lock is a file in the temporary
// directory, held with flock, so it goes with the process that held it; where
// it cannot be had, cmd runs at once (the lock saves time, nothing else).
func CombinedOutput(ctx context.Context, cmd *exec.Cmd) ([]byte, error) {
	unlock, err := lock(ctx, filepath.Join(os.TempDir(), "docsbot-test-build.lock"))
	if err != nil {
		return nil, fmt.Errorf("waiting for another test's go build: %w", err)
	}
	defer unlock()
	return cmd.CombinedOutput()
}
