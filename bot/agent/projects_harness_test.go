package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// The two-project world: the harness's world (fake Slack, Redis) with two
// docs projects, each with a docs API test server of its own: "docs" (the
// harness's API server), the default project of #docs, and "api", the
// default project of #api-ref. #general is the default of neither.
const (
	chDocs = "C0DOCS"
	chAPI  = "C0APIREF"
	carol  = "U0CAROL"
	// team is the fake workspace's id.
	team = "T0TEST"
)

// projectsWorld is a harness with a second docs API server and a bot that
// serves both projects (bot.Config.Projects).
type projectsWorld struct {
	*harness
	// servers are the docs API servers by project name.
	servers map[string]*docsapitest.Server
	// st reads the world's Redis.
	st *store.Store
}

func newProjectsWorld(t *testing.T, apiOpts ...docsapitest.Option) *projectsWorld {
	t.Helper()
	return newProjectsWorldWith(t, nil, apiOpts...)
}

// newProjectsWorldWith is newProjectsWorld with options of the fake Slack.
func newProjectsWorldWith(t *testing.T, slackOpts []slacktest.Option, apiOpts ...docsapitest.Option) *projectsWorld {
	t.Helper()
	h := &harness{bottest.NewWith(t, redisURL, slackOpts, apiOpts...)}
	second := docsapitest.NewServer(append([]docsapitest.Option{docsapitest.WithProjectID("proj-api-ref"),
		docsapitest.WithKey("mint_second_key_0000000000000000")}, apiOpts...)...)
	t.Cleanup(second.Close)
	h.Slack.AddChannel(slacktest.Channel{ID: chDocs, Name: "docs", BotMember: true})
	h.Slack.AddChannel(slacktest.Channel{ID: chAPI, Name: "api-ref", BotMember: true})
	h.Slack.AddUser(carol, "carol")
	return &projectsWorld{harness: h, servers: map[string]*docsapitest.Server{"docs": h.API, "api": second}, st: h.OpenStore()}
}

// projectsBot is what differs between the bots a test starts.
type projectsBot struct {
	// apiEditors are the editors of the project api (none: everyone).
	apiEditors []string
	// only, when set, is the one project the projects file lists (the
	// other was removed from it).
	only string
	// pendingTTL is agent.Config.PendingTTL.
	pendingTTL time.Duration
	// extra more projects, p01, p02…, with no channel, whose API URL
	// is the docs project's server (they are only asked about).
	extra int
}

// file writes the projects file of o and returns its path.
func (w *projectsWorld) file(o projectsBot) string {
	w.T.Helper()
	var b strings.Builder
	b.WriteString("projects:\n")
	for _, name := range []string{"docs", "api"} {
		if o.only != "" && name != o.only {
			continue
		}
		srv := w.servers[name]
		channel := map[string]string{"docs": chDocs, "api": chAPI}[name]
		fmt.Fprintf(&b, "  - name: %s\n    project_id: %s\n    api_key_env: KEY_%s\n    api_url: %s\n    channels: [%s]\n",
			name, srv.ProjectID, strings.ToUpper(name), srv.URL, channel)
		if name == "api" && len(o.apiEditors) > 0 {
			fmt.Fprintf(&b, "    editors: [%s]\n", strings.Join(o.apiEditors, ", "))
		}
	}
	for i := 1; i <= o.extra; i++ {
		fmt.Fprintf(&b, "  - name: p%02d\n    project_id: proj-extra-%02d\n    api_key_env: KEY_DOCS\n    api_url: %s\n", i, i, w.servers["docs"].URL)
	}
	path := filepath.Join(w.T.TempDir(), "projects.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		w.T.Fatal(err)
	}
	return path
}

// start starts a bot serving the projects of o, with the agent feature
// only, built as `docsbot serve` builds it with a projects file (app.New);
// it is stopped when the test ends.
func (w *projectsWorld) start(o projectsBot) (stop func()) {
	w.T.Helper()
	set, err := project.Load(w.file(o), project.Options{LookupEnv: func(name string) (string, bool) {
		switch name {
		case "KEY_DOCS":
			return w.servers["docs"].Key, true
		case "KEY_API":
			return w.servers["api"].Key, true
		}
		return "", false
	}})
	if err != nil {
		w.T.Fatalf("projects file: %v", err)
	}
	return w.StartBot(bottest.Config{Projects: set, Features: app.Agent, PendingTTL: o.pendingTTL, AuditText: true}).Stop
}

