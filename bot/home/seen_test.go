package home_test

import (
	"context"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// The store records who opened the Home.
var _ home.Seen = store.HomeSeen{}

// What the Home logs when a job change does not, or does anyway, republish.
const (
	logNotOpened = "the person never opened the App Home; not refreshing it"
	logSeenDown  = "reading whether the person opened the App Home failed; refreshing it anyway"
)

// startSeenBot starts a replica on h with the agent and the Home, built as
// `docsbot serve` builds them (app.New), whose Home records who opened it
// in seen (home.Config.Seen). It stops when the test ends.
func startSeenBot(t *testing.T, h *bottest.Harness, seen home.Seen) {
	t.Helper()
	h.StartBot(bottest.Config{Config: app.Config{Home: home.Config{Seen: seen}, Features: []string{agent.Name, home.Name}}})
}

// publishesFor counts the views.publish calls for user's Home.
func publishesFor(h *bottest.Harness, user string) int {
	n := 0
	for _, c := range h.Slack.Calls("views.publish") {
		if c.Params["user_id"] == user {
			n++
		}
	}
	return n
}

// TestJobChangesRepublishOnlyOpenedHomes: a job change republishes the Home
// of its requester only once they have opened it; before that, it costs no
// views.publish.
func TestJobChangesRepublishOnlyOpenedHomes(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL, bottest.LongJobs())
	startSeenBot(t, h, h.OpenStore().HomeSeen())

	// Alice never opened her Home: her job's link and its finish publish
	// nothing.
	h.Command(alice, bottest.General, agent.Command, "Document the quickstart")
	h.WaitFor("the first job started", func() bool { return len(h.API.Jobs()) == 1 })
	h.WaitLogged(logNotOpened, 1)
	first := h.API.Jobs()[0]
	firstPR := "https://github.com/acme/docs/pull/41"
	h.API.SetJobStatus(first.ID, docsapi.StatusCompleted, &firstPR)
	h.WaitLogged(logNotOpened, 2)
	if n := publishesFor(h, alice); n != 0 {
		t.Fatalf("%d views.publish for Alice, who never opened her Home; want 0", n)
	}
	if _, ok := h.Slack.HomeView(alice); ok {
		t.Fatalf("Alice's Home was published before she opened it")
	}

	// She opens it: it shows the finished job, and from now on her job
	// changes republish it.
	openHome(t, h, alice, firstPR)
	h.Command(alice, bottest.General, agent.Command, "Explain webhooks")
	h.WaitFor("the second job started", func() bool { return len(h.API.Jobs()) == 2 })
	h.WaitFor("Alice's Home republished with the new job", func() bool { return strings.Contains(homeText(h, alice), "Explain webhooks") })
	var second docsapi.Job
	for _, j := range h.API.Jobs() {
		if j.ID != first.ID {
			second = j
		}
	}
	secondPR := "https://github.com/acme/docs/pull/42"
	h.API.SetJobStatus(second.ID, docsapi.StatusCompleted, &secondPR)
	h.WaitFor("Alice's Home republished with the finish", func() bool { return strings.Contains(homeText(h, alice), secondPR) })
	if n := strings.Count(h.Logs.String(), `msg="`+logNotOpened+`"`); n != 2 {
		t.Errorf("%d job changes were not published after Alice opened her Home, want only the 2 before", n)
	}
}

// TestJobChangesRepublishWhenRedisCannotSay: when the record of who opened
// the Home cannot be read, a job change republishes the Home anyway.
func TestJobChangesRepublishWhenRedisCannotSay(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL, bottest.LongJobs())
	// A store whose connection is closed answers nothing.
	down, err := store.Open(context.Background(), h.RedisURL, store.WithPrefix(h.Prefix))
	if err != nil {
		t.Fatal(err)
	}
	if err := down.Close(); err != nil {
		t.Fatal(err)
	}
	startSeenBot(t, h, down.HomeSeen())

	h.Command(alice, bottest.General, agent.Command, "Document the quickstart")
	h.WaitFor("Alice's Home published with her job", func() bool { return strings.Contains(homeText(h, alice), "Document the quickstart") })
	h.WaitLogged(logSeenDown, 1)
	if strings.Contains(h.Logs.String(), logNotOpened) {
		t.Errorf("a job change was held back although Redis could not say whether Alice opened her Home")
	}
}
