package main

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// TestMain lets the test binary stand in for docsbot-load when the acks
// scenario runs itself again as the bare slack-go bot (os.Executable is
// then the test binary).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == bareBotCommand {
		if err := runBareBot(context.Background(), os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
