package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest/slackweb"
	"github.com/docsbot/docsbot/docsapi"
)

// sandboxWait bounds every wait of the sandbox tests; conditions are polled.
const sandboxWait = 20 * time.Second

// startTestSandbox starts a sandbox on a free port with a quick agent and
// poller, stopped when the test ends.
func startTestSandbox(t *testing.T, redisURL string) *sandbox {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), sandboxWait)
	defer cancel()
	logs := &syncBuffer{}
	sb, err := startSandbox(ctx, sandboxOptions{
		addr:         "127.0.0.1:0",
		agentTime:    300 * time.Millisecond,
		paths:        400,
		redisURL:     redisURL,
		pollInterval: 100 * time.Millisecond,
		pollMax:      300 * time.Millisecond,
		log:          slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatalf("startSandbox: %v", err)
	}
	t.Cleanup(func() {
		if err := sb.close(); err != nil {
			t.Errorf("closing the sandbox: %v", err)
		}
		if t.Failed() {
			t.Logf("sandbox logs:\n%s", logs.String())
		}
	})
	return sb
}

// page is a client of a sandbox's web page, doing what the page's script does.
type page struct {
	t   *testing.T
	url string
}

// state fetches GET /api/state.
func (p page) state() slackweb.State {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.t.Context(), sandboxWait)
	defer cancel()
	st, err := slackweb.Client{URL: p.url}.State(ctx)
	if err != nil {
		p.t.Fatal(err)
	}
	return st
}

// send types a line, as the page's message box does, and requires it accepted.
func (p page) send(channel, text, threadTS string) slackweb.SendResponse {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.t.Context(), sandboxWait)
	defer cancel()
	out, status, err := slackweb.Client{URL: p.url}.Send(ctx, slackweb.SendRequest{Channel: channel, Text: text, ThreadTS: threadTS})
	if err != nil || !out.OK {
		p.t.Fatalf("POST /api/send %q: status %d, %+v, %v", text, status, out, err)
	}
	return out
}

// waitFor polls the page's state until find returns true.
func (p page) waitFor(what string, find func(slackweb.State) bool) slackweb.State {
	p.t.Helper()
	deadline := time.Now().Add(sandboxWait)
	for {
		st := p.state()
		if find(st) {
			return st
		}
		if time.Now().After(deadline) {
			b, _ := json.MarshalIndent(st, "", "  ")
			p.t.Fatalf("timed out waiting for %s; state:\n%s", what, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// channel returns a channel of a state by id.
func channel(st slackweb.State, id string) slackweb.ChannelView {
	for _, c := range st.Channels {
		if c.ID == id {
			return c
		}
	}
	return slackweb.ChannelView{}
}

// jobRoot finds the bot's root message of the job whose instruction is prompt.
func jobRoot(st slackweb.State, channelID, prompt string) (slackweb.MessageView, bool) {
	for _, m := range channel(st, channelID).Messages {
		if m.BotID != "" && strings.Contains(string(m.Blocks), "asked the docs agent") && strings.Contains(string(m.Blocks), prompt) {
			return m, true
		}
	}
	return slackweb.MessageView{}, false
}

func TestSandboxAgentThroughPage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		redis bool
	}{
		{"embedded store", false},
		{"REDIS_URL", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			redisURL := ""
			var db *testDB
			if tc.redis {
				d := redisDB(t)
				db, redisURL = &d, d.url
			}
			sb := startTestSandbox(t, redisURL)
			p := page{t: t, url: sb.url}

			resp, err := http.Get(sb.url + "/")
			if err != nil {
				t.Fatal(err)
			}
			html, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(html), `src="app.js"`) {
				t.Fatalf("GET /: %d\n%s", resp.StatusCode, html)
			}

			const prompt = "Add a quickstart for the Python SDK"
			if r := p.send("C0GENERAL", "/docs-agent "+prompt, ""); !r.Command {
				t.Fatalf("the line was not sent as a slash command: %+v", r)
			}
			st := p.waitFor("the job's root message", func(st slackweb.State) bool { _, ok := jobRoot(st, "C0GENERAL", prompt); return ok })
			root, _ := jobRoot(st, "C0GENERAL", prompt)

			const followUp = "Also mention the Retry-After header"
			p.send("C0GENERAL", followUp, root.TS)
			p.waitFor("the follow-up acknowledged with :eyes:", func(st slackweb.State) bool {
				m, _ := jobRoot(st, "C0GENERAL", prompt)
				for _, r := range m.Replies {
					if r.User == st.Me && r.Text == followUp && len(r.Reactions) > 0 && r.Reactions[0] == "eyes" {
						return true
					}
				}
				return false
			})

			jobs := sb.api.Jobs()
			if len(jobs) != 1 || len(sb.api.Prompts(jobs[0].ID)) != 2 {
				t.Fatalf("API jobs %+v, want one job with the instruction and the follow-up", jobs)
			}
			id := jobs[0].ID
			p.waitFor("the pull request link in the thread", func(st slackweb.State) bool {
				job, _ := sb.api.Job(id)
				if job.Status != docsapi.StatusCompleted || job.PR() == "" {
					return false
				}
				m, _ := jobRoot(st, "C0GENERAL", prompt)
				for _, r := range m.Replies {
					if r.BotID != "" && strings.Contains(r.Text, "<"+job.PR()+"|") {
						return m.Edited && strings.Contains(string(m.Blocks), job.PR())
					}
				}
				return false
			})
			if got := sb.api.Prompts(id); got[0] != prompt || got[1] != followUp {
				t.Errorf("the API got %q, want the instruction then the follow-up", got)
			}

			if db != nil {
				if err := sb.close(); err != nil {
					t.Fatal(err)
				}
				keys, err := db.rdb.Keys(context.Background(), sandboxKeyPrefix+"*").Result()
				if err != nil || len(keys) != 0 {
					t.Errorf("keys left in Redis after the sandbox stopped: %q (%v)", keys, err)
				}
			}
		})
	}
}