// creates is how many jobs each project's API server was asked to create.
func (w *projectsWorld) creates() map[string]int {
	return map[string]int{"docs": w.servers["docs"].Count(docsapitest.EndpointCreate), "api": w.servers["api"].Count(docsapitest.EndpointCreate)}
}

// startInAPI has user type the agent's command with prompt in #api-docs,
// whose project is api, and returns the job created on api's API (its
// first) and its root message.
func (w *projectsWorld) startInAPI(user, prompt string) (docsapi.Job, slacktest.Message) {
	w.T.Helper()
	w.Command(user, chAPI, agent.Command, prompt)
	job := w.newJob("api", 0)
	return job, w.rootOf(chAPI, "", job.ID)
}

// newJob waits for a job on the project's API server besides the n it had
// and returns it.
func (w *projectsWorld) newJob(name string, n int) docsapi.Job {
	w.T.Helper()
	srv := w.servers[name]
	w.WaitFor("a job created in project "+name, func() bool { return len(srv.Jobs()) > n })
	return srv.Jobs()[n]
}

// rootOf waits for the root message that names jobID, in channel or in the
// thread under threadTS, and returns it.
func (w *projectsWorld) rootOf(channel, threadTS, jobID string) slacktest.Message {
	w.T.Helper()
	var root slacktest.Message
	w.WaitFor("the root message of job "+jobID, func() bool {
		msgs := w.Slack.Messages(channel)
		if threadTS != "" {
			msgs = w.Slack.Thread(channel, threadTS)
		}
		for _, m := range msgs {
			if m.BotID != "" && strings.Contains(string(m.Metadata), agent.RootEvent) && strings.Contains(rendered(m), jobID) {
				root = m
				return true
			}
		}
		return false
	})
	return root
}

// question waits for the private question asking user which project, and
// returns it.
func (w *projectsWorld) question(user string) slacktest.Message {
	w.T.Helper()
	var q slacktest.Message
	w.WaitFor("the question which project, to "+user, func() bool {
		for _, m := range w.Slack.Ephemerals(user) {
			if strings.Contains(string(m.Blocks), agent.ActionChooseProject) {
				q = m
				return true
			}
		}
		return false
	})
	return q
}

// buttonValue returns the value of the button of m labelled label whose
// action id is actionID (or actionID.N).
func buttonValue(t *testing.T, m slacktest.Message, actionID, label string) string {
	t.Helper()
	_, value := button(t, m, actionID, label)
	return value
}

// button returns the action id and the value of the button of m labelled
// label whose action id is actionID or actionID.N.
func button(t *testing.T, m slacktest.Message, actionID, label string) (id, value string) {
	t.Helper()
	var blocks []json.RawMessage
	if err := json.Unmarshal(m.Blocks, &blocks); err != nil {
		t.Fatalf("blocks of %q: %v", m.Text, err)
	}
	for _, raw := range blocks {
		var b struct {
			Type     string `json:"type"`
			Elements []json.RawMessage
		}
		if json.Unmarshal(raw, &b) != nil || b.Type != "actions" {
			continue
		}
		for _, el := range b.Elements {
			var e struct {
				ActionID string `json:"action_id"`
				Value    string `json:"value"`
				Text     struct {
					Text string `json:"text"`
				} `json:"text"`
			}
			if json.Unmarshal(el, &e) == nil && (e.ActionID == actionID || strings.HasPrefix(e.ActionID, actionID+".")) && e.Text.Text == label {
				return e.ActionID, e.Value
			}
		}
	}
	t.Fatalf("no button %q (%s) in %s", label, actionID, m.Blocks)
	return "", ""
}

// act has user press the button labelled label of m.
func (w *projectsWorld) act(user string, m slacktest.Message, actionID, label string) {
	w.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	id, value := button(w.T, m, actionID, label)
	a := slacktest.Action{UserID: user, ChannelID: m.Channel, MessageTS: m.TS, ActionID: id, Value: value}
	if _, err := w.Slack.Act(ctx, a); err != nil {
		w.T.Fatalf("%s pressing %s: %v", user, label, err)
	}
}

// said reports whether user was told, privately, something containing text.
func (w *projectsWorld) said(user, text string) bool {
	for _, m := range w.Slack.Ephemerals(user) {
		if strings.Contains(m.Text, text) || strings.Contains(rendered(m), text) {
			return true
		}
	}
	return false
}

// idle waits until the inbox is empty: every command, post and click taken
// and done (the jobs may still run).
func (w *projectsWorld) idle() {
	w.T.Helper()
	w.WaitFor("an empty inbox", func() bool {
		n, err := w.st.Inbox().Queued(context.Background())
		return err == nil && n == 0
	})
}
