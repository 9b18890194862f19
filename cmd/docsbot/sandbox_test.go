package main

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

func TestSandboxCommandLine(t *testing.T) {
	t.Parallel()
	t.Run("serves and stops on SIGINT", func(t *testing.T) {
		t.Parallel()
		cmd := docsbotCmd(t, nil, nil, "sandbox", "--addr", "127.0.0.1:0", "--agent-time", "1s", "--paths", "50")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr docsapitest.LogBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill() })

		lines := make(chan string, 4)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		var url string
		select {
		case line := <-lines:
			var ok bool
			if url, ok = strings.CutPrefix(line, "docsbot sandbox: open "); !ok {
				t.Fatalf("first line %q, want the page's address", line)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no address printed; stderr:\n%s", stderr.String())
		}
		st, err := slackweb.Client{URL: url}.State(t.Context())
		if err != nil || st.Connections != 1 || len(st.Channels) == 0 {
			t.Fatalf("state %+v (%v), want the bot connected", st, err)
		}

		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		for range lines {
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("after SIGINT: %v; stderr:\n%s", err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "docsbot sandbox stopped") {
			t.Errorf("stderr does not say the sandbox stopped:\n%s", stderr.String())
		}
		if _, err := http.Get(url + "/"); err == nil {
			t.Errorf("the page is still served after the sandbox stopped")
		}
	})

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() })
	usage := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no agent time", []string{"--agent-time", "0s"}, cli.ExitUsage, "--agent-time"},
		{"no pages", []string{"--paths", "0"}, cli.ExitUsage, "--paths"},
		{"an argument", []string{"now"}, cli.ExitUsage, "takes no arguments"},
		{"address in use", []string{"--addr", busy.Addr().String()}, cli.ExitFailure, "--addr"},
	}
	for _, tc := range usage {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := docsbot(t, nil, nil, append([]string{"sandbox"}, tc.args...)...)
			if res.code != tc.code || !strings.Contains(res.stderr, tc.want) {
				t.Errorf("got %s\nwant exit %d mentioning %q", res, tc.code, tc.want)
			}
		})
	}
}