func TestSandboxOutcomes(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	tests := []struct {
		keyword string
		status  docsapi.Status
	}{
		{"[fail]", docsapi.StatusFailed},
		{"[no-change]", docsapi.StatusCompleted},
		{"[archive]", docsapi.StatusArchived},
		{"", docsapi.StatusCompleted},
	}
	prompt := func(i int) string {
		return strings.TrimSpace("Document the rate limits, take " + string(rune('A'+i)) + " " + tests[i].keyword)
	}
	for i := range tests { // the jobs run side by side
		p.send("C0DOCSTEAM", "/docs-agent "+prompt(i), "")
	}
	for i, tc := range tests {
		t.Run(prompt(i), func(t *testing.T) {
			p := page{t: t, url: sb.url}
			var root, finish slackweb.MessageView
			p.waitFor("the job's result in its thread", func(st slackweb.State) bool {
				root, _ = jobRoot(st, "C0DOCSTEAM", prompt(i))
				for _, r := range root.Replies {
					if r.BotID != "" {
						finish = r
						return true
					}
				}
				return false
			})
			var job *docsapi.Job
			for _, j := range sb.api.Jobs() {
				if ps := sb.api.Prompts(j.ID); len(ps) > 0 && ps[0] == prompt(i) {
					job = &j
				}
			}
			if job == nil || job.Status != tc.status {
				t.Fatalf("API job %+v, want status %s", job, tc.status)
			}
			m, _ := sb.slack.Message("C0DOCSTEAM", finish.TS)
			if meta := string(m.Metadata); !strings.Contains(meta, `"status":"`+string(job.Status)+`"`) {
				t.Errorf("the result message's metadata %s does not carry the job's status %s", meta, job.Status)
			}
			if pr := job.PR(); (pr != "") != strings.Contains(finish.Text, "<"+pr+"|") {
				t.Errorf("result %q, job's pull request %q", finish.Text, pr)
			}
		})
	}
}

// TestSandboxPageRefusals checks that the page knows the sandbox's commands:
// another one is refused as Slack refuses it. The page's other refusals
// (a command in a thread, an unknown channel, blank text, not JSON, other
// sites) are the page's own and are tested in slackweb (TestSendRefusals).
func TestSandboxPageRefusals(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	ctx, cancel := context.WithTimeout(t.Context(), sandboxWait)
	defer cancel()
	out, status, err := slackweb.Client{URL: sb.url}.Send(ctx, slackweb.SendRequest{Channel: "C0GENERAL", Text: "/deploy now"})
	if err != nil {
		t.Fatal(err)
	}
	if status != http.StatusBadRequest || out.OK || out.Error != "invalid_command" || out.Message == "" {
		t.Errorf("/deploy now: status %d %+v, want %d invalid_command with a message", status, out, http.StatusBadRequest)
	}
	if n := len(sb.slack.Messages("C0GENERAL")); n != 0 {
		t.Errorf("the refused line left %d messages in #general", n)
	}
}

// TestSandboxCommandLine runs the binary: it prints the page's address, serves
// the page, and stops cleanly on Ctrl-C; bad flags are usage errors.
func TestSandboxCommandLine(t *testing.T) {
	t.Parallel()
	t.Run("serves and stops on SIGINT", func(t *testing.T) {
		t.Parallel()
		cmd := docsbotCmd(t, nil, nil, "sandbox", "--addr", "127.0.0.1:0", "--agent-time", "1s", "--paths", "50")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr syncBuffer
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
		case <-time.After(sandboxWait):
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
		{"no agent time", []string{"--agent-time", "0s"}, exitUsage, "--agent-time"},
		{"no pages", []string{"--paths", "0"}, exitUsage, "--paths"},
		{"an argument", []string{"now"}, exitUsage, "takes no arguments"},
		{"address in use", []string{"--addr", busy.Addr().String()}, exitFailure, "--addr"},
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

func TestPageURL(t *testing.T) {
	t.Parallel()
	actual := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 3000}
	tests := []struct{ addr, want string }{
		{"localhost:3000", "http://localhost:3000"},
		{":3000", "http://localhost:3000"},
		{"0.0.0.0:3000", "http://localhost:3000"},
		{"[::]:3000", "http://localhost:3000"},
		{"127.0.0.1:0", "http://127.0.0.1:3000"},
		{"[::1]:3000", "http://[::1]:3000"},
	}
	for _, tc := range tests {
		if got := pageURL(tc.addr, actual); got != tc.want {
			t.Errorf("pageURL(%q) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}
