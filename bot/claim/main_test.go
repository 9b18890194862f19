package claim_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/docsbot/docsbot/store/redistest"
)

// redisServer is the package's Redis, where the runners' schedule is kept.
var redisServer *redistest.Server

func TestMain(m *testing.M) {
	srv, err := redistest.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	redisServer = srv
	code := m.Run()
	_ = srv.Close()
	os.Exit(code)
}
