package deploy_test

import (
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL, bottest.Parallel(8)) }

const (
	general = bottest.General
	alice   = "U0ALICE"
	bob     = "U0BOB"
)

// harness is the end-to-end world of bottest.
type harness struct{ *bottest.Harness }

func newHarness(t *testing.T, apiOpts ...docsapitest.Option) *harness {
	t.Helper()
	return &harness{bottest.New(t, redisURL, apiOpts...)}
}

// live waits for the bot's message in #general that shows want, and returns
// its text.
func (h *harness) live(want string) string {
	h.T.Helper()
	return h.liveIn(general, want)
}

// liveIn waits for the bot's message in channel that shows want, and
// returns its text.
func (h *harness) liveIn(channel, want string) string {
	h.T.Helper()
	var text string
	h.WaitFor("the live message showing "+want, func() bool {
		for _, m := range h.Roots(channel) {
			if strings.Contains(m.Text, want) {
				text = m.Text
				return true
			}
		}
		return false
	})
	return text
}

// deployNow types a bare /docs-deploy (text: "" or project=NAME) as user in
// channel, waits for its question and presses Deploy; it returns the press.
func (h *harness) deployNow(user, channel, text string) slacktest.Interaction {
	h.T.Helper()
	h.Command(user, channel, deploy.Command, text)
	q := h.question(user)
	return h.Act(slacktest.Action{UserID: user, ChannelID: channel, MessageTS: q.TS, ActionID: deploy.ActionConfirm})
}

// question waits for the last question of a bare /docs-deploy shown to
// user whose Deploy button is still there, and returns it.
func (h *harness) question(user string) slacktest.Message {
	h.T.Helper()
	var q slacktest.Message
	h.WaitFor("the deploy question shown to "+user, func() bool {
		found := false
		for _, m := range h.Slack.Ephemerals(user) {
			if strings.Contains(string(m.Blocks), deploy.ActionConfirm) {
				q, found = m, true
			}
		}
		return found
	})
	return q
}

// told reports whether user was told privately something containing text.
func (h *harness) told(user, text string) bool {
	if len(h.Privates(user, text)) > 0 {
		return true
	}
	for _, p := range h.Slack.ResponsePosts("") {
		if p.User == user && strings.Contains(p.Text, text) {
			return true
		}
	}
	return false
}

// TestDeployLiveToTheEnd: /docs-deploy keeps one live message from queued to
// the end: the commit (its message a block quote, "&gt; ", not a literal
// ">") and the files changed when it succeeds, the end of the logs in a
// code block when it fails; the API is asked to deploy once each.
func TestDeployLiveToTheEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fail  bool
		state string // the record's last state, for /docs-deploy status
		wants []string
	}{
		{"success", false, "success", []string{":white_check_mark:", "done.", "\n&gt; ", "modified"}},
		{"failure", true, "failure", []string{":x:", "it failed.", "The end of the logs:\n```", "then `/docs-deploy` again"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if tt.fail {
				h.API.FailNextDeploy()
			}
			run := h.StartBot(bottest.Config{})
			h.deployNow(alice, general, "")
			end := h.live(tt.wants[0])
			var recs []store.DeployRecord
			h.WaitFor("the deployment recorded "+tt.state, func() bool {
				recs, _ = run.Store.Deploys().RecentDeploys(t.Context(), "T0TEST", 5)
				return len(recs) == 1 && recs[0].State == tt.state
			})
			if recs[0].Ended.IsZero() || recs[0].StatusID == "" || recs[0].TS == "" {
				t.Errorf("the ended deployment's record = %+v; want its end, status id and message", recs[0])
			}
			bottest.WantContains(t, "the ended deployment", end, tt.wants...)
			bottest.WantContains(t, "the ended deployment", end, "<@"+alice+"> deployed the docs")
			if n := len(h.Roots(general)); n != 1 {
				t.Errorf("%d messages in the channel, want the one live message", n)
			}
			if n := h.API.Count(docsapitest.EndpointDeploy); n != 1 {
				t.Errorf("%d deploy calls, want 1", n)
			}
			// Queued, in progress, the end: the waits between the three
			// looks are made holding the work, not deferring it.
			if n := h.API.Count(docsapitest.EndpointDeployStatus); n != 3 {
				t.Errorf("%d status reads, want 3", n)
			}
			if n := deferred(h, "deploy.follow"); n != 0 {
				t.Errorf("the follow work deferred %d times, want none", n)
			}
		})
	}
}

// deferred counts the times the bots deferred work of kind, for a failure
// ("work deferred") or as planned ("work waits").
func deferred(h *harness, kind string) int {
	n := 0
	for _, line := range strings.Split(h.Logs.String(), "\n") {
		if (strings.Contains(line, `msg="work deferred"`) || strings.Contains(line, `msg="work waits"`)) && strings.Contains(line, "kind="+kind+" ") {
			n++
		}
	}
	return n
}

