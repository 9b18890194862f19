package home_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL, bottest.Parallel(8)) }

const (
	alice = "U0ALICE"
	bob   = "U0BOB"
)

// homeText is what user's published Home shows, "" before any.
func homeText(h *bottest.Harness, user string) string {
	v, ok := h.Slack.HomeView(user)
	if !ok {
		return ""
	}
	return bottest.Rendered(slacktest.Message{Blocks: v.Blocks})
}

// openHome opens user's Home tab and waits until a view published after it
// shows want.
func openHome(t *testing.T, h *bottest.Harness, user, want string) slacktest.View {
	t.Helper()
	return h.OpenHome(user, want)
}

func TestHomeShowsJobsAndCachedVisitors(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL, bottest.LongJobs())
	h.StartBot(bottest.Config{})
	// Slack sends what was typed escaped, as here.
	h.Command(alice, bottest.General, agent.Command, "Document &lt;script&gt; &amp; the quickstart")
	h.WaitFor("the job started", func() bool { return len(h.API.Jobs()) == 1 })

	// The Home lists the job once it is linked: when opened, or on the
	// link's job change right after.
	v := openHome(t, h, alice, "quickstart")
	text := homeText(h, alice)
	bottest.WantContains(t, "Home", text, "No summary of the last 7 days is cached", "Document &lt;script&gt; &amp; the quickstart", ":arrows_counterclockwise: Working", "|thread>", "`"+h.API.ProjectID+"`", "New docs job")
	if strings.Contains(text, "<script>") {
		t.Errorf("Home shows the instruction unescaped:\n%s", text)
	}
	if !strings.Contains(string(v.Blocks), jobdraft.ActionNewJob) {
		t.Errorf("Home has no New docs job button: %s", v.Blocks)
	}
	if n := h.API.Count(docsapitest.EndpointVisitors); n != 0 {
		t.Errorf("opening Home without a cached summary sent %d visitors requests, want 0", n)
	}

	// /docs-visitors 7d fills the cache; the Home then shows it and never asks the API.
	h.Command(alice, bottest.General, "/docs-visitors", "7d")
	h.WaitFor("the visitors summary", func() bool {
		for _, m := range h.Slack.Messages(bottest.General) {
			if strings.Contains(m.Text, "Docs visitors") {
				return true
			}
		}
		return false
	})
	asked := h.API.Count(docsapitest.EndpointVisitors)
	openHome(t, h, alice, "From the cache")
	openHome(t, h, alice, "From the cache")
	if text := homeText(h, alice); !strings.Contains(text, "AI share") || !strings.Contains(text, "Top pages") {
		t.Errorf("Home's visitors summary lacks the totals or the top pages:\n%s", text)
	}
	if n := h.API.Count(docsapitest.EndpointVisitors); n != asked {
		t.Errorf("opening Home twice with a cached summary sent %d visitors requests, want none", n-asked)
	}
	// Bob started nothing: his Home says so, and shows no job of Alice's.
	openHome(t, h, bob, "You have no recent docs agent jobs")
	if strings.Contains(homeText(h, bob), "quickstart") {
		t.Errorf("Bob's Home shows Alice's job:\n%s", homeText(h, bob))
	}
}

func TestHomeNewJobButtonStartsAJobAndItsFinishRepublishes(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL, bottest.LongJobs())
	h.StartBot(bottest.Config{})
	v := openHome(t, h, alice, "New docs job")

	h.Act(slacktest.Action{UserID: alice, ViewID: v.ID, ActionID: jobdraft.ActionNewJob})
	modal := h.WaitModal(alice, agent.ViewJob)
	sub := slacktest.ViewSubmission{ViewID: modal.ID, Values: map[string]map[string]string{"instruction": {"instruction": "Explain webhooks"}}}
	h.Submit(sub)
	// The submission is delivered again: still one job.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := h.Slack.SubmitView(ctx, sub); err == nil {
		t.Log("the modal took a second submission")
	}
	h.WaitFor("the job started", func() bool { return len(h.API.Jobs()) == 1 })
	dm, err := h.Slack.OpenDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	h.WaitFor("the job's root message in Alice's DM", func() bool { return len(h.Roots(dm)) == 1 })
	h.WaitFor("the Home listing the new job", func() bool { return strings.Contains(homeText(h, alice), "Explain webhooks") })

	job := h.API.Jobs()[0]
	pr := "https://github.com/acme/docs/pull/42"
	h.API.SetJobStatus(job.ID, docsapi.StatusCompleted, &pr)
	h.WaitFor("the Home republished with the pull request", func() bool {
		text := homeText(h, alice)
		return strings.Contains(text, pr) && strings.Contains(text, "Completed")
	})
	h.Settle()
	if n := len(h.API.Jobs()); n != 1 {
		t.Errorf("%d jobs started, want 1", n)
	}
}

func TestHomeFollowsTheAllowLists(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  bottest.Config
		// want is what Bob's Home says instead of the button; jobs whether
		// it lists his jobs.
		want string
		jobs bool
	}{
		{"user not allowed", bottest.Config{Config: app.Config{Bot: bot.Config{AllowedUsers: []string{alice}}}}, "not on the list of people who may use docsbot", false},
		{"DMs not allowed", bottest.Config{Config: app.Config{Bot: bot.Config{AllowedChannels: []string{bottest.General}}}}, "docsbot takes jobs only in some channels", true},
		{"a viewer", bottest.Config{Editors: []string{alice}}, "<@" + alice + ">", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := bottest.New(t, redisURL)
			h.StartBot(tt.cfg)
			v := openHome(t, h, bob, tt.want)
			if strings.Contains(string(v.Blocks), jobdraft.ActionNewJob) {
				t.Errorf("Bob's Home has the New docs job button: %s", v.Blocks)
			}
			if got := strings.Contains(homeText(h, bob), "Your recent docs agent jobs"); got != tt.jobs {
				t.Errorf("Bob's Home lists jobs: %t, want %t:\n%s", got, tt.jobs, homeText(h, bob))
			}
		})
	}
}
