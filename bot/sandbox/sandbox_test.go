package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store/redistest"
)

// sandboxWait bounds every wait of the sandbox tests; conditions are polled.
const sandboxWait = 20 * time.Second

// startTestSandbox starts a sandbox on a free port with a quick agent and
// poller, stopped when the test ends.
func startTestSandbox(t *testing.T, redisURL string) *Sandbox {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), sandboxWait)
	defer cancel()
	logs := &docsapitest.LogBuffer{}
	sb, err := Start(ctx, Options{
		Addr:         "127.0.0.1:0",
		AgentTime:    300 * time.Millisecond,
		Paths:        400,
		RedisURL:     redisURL,
		PollInterval: 100 * time.Millisecond,
		PollMax:      300 * time.Millisecond,
		Log:          slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := sb.Close(); err != nil {
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
	var st slackweb.State
	found := false
	defer func() {
		if !found {
			b, _ := json.MarshalIndent(st, "", "  ")
			p.t.Logf("the page's last state:\n%s", b)
		}
	}()
	redistest.Until(p.t, what, func() bool { st = p.state(); return find(st) })
	found = true
	return st
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
			if tc.redis {
				redisURL = redisServer.URL
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

			if tc.redis {
				if err := sb.Close(); err != nil {
					t.Fatal(err)
				}
				rdb := redisServer.Client()
				defer rdb.Close()
				keys, err := rdb.Keys(context.Background(), sandboxKeyPrefix+"*").Result()
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

// redisServer is the package's redis-server, for the REDIS_URL case.
var redisServer *redistest.Server

func TestMain(m *testing.M) {
	s, err := redistest.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	redisServer = s
	code := m.Run()
	_ = s.Close()
	os.Exit(code)
}

// TestSandboxHomeAndShortcut drives the page's Home tab and message menu
// with the real bot: the Home's New docs job button opens the job modal,
// whose job starts in the person's DM and shows on the Home; the menu
// offers "Send to docs agent".
func TestSandboxHomeAndShortcut(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	c := slackweb.Client{URL: sb.url}
	ctx, cancel := context.WithTimeout(t.Context(), sandboxWait)
	defer cancel()

	st := p.state()
	if len(st.Shortcuts) != 1 || st.Shortcuts[0].CallbackID != agent.ShortcutSendToAgent {
		t.Errorf("message menu %+v, want Send to docs agent", st.Shortcuts)
	}
	if out, status, err := c.OpenHome(ctx); err != nil || !out.OK {
		t.Fatalf("open Home: %d %+v %v", status, out, err)
	}
	st = p.waitFor("the Home with the New docs job button", func(st slackweb.State) bool {
		return st.Home != nil && strings.Contains(string(st.Home.Blocks), jobdraft.ActionNewJob)
	})
	// The Home and the channels' intro name both of the sandbox's projects.
	for _, want := range []string{"docsbot serves 2 docs projects", "`" + docsProject + "`", "`" + apiProject + "`"} {
		if !strings.Contains(string(st.Home.Blocks), want) {
			t.Errorf("the Home lacks %q: %s", want, st.Home.Blocks)
		}
	}
	if !strings.Contains(st.Intro, "`project="+apiProject+"`") || channel(st, apiChannel).ID == "" {
		t.Errorf("the page shows no api project: intro %q, channels %+v", st.Intro, st.Channels)
	}
	if out, status, err := c.Act(ctx, slackweb.ActionRequest{ViewID: st.Home.ID, ActionID: jobdraft.ActionNewJob}); err != nil || !out.OK {
		t.Fatalf("New docs job: %d %+v %v", status, out, err)
	}
	st = p.waitFor("the job modal", func(st slackweb.State) bool { return len(st.Modals) == 1 })
	const prompt = "Document the Home tab"
	if out, status, err := c.SubmitView(ctx, slackweb.ViewRequest{ViewID: st.Modals[0].ID,
		Values: map[string]map[string]string{"instruction": {"instruction": prompt}}}); err != nil || !out.OK {
		t.Fatalf("submit: %d %+v %v", status, out, err)
	}
	p.waitFor("the job in the DM and on the Home", func(st slackweb.State) bool {
		_, inDM := jobRoot(st, st.DM, prompt)
		return st.DM != "" && inDM && st.Home != nil && strings.Contains(string(st.Home.Blocks), prompt)
	})
}

// TestSandboxCommandsThroughPage: /docs-ask, /docs-deploy and /docs-health
// typed on the page are answered from the sandbox's made-up docs and site:
// an answer with its sources in the question's thread, a failed preview with
// its logs, the docs health's problems with Fix with agent.
func TestSandboxCommandsThroughPage(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	has := func(m slackweb.MessageView, wants ...string) bool {
		for _, w := range wants {
			if !strings.Contains(m.Text+string(m.Blocks), w) {
				return false
			}
		}
		return m.BotID != ""
	}
	tests := []struct {
		line, what string
		wants      []string
	}{
		{"/docs-ask How do I rotate an API key?", "the answer with its sources", []string{"According to Authentication", "Sources:"}},
		{"/docs-deploy preview fix/fail-build", "the failed preview with its logs", []string{"it failed.", "The end of the logs"}},
		{"/docs-health", "the docs health with its problems", []string{"found nothing clicked", "docs_fix_with_agent"}},
		{"/docs-health digest weekly", "the channel subscribed to the health digest", []string{"subscribed this channel to the weekly docs health digest"}},
	}
	for _, tt := range tests {
		if r := p.send("C0GENERAL", tt.line, ""); !r.Command {
			t.Fatalf("%q was not sent as a slash command: %+v", tt.line, r)
		}
		p.waitFor(tt.what, func(st slackweb.State) bool {
			for _, m := range channel(st, "C0GENERAL").Messages {
				if has(m, tt.wants...) || slices.ContainsFunc(m.Replies, func(r slackweb.MessageView) bool { return has(r, tt.wants...) }) {
					return true
				}
			}
			return false
		})
	}
}

// TestSandboxDeployAsksFirst: /docs-deploy typed on the page asks first,
// privately, with a Deploy button; pressing it on the page deploys the
// made-up site, followed in one live message to its end.
func TestSandboxDeployAsksFirst(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	if r := p.send("C0GENERAL", "/docs-deploy", ""); !r.Command {
		t.Fatalf("/docs-deploy was not sent as a slash command: %+v", r)
	}
	var q slackweb.MessageView
	p.waitFor("the question with its Deploy button", func(st slackweb.State) bool {
		for _, m := range st.Ephemerals {
			if strings.Contains(m.Text, "now?") && strings.Contains(string(m.Blocks), deploy.ActionConfirm) {
				q = m
				return true
			}
		}
		return false
	})
	ctx, cancel := context.WithTimeout(t.Context(), sandboxWait)
	defer cancel()
	if out, status, err := (slackweb.Client{URL: sb.url}).Act(ctx, slackweb.ActionRequest{Channel: q.Channel, TS: q.TS, ActionID: deploy.ActionConfirm}); err != nil || !out.OK {
		t.Fatalf("pressing Deploy: %d %+v %v", status, out, err)
	}
	p.waitFor("the deployment done", func(st slackweb.State) bool {
		for _, m := range channel(st, "C0GENERAL").Messages {
			if m.BotID != "" && strings.Contains(m.Text, "deployed the docs") && strings.Contains(m.Text, "done.") {
				return true
			}
		}
		return false
	})
}

// TestSandboxUnfurlsDocsLinks: a link to the docs project's site typed on
// the page is unfurled with the page's figures and Improve this page.
func TestSandboxUnfurlsDocsLinks(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	link := "https://" + sandboxSiteHost + "/quickstart"
	p.send("C0GENERAL", "see "+link, "")
	var ts string
	p.waitFor("the message with the link", func(st slackweb.State) bool {
		for _, m := range channel(st, "C0GENERAL").Messages {
			if strings.Contains(m.Text, link) {
				ts = m.TS
				return true
			}
		}
		return false
	})
	ctx, cancel := context.WithTimeout(t.Context(), sandboxWait)
	defer cancel()
	if err := sb.slack.WaitFor(ctx, func() bool { _, ok := sb.slack.Unfurls("C0GENERAL", ts)[link]; return ok }); err != nil {
		sh, ok := sb.slack.LinkShare("C0GENERAL", ts)
		t.Fatalf("the link was not unfurled: %v; ts %s share %+v %v", err, ts, sh, ok)
	}
	st := p.waitFor("the unfurl on the page", func(st slackweb.State) bool {
		for _, m := range channel(st, "C0GENERAL").Messages {
			if m.TS == ts && len(m.Unfurls) == 1 {
				return true
			}
		}
		return false
	})
	var u slackweb.UnfurlView
	for _, m := range channel(st, "C0GENERAL").Messages {
		if m.TS == ts {
			u = m.Unfurls[0]
		}
	}
	for _, want := range []string{"/quickstart", "over the last 30 days", jobdraft.ActionImprovePage} {
		if !strings.Contains(string(u.Blocks), want) {
			t.Errorf("the unfurl lacks %q: %s", want, u.Blocks)
		}
	}
	// Improve this page, pressed on the page, opens the job form.
	if out, status, err := (slackweb.Client{URL: sb.url}).Act(ctx, slackweb.ActionRequest{Channel: "C0GENERAL", TS: ts, ActionID: jobdraft.ActionImprovePage}); err != nil || !out.OK {
		t.Fatalf("pressing Improve this page: %d %+v %v", status, out, err)
	}
	p.waitFor("the job form", func(st slackweb.State) bool { return len(st.Modals) == 1 })
}

// TestSandboxPane: the page opens the pane looking at
// #api-docs; the app suggests its prompts for the api project, none naming
// it in what it posts as the person's, and a prompt sent in the pane's
// thread is answered there.
func TestSandboxPane(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	ctx, cancel := context.WithTimeout(t.Context(), sandboxWait)
	defer cancel()
	th, status, err := (slackweb.Client{URL: sb.url}).OpenAssistant(ctx, apiChannel)
	if err != nil || !th.OK {
		t.Fatalf("opening the pane: %d %+v %v", status, th, err)
	}
	st := p.waitFor("the pane's prompts", func(st slackweb.State) bool { return len(st.Prompts) >= 3 })
	if want := "Try asking docsbot about " + apiProject; st.PromptsTitle != want {
		t.Errorf("the prompts are headed %q, want %q", st.PromptsTitle, want)
	}
	var deploy string
	for _, pr := range st.Prompts {
		if strings.Contains(pr.Message, "project=") {
			t.Errorf("prompt %q names the project in what it posts", pr.Message)
		}
		if pr.Title == "Deploy status" {
			deploy = pr.Message
		}
	}
	if deploy == "" {
		t.Fatalf("no Deploy status prompt: %+v", st.Prompts)
	}
	p.send(th.Channel, deploy, th.TS)
	p.waitFor("the prompt answered in the pane's thread", func(st slackweb.State) bool {
		for _, m := range channel(st, th.Channel).Messages {
			for _, r := range m.Replies {
				if r.BotID != "" && strings.Contains(r.Text, "/docs-deploy") {
					return true
				}
			}
		}
		return false
	})
}
