package agent_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// The two-project world: the harness's world (fake Slack, Redis) with two
// docs projects (Harness.TwoProjects), each with a docs API test server of
// its own: "docs" (the harness's API server), the default project of #docs,
// and "api", the default project of #api-ref. #general is the default of
// neither.
const (
	chDocs = "C0DOCS"
	chAPI  = "C0APIREF"
	carol  = "U0CAROL"
	// team is the fake workspace's id.
	team = "T0TEST"
)

// projectsWorld is a harness whose bots serve both projects.
type projectsWorld struct {
	*harness
	// servers are the docs API servers by project name.
	servers map[string]*docsapitest.Server
	// st reads the world's Redis.
	st *store.Store
}

// projectsOf is what differs between the worlds' projects.
type projectsOf struct {
	// apiEditors are the editors of the project api (none: everyone).
	apiEditors []string
	// extra more projects, p01, p02…, with no channel (they are only
	// asked about).
	extra int
	// slack are options of the fake Slack (its clock).
	slack []slacktest.Option
}

// newProjectsWorld is the world of the projects docs and api alone, with
// everyone an editor of both.
func newProjectsWorld(t *testing.T, apiOpts ...docsapitest.Option) *projectsWorld {
	t.Helper()
	return newProjectsWorldOf(t, projectsOf{}, apiOpts...)
}

// newProjectsWorldOf is the world of the projects of, each API server
// started with apiOpts.
func newProjectsWorldOf(t *testing.T, of projectsOf, apiOpts ...docsapitest.Option) *projectsWorld {
	t.Helper()
	h := &harness{bottest.NewWith(t, redisURL, of.slack, apiOpts...)}
	h.Slack.AddChannel(slacktest.Channel{ID: chDocs, Name: "docs", BotMember: true})
	h.Slack.AddChannel(slacktest.Channel{ID: chAPI, Name: "api-ref", BotMember: true})
	h.Slack.AddUser(carol, "carol")
	api := h.TwoProjects(bottest.Project{Channels: []string{chDocs}}, bottest.Project{Channels: []string{chAPI}, Editors: of.apiEditors}, apiOpts...)
	for i := 1; i <= of.extra; i++ {
		h.AddProject(bottest.Project{Name: fmt.Sprintf("p%02d", i)})
	}
	return &projectsWorld{harness: h, servers: map[string]*docsapitest.Server{"docs": h.API, "api": api}, st: h.OpenStore()}
}

// projectsBot is what differs between the bots a test starts.
type projectsBot struct {
	// only, when set, is the one project the bot serves (the other was
	// removed from its projects file).
	only string
	// pendingTTL is agent.Config.PendingTTL.
	pendingTTL time.Duration
}

// start starts a bot serving the projects of o, with the agent feature
// only, built as `docsbot serve` builds it with a projects file (app.New);
// it is stopped when the test ends.
func (w *projectsWorld) start(o projectsBot) (stop func()) {
	w.T.Helper()
	cfg := bottest.Config{AuditText: true, Config: app.Config{Agent: agent.Config{PendingTTL: o.pendingTTL}, Features: []string{agent.Name}}}
	if o.only != "" {
		cfg.Serve = []string{o.only}
	}
	return w.StartBot(cfg).Stop
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
	return w.WaitButtons(user, agent.ActionChooseProject)
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
	id, value := button(w.T, m, actionID, label)
	w.Act(slacktest.Action{UserID: user, ChannelID: m.Channel, MessageTS: m.TS, ActionID: id, Value: value})
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