// TestDeployFollowedOnAfterAStop: a replica stopped while its follow work
// waits between two looks hands the work back; another follows the
// deployment to its end, which is deployed once.
func TestDeployFollowedOnAfterAStop(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cut := bottest.Config{Config: app.Config{Bot: bot.Config{ShutdownGrace: 1, LandingWindow: 1}}}
	first := h.StartBot(cut)
	h.deployNow(alice, general, "")
	h.WaitFor("the first look at the deployment", func() bool { return h.API.Count(docsapitest.EndpointDeployStatus) >= 1 })
	first.Stop()
	h.StartBot(cut)
	h.live(":white_check_mark:")
	if n := h.API.Count(docsapitest.EndpointDeploy); n != 1 {
		t.Errorf("%d deploy calls, want 1", n)
	}
	if !strings.Contains(h.Logs.String(), "handed back work in flight") {
		t.Error("the stopped replica did not hand its follow work back")
	}
}

// TestDeployPreview: a preview shows its address once it is ready; one the
// plan does not allow is told.
func TestDeployPreview(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})
	h.Command(alice, general, deploy.Command, "preview docs/new-quickstart")
	end := h.live(":white_check_mark:")
	bottest.WantContains(t, "the preview", end, "a preview of `docs/new-quickstart`", "Preview: <https://")
	h.API.SetPreviews(false)
	h.Command(alice, general, deploy.Command, "preview docs/other")
	refused := h.live("refused previews")
	bottest.WantContains(t, "the refused preview", refused, "Nothing was deployed")
}

// TestWhoMayDeploy: the rows of docs/architecture.md's "Who may do what" for
// /docs-deploy: a viewer and a guest are refused privately and deploy
// nothing; anyone may ask for the status.
func TestWhoMayDeploy(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const guest = "U0GUEST"
	h.Slack.AddGuest(guest, "gus", false)
	h.StartBot(bottest.Config{Editors: []string{alice, guest}})
	// Each refusal names what was refused, deploying, and not agent jobs
	// (issue 42: a guest was told he "cannot start docs agent jobs").
	for _, who := range []struct{ user, refusal string }{
		{bob, "Only editors can deploy the docs or open previews"},
		{guest, "Guests of this workspace cannot deploy the docs or open previews"},
	} {
		for _, text := range []string{"", "preview feature-x"} {
			ack := h.Command(who.user, general, deploy.Command, text)
			if !strings.Contains(string(ack.Payload), who.refusal) {
				h.WaitFor(who.user+"'s refusal", func() bool { return h.told(who.user, who.refusal) })
			}
			if strings.Contains(string(ack.Payload), "agent jobs") || h.told(who.user, "agent jobs") {
				t.Errorf("%s's refusal of /docs-deploy %q speaks of agent jobs: %s", who.user, text, ack.Payload)
			}
		}
	}
	h.deployNow(alice, general, "")
	h.live(":white_check_mark:")
	h.Command(bob, general, deploy.Command, "status")
	h.WaitFor("the status for a viewer", func() bool { return h.told(bob, "started from Slack lately") })
	if !h.told(bob, "deployment by <@"+alice+">") {
		t.Error("the status does not list alice's deployment")
	}
	if n := h.API.Count(docsapitest.EndpointDeploy) + h.API.Count(docsapitest.EndpointPreview); n != 1 {
		t.Errorf("%d deploy and preview calls, want alice's one", n)
	}
}

// TestDeployOnceWhenRedelivered: Slack sending /docs-deploy preview again
// builds one preview.
func TestDeployOnceWhenRedelivered(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})
	ack := h.Command(alice, general, deploy.Command, "preview docs/again")
	h.live(":white_check_mark:")
	if err := h.Slack.Redeliver(t.Context(), ack.EnvelopeID); err != nil {
		t.Fatal(err)
	}
	h.Idle()
	if n := h.API.Count(docsapitest.EndpointPreview); n != 1 {
		t.Errorf("%d preview calls after a redelivery, want 1", n)
	}
}

// TestDeployAfterAReplicaDiedInsideTheCall: a replica that marked the call
// and died leaves a deployment that may have started: the next attempt does
// not call again, and says so in the message and to the person.
func TestDeployAfterAReplicaDiedInsideTheCall(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, ts, err := h.BotClient().PostMessage(general, slack.MsgOptionText(":hourglass_flowing_sand: deploying the docs…", false))
	if err != nil {
		t.Fatal(err)
	}
	req := map[string]any{"team": "T0TEST", "channel": general, "user": alice}
	h.DeadReplicaWork("cmd:dead", "deploy.start", req, map[string]string{"project": "=", "message": ts, "calling": "1"})
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{LandingWindow: 1}}})
	h.live("cannot tell whether the docs started")
	h.WaitFor("alice told", func() bool { return h.told(alice, "cannot tell whether") })
	h.Command(alice, general, deploy.Command, "status")
	h.WaitFor("the status", func() bool { return h.told(alice, "started from Slack lately") })
	if !h.told(alice, ":grey_question: deployment by <@"+alice+">") {
		t.Errorf("the status does not list the deployment whose outcome is unknown: %+v", h.Slack.ResponsePosts(""))
	}
	if n := h.API.Count(docsapitest.EndpointDeploy); n != 0 {
		t.Errorf("%d deploy calls after the replica died inside one, want none", n)
	}
}

