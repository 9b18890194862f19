package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/testbin"
	"github.com/docsbot/docsbot/store/redistest"
)

// testBot is the bot binary the tests run, built once for the package
// (botForTest): building it for each test costs a link of the whole bot
// apiece, several at once on a busy machine.
var testBot struct {
	dir  string // made by TestMain, removed when the tests end
	once sync.Once
	bin  string
	err  error
}

// TestMain lets the test binary stand in for docsbot-load when the acks
// scenario runs itself again as the bare slack-go bot or the same-work bot
// (os.Executable is then the test binary).
func TestMain(m *testing.M) {
	peers := map[string]func(context.Context, io.Writer) error{bareBotCommand: runBareBot, sameWorkBotCommand: runSameWorkBot}
	if len(os.Args) > 1 && peers[os.Args[1]] != nil {
		if err := peers[os.Args[1]](context.Background(), os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	// The scenarios and chaos runs wait on the bot's processes, on Slack's
	// latency and on work leases, and compute little: all at once, not one
	// a core, unless go test was given -parallel.
	redistest.Parallel(8)
	dir, err := os.MkdirTemp("", "docsbot-load-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testBot.dir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// botForTest returns the bot binary, built as cmd/docsbot's tests build it
// (testbin.Build: the image's compile settings, the sandbox in) the first
// time a test asks; every test gets the same file and only runs it. Building on a busy machine may take minutes: it has a time limit of
// its own, not taken from any test's run.
func botForTest(t *testing.T) string {
	t.Helper()
	testBot.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		testBot.bin = filepath.Join(testBot.dir, "docsbot")
		testBot.err = testbin.Build(ctx, testBot.bin)
	})
	if testBot.err != nil {
		t.Fatal(testBot.err)
	}
	return testBot.bin
}
