package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL, bottest.Parallel(8)) }

// harness is the end-to-end world of bottest, with this package's helpers.
type harness struct{ *bottest.Harness }

const (
	general = bottest.General
)

func newHarness(t *testing.T, apiOpts ...docsapitest.Option) *harness {
	t.Helper()
	return &harness{bottest.New(t, redisURL, apiOpts...)}
}

// rendered is what a message shows (bottest.Rendered).
func rendered(m slacktest.Message) string { return bottest.Rendered(m) }

// longJobsBot is a world whose jobs stay active until the test finishes
// them (bottest.LongJobs), so that nothing moves but what the test does,
// with a bot started with cfg.
func longJobsBot(t *testing.T, cfg bottest.Config) *harness {
	t.Helper()
	h := newHarness(t, bottest.LongJobs())
	h.StartBot(cfg)
	return h
}

// runningJob is longJobsBot with a job of Alice's started in #general
// (startedJob): its root message's ts and its id.
func runningJob(t *testing.T, cfg bottest.Config, prompt string) (h *harness, rootTS, jobID string) {
	t.Helper()
	h = longJobsBot(t, cfg)
	rootTS, jobID = h.startedJob(prompt)
	return h, rootTS, jobID
}

// startedJob runs /docs-agent and waits until the job is linked (its id shows
// in the root message). It returns the root message's ts and the job id.
// apiClient is a client of the harness's docs API, as a replica that died
// used it before the test starts the bot.
func (h *harness) apiClient() *docsapi.Client {
	h.T.Helper()
	client, err := docsapi.NewClient(h.API.Key, h.API.ProjectID, docsapi.WithBaseURL(h.API.URL))
	if err != nil {
		h.T.Fatal(err)
	}
	return client
}

func (h *harness) startedJob(prompt string) (rootTS, jobID string) {
	h.T.Helper()
	before := len(h.Roots(general))
	h.Command(alice, general, agent.Command, prompt)
	h.WaitFor("a linked job", func() bool {
		r := h.Roots(general)
		return len(r) == before+1 && strings.Contains(rendered(r[before]), "job `")
	})
	root := h.Roots(general)[before]
	jobs := h.API.Jobs()
	return root.TS, jobs[len(jobs)-1].ID
}

// notified reports whether job's current run is recorded as reported.
func notified(st *store.Store, jobID string) bool {
	j, err := st.Jobs().Job(context.Background(), jobID)
	return err == nil && j.Notified == j.Generation
}

// untracked reports whether job is recorded as no longer followed because the
// docs API no longer knows it.
func untracked(st *store.Store, jobID string) bool {
	j, err := st.Jobs().Job(context.Background(), jobID)
	return err == nil && j.Status == "not_found"
}

// waitReaction waits until the message ts in #general has the bot's
// reaction: the reply was taken.
func (h *harness) waitReaction(what, ts string) {
	h.T.Helper()
	h.WaitFor(what, func() bool {
		m, _ := h.Slack.Message(general, ts)
		return len(m.Reactions) == 1
	})
}

// everyWayIn has user try to start a job every way there is: a mention, a
// mention in its thread, a direct message, a reply in the thread of the
// job whose root message is rootTS (when set), the message shortcut and a
// visitors summary's Improve this page button. After each, refused(what)
// waits for the refusal.
func (h *harness) everyWayIn(user, rootTS string, refused func(what string)) {
	h.T.Helper()
	m := h.mention(user, general, "", "Rewrite the whole site")
	refused("mention")
	h.mention(user, general, m.TS, "document this")
	refused("mention in a thread")
	dm, err := h.Slack.OpenDM(user)
	if err != nil {
		h.T.Fatal(err)
	}
	h.userMessage(user, dm, "", "Write docs")
	refused("DM")
	if rootTS != "" {
		h.userMessage(user, general, rootTS, "Also delete the changelog")
		refused("follow-up in a job's thread")
	}
	h.Shortcut(slacktest.MessageShortcut{UserID: user, CallbackID: agent.ShortcutSendToAgent, ChannelID: general, MessageTS: m.TS})
	refused("shortcut")
	_, summary, err := h.BotClient().PostMessage(general, slack.MsgOptionBlocks(slack.NewActionBlock("pages",
		slack.NewButtonBlockElement(jobdraft.ActionImprovePage, `{"path":"/x"}`, slack.NewTextBlockObject(slack.PlainTextType, "Improve this page", false, false)))))
	if err != nil {
		h.T.Fatal(err)
	}
	h.Act(slacktest.Action{UserID: user, ChannelID: general, MessageTS: summary, ActionID: jobdraft.ActionImprovePage})
	refused("improve-page button")
}