// TestDeployStartAgainAfterItsEndWasLost: a start whose deployment started
// and was followed to its end, but whose own end was lost, is taken again:
// it calls nothing, queues no second follow and keeps the record the
// follow work wrote (the start writes no done mark).
func TestDeployStartAgainAfterItsEndWasLost(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := t.Context()
	_, ts, err := h.BotClient().PostMessage(general, slack.MsgOptionText(":white_check_mark: deployed", false))
	if err != nil {
		t.Fatal(err)
	}
	const key = "cmd:lost-end"
	st := h.OpenStore()
	started := time.Now().Add(-time.Minute)
	ended := store.DeployRecord{ID: key, State: "success", StatusID: "s-lost", User: alice, Channel: general, TS: ts, Started: started, Ended: time.Now()}
	if err := st.Deploys().AddDeploy(ctx, "T0TEST", ended); err != nil {
		t.Fatal(err)
	}
	// Its follow work, done.
	follow := store.Work{Key: "follow:" + key + ":1", Kind: "deploy.follow", Payload: []byte(`{}`)}
	if _, err := st.Inbox().Enqueue(ctx, follow, time.Hour); err != nil {
		t.Fatal(err)
	}
	taken, err := st.Inbox().ClaimWork(ctx, 1, time.Minute)
	if err != nil || len(taken) != 1 {
		t.Fatalf("ClaimWork = %v, %v", taken, err)
	}
	if err := st.Inbox().Done(ctx, taken[0]); err != nil {
		t.Fatal(err)
	}
	req := map[string]any{"team": "T0TEST", "channel": general, "user": alice}
	h.DeadReplicaWork(key, "deploy.start", req, map[string]string{"project": "=", "share": "taking", "message": ts, "calling": "1",
		"started": `{"statusId":"s-lost"}`})
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{LandingWindow: 1}}})
	h.Idle()
	if n := h.API.Count(docsapitest.EndpointDeploy) + h.API.Count(docsapitest.EndpointDeployStatus); n != 0 {
		t.Errorf("%d deploy calls and status reads, want none", n)
	}
	if r, err := st.Deploys().Deploy(ctx, "T0TEST", key); err != nil || r.State != "success" {
		t.Errorf("the record after the start again = %+v, %v; want it success still", r, err)
	}
}

// TestDeployShareSpentIsNeverDeployedLater: an attempt that found the
// person's share spent marked it before telling them; a replica dying then
// leaves the next attempt to tell them again, and deploy nothing.
func TestDeployShareSpentIsNeverDeployedLater(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	req := map[string]any{"team": "T0TEST", "channel": general, "user": alice}
	h.DeadReplicaWork("cmd:share-spent", "deploy.start", req, map[string]string{"project": "=", "share": "spent"})
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{LandingWindow: 1}}})
	h.Idle()
	if n := h.API.Count(docsapitest.EndpointDeploy); n != 0 {
		t.Errorf("%d deployments started, want none", n)
	}
	var told []string
	for _, m := range h.Slack.Ephemerals(alice) {
		if strings.Contains(m.Text, "Nothing was deployed") {
			told = append(told, m.Text)
		}
	}
	if len(told) != 1 {
		t.Errorf("told %q, want once that nothing was deployed", told)
	}
}

// TestDeployStillRunningIsNoWarning: a deployment that runs past the looks
// its follow work holds is looked at again later, as planned; that wait is
// logged at debug ("work waits"), never as a warning that work was
// deferred, which an operator would read as a fault.
func TestDeployStillRunningIsNoWarning(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.API.SetDeployLifecycle(func(docsapitest.DeployRequest) docsapitest.DeployLifecycle {
		return docsapitest.DeployLifecycle{QueuedPolls: 1, RunningPolls: 2, Outcome: docsapi.DeploySuccess}
	})
	h.StartBot(bottest.Config{})
	h.deployNow(alice, general, "")
	h.live(":white_check_mark:")
	h.Settle()
	if n := deferred(h, "deploy.follow"); n == 0 {
		t.Fatalf("the follow work never waited: the deployment ended within the held looks, so this tests nothing")
	}
	for _, line := range strings.Split(h.Logs.String(), "\n") {
		if strings.Contains(line, "level=WARN") && strings.Contains(line, "kind=deploy.follow") {
			t.Errorf("a running deployment logged a warning: %s", line)
		}
	}
}
