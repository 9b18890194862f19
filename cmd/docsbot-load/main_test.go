package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"
)

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
	os.Exit(m.Run())
}
