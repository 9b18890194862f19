package agent_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

const alice = "U0ALICE"

func TestAgentJobEndToEnd(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})

	ack := h.Command(alice, general, agent.Command, "Add a quickstart for the Python SDK")
	if len(ack.Payload) > 0 && string(ack.Payload) != "null" {
		t.Errorf("ack of a job start carries %s, want an empty ack", ack.Payload)
	}

	h.WaitFor("the job's root message with its job id", func() bool {
		r := h.Roots(general)
		return len(r) == 1 && strings.Contains(rendered(r[0]), "job `job_")
	})
	jobs := h.API.Jobs()
	if len(jobs) != 1 {
		t.Fatalf("API has %d jobs, want 1", len(jobs))
	}
	job := jobs[0]
	if got := h.API.Prompts(job.ID); len(got) != 1 || got[0] != "Add a quickstart for the Python SDK" {
		t.Errorf("API got prompts %q", got)
	}
	root := h.Roots(general)[0]
	if !strings.Contains(rendered(root), "<@"+alice+">") || !strings.Contains(rendered(root), job.ID) {
		t.Errorf("root message does not name the requester and job: %s", root.Blocks)
	}

	h.WaitFor("the result in the thread", func() bool { return len(h.Finishes(general, root.TS)) == 1 })
	final, _ := h.API.Job(job.ID)
	if final.Status != docsapi.StatusCompleted || final.PR() == "" {
		t.Fatalf("API job is %s with PR %q, want completed with a PR", final.Status, final.PR())
	}
	result := h.Finishes(general, root.TS)[0]
	if !strings.Contains(result.Text, "<"+final.PR()+"|") {
		t.Errorf("result %q does not link the PR %s", result.Text, final.PR())
	}
	h.WaitFor("the root message showing the outcome", func() bool {
		m, _ := h.Slack.Message(general, root.TS)
		return strings.Contains(rendered(m), "Completed") && strings.Contains(rendered(m), final.PR())
	})

	// Polling stops once the finish is reported: no more get-job calls.
	gets := h.API.Count(docsapitest.EndpointGet)
	h.Settle() // the job leaves the schedule; then no replica is left running
	if after := h.API.Count(docsapitest.EndpointGet); after != gets {
		t.Errorf("get-job calls went on after the finish: %d then %d", gets, after)
	}
	if n := len(h.Finishes(general, root.TS)); n != 1 {
		t.Errorf("%d result messages, want exactly 1", n)
	}
}

func TestAgentOutcomes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, prompt string
		want         []string
		status       docsapi.Status
		// shown is what the root message says once the job ended.
		shown string
	}{
		{"no change", "Fix typos [no-change]", []string{"no files were changed"}, docsapi.StatusCompleted, ":white_check_mark: Completed"},
		{"failed", "Rewrite everything [fail]", []string{"failed"}, docsapi.StatusFailed, ":x: Failed"},
		{"archived", "Old work [archive]", []string{"archived"}, docsapi.StatusArchived, "Archived"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.StartBot(bottest.Config{})
			h.Command(alice, general, agent.Command, tc.prompt)
			h.WaitFor("a root message", func() bool { return len(h.Roots(general)) == 1 })
			root := h.Roots(general)[0]
			h.WaitFor("the result", func() bool { return len(h.Finishes(general, root.TS)) == 1 })
			res := h.Finishes(general, root.TS)[0]
			for _, w := range tc.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("result %q lacks %q", res.Text, w)
				}
			}
			if j := h.API.Jobs()[0]; j.Status != tc.status {
				t.Errorf("API status %s, want %s", j.Status, tc.status)
			}
			if tc.status == docsapi.StatusCompleted && strings.Contains(res.Text, "pull/") {
				t.Errorf("no-change result links a PR: %q", res.Text)
			}
			h.Settle()
			if m, _ := h.Slack.Message(general, root.TS); !strings.Contains(rendered(m), tc.shown) || strings.Contains(rendered(m), "Working") {
				t.Errorf("root message %q does not show %q", rendered(m), tc.shown)
			}
		})
	}
}

func TestFollowUpRestartsAndReportsEachFinishOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})
	h.Command(alice, general, agent.Command, "Document the CLI")
	h.WaitFor("a root message", func() bool { return len(h.Roots(general)) == 1 })
	root := h.Roots(general)[0]
	h.WaitFor("the first result", func() bool { return len(h.Finishes(general, root.TS)) == 1 })

	replyTS, _ := h.Reply("U0BOB", general, root.TS, "Also add an example for `docsbot jobs watch &lt;id&gt;` &amp; its flags")
	h.WaitFor("the follow-up acknowledged with a reaction", func() bool {
		m, _ := h.Slack.Message(general, replyTS)
		return len(m.Reactions) > 0
	})
	job := h.API.Jobs()[0]
	if p := h.API.Prompts(job.ID); len(p) != 2 || p[1] != "Also add an example for `docsbot jobs watch <id>` & its flags" {
		t.Fatalf("API prompts %q, want the create prompt and the follow-up", p)
	}
	h.WaitFor("the second result", func() bool { return len(h.Finishes(general, root.TS)) == 2 })
	second := h.Finishes(general, root.TS)[1]
	if !strings.Contains(second.Text, "follow-up 1") {
		t.Errorf("second result %q does not say it is for the follow-up", second.Text)
	}
	h.Settle()
	if n := len(h.Finishes(general, root.TS)); n != 2 {
		t.Errorf("%d results after one follow-up, want 2", n)
	}
}

func TestAgentHelpAndRefusalsInTheAck(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Slack.AddChannel(slacktest.Channel{ID: "C0OTHER", Name: "other", BotMember: true})
	h.Slack.AddUser("U0MALLORY", "mallory")
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{AllowedUsers: []string{alice, "U0BOB"}, AllowedChannels: []string{general}}}})
	cases := []struct {
		name, user, channel, text, want string
	}{
		{"help", alice, general, "help", "Ways in"},
		{"user not allowed", "U0MALLORY", general, "Do it", "not on the list"},
		{"user not allowed, the form", "U0MALLORY", general, "", "not on the list"},
		{"user not allowed, list", "U0MALLORY", general, "list", "not on the list"},
		{"channel not allowed", alice, "C0OTHER", "Do it", "not enabled in this channel"},
	}
	for _, tc := range cases {
		ack := h.Command(tc.user, tc.channel, agent.Command, tc.text)
		var p struct {
			ResponseType string `json:"response_type"`
			Text         string `json:"text"`
		}
		if err := json.Unmarshal(ack.Payload, &p); err != nil {
			t.Fatalf("%s: ack payload %s: %v", tc.name, ack.Payload, err)
		}
		if p.ResponseType != "ephemeral" || !strings.Contains(p.Text, tc.want) {
			t.Errorf("%s: ack %s, want an ephemeral reply containing %q", tc.name, ack.Payload, tc.want)
		}
	}
	if n := len(h.API.Requests()); n != 0 {
		t.Errorf("%d API requests, want none", n)
	}
	if n := len(h.Slack.Calls("chat.postMessage")); n != 0 {
		t.Errorf("%d chat.postMessage calls, want none", n)
	}
}

func TestAgentInChannelWithoutTheBot(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Slack.AddChannel(slacktest.Channel{ID: "C0PRIVATE", Name: "secret", BotMember: false, Private: true})
	h.StartBot(bottest.Config{})
	h.Command(alice, "C0PRIVATE", agent.Command, "Write docs")
	h.WaitFor("a private reply through response_url", func() bool { return len(h.Slack.ResponsePosts("")) == 1 })
	post := h.Slack.ResponsePosts("")[0]
	if post.ResponseType != "ephemeral" || !strings.Contains(post.Text, "/invite @docsbot") {
		t.Errorf("reply %+v, want an ephemeral invite hint", post)
	}
	h.WantRequests(docsapitest.EndpointCreate, 0, "none when the bot cannot post")
}

func TestAgentCreateRefusedByTheAPI(t *testing.T) {
	t.Parallel()
	// A 500 leaves the outcome unknown (the API may have started the job):
	// the root message says so, never "Not started".
	const notStarted, unknown = "Not started", "cannot tell whether the agent started"
	cases := []struct {
		name  string
		fault docsapitest.Fault
		state string
		want  string
	}{
		{"server error", docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Status: http.StatusInternalServerError}, unknown, "answered 500 Internal Server Error"},
		{"rate limited", docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Status: http.StatusTooManyRequests, RetryAfter: 20 * time.Minute}, notStarted, "rate limit"},
		{"bad key", docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Status: http.StatusUnauthorized}, notStarted, "DOCS_API_KEY"},
		{"invalid", docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Status: http.StatusBadRequest, Body: `{"error":"prompt <b>too</b> long"}`}, notStarted, "prompt &lt;b&gt;too&lt;/b&gt; long"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.API.AddFault(tc.fault)
			h.StartBot(bottest.Config{})
			h.Command(alice, general, agent.Command, "Add a changelog page")
			h.WaitFor("the root message saying what became of the job", func() bool {
				r := h.Roots(general)
				return len(r) == 1 && strings.Contains(rendered(r[0]), tc.state)
			})
			root := h.Roots(general)[0]
			if !strings.Contains(rendered(root), tc.want) {
				t.Errorf("root message %s lacks %q", root.Blocks, tc.want)
			}
			h.WantRequests(docsapitest.EndpointCreate, 1, "a POST is not retried")
			for _, bad := range []string{"may or may not", "HTTP 500"} {
				if strings.Contains(rendered(root), bad) {
					t.Errorf("root message %q says %q", rendered(root), bad)
				}
			}
			if tc.state != unknown {
				return
			}
			// The private note says the same as the root message: the
			// outcome is unknown, what the API answered, and retry.
			h.WaitFor("the private note", func() bool { return len(h.Slack.ResponsePosts("")) >= 1 })
			h.Idle()
			if n := len(h.Slack.ResponsePosts("")); n != 1 {
				t.Errorf("%d private notes, want one", n)
			}
			note := h.Slack.ResponsePosts("")[0].Text
			for _, w := range []string{unknown, tc.want, "reply `retry` in this thread"} {
				if !strings.Contains(note, w) {
					t.Errorf("private note %q lacks %q", note, w)
				}
			}
			if strings.Contains(note, notStarted) || !strings.Contains(rendered(root), note) {
				t.Errorf("private note %q disagrees with the root message %q", note, rendered(root))
			}
		})
	}
}

func TestUserTextIsEscaped(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})
	// As Slack delivers what the person typed: "Ping <!channel> & <@U0BOB> ..."
	// with its own escaping, plus a real link the client turned into markup.
	typed := "Ping <!channel> & <@U0BOB> about <b>this</b>"
	h.Command(alice, general, agent.Command, slackEscape(typed)+" see <https://docs.example/a?x=1&amp;y=2|the page>")
	h.WaitFor("a root message with a job id", func() bool {
		r := h.Roots(general)
		return len(r) == 1 && strings.Contains(rendered(r[0]), "job `")
	})
	root := h.Roots(general)[0]
	all := root.Text + "\n" + rendered(root)
	for _, bad := range []string{"<!channel>", "<@U0BOB>", "<b>", "<https://"} {
		if strings.Contains(all, bad) {
			t.Errorf("root message contains live markup %q: %s", bad, all)
		}
	}
	if !strings.Contains(rendered(root), "&lt;!channel&gt; &amp; &lt;@U0BOB&gt;") {
		t.Errorf("root message does not show the escaped instruction: %s", root.Blocks)
	}
	want := typed + " see the page (https://docs.example/a?x=1&y=2)"
	if got := h.API.Prompts(h.API.Jobs()[0].ID)[0]; got != want {
		t.Errorf("API got %q, want what the person typed: %q", got, want)
	}
}

// slackEscape escapes text the way Slack does before delivering it.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func TestPRLinkThatIsNotAURLIsText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})
	h.Command(alice, general, agent.Command, "Anything")
	h.WaitFor("a root message with a job id", func() bool {
		r := h.Roots(general)
		return len(r) == 1 && strings.Contains(rendered(r[0]), "job `")
	})
	root := h.Roots(general)[0]
	job := h.API.Jobs()[0]
	bad := "javascript:alert(1)|<!here>"
	h.API.SetJobStatus(job.ID, docsapi.StatusCompleted, &bad)
	h.WaitFor("the result", func() bool { return len(h.Finishes(general, root.TS)) == 1 })
	res := h.Finishes(general, root.TS)[0]
	if strings.Contains(res.Text, "<javascript") || strings.Contains(res.Text, "<!here>") {
		t.Errorf("a non-http prLink became markup: %q", res.Text)
	}
	if !strings.Contains(res.Text, "javascript:alert(1)") {
		t.Errorf("the prLink is not shown as text: %q", res.Text)
	}
}

func TestLongInstructionIsCutInSlackOnly(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})
	long := strings.Repeat("Document every endpoint with examples. ", 200) // 7,800 characters
	h.Command(alice, general, agent.Command, long)
	h.WaitFor("a root message with a job id", func() bool {
		r := h.Roots(general)
		return len(r) == 1 && strings.Contains(rendered(r[0]), "job `")
	})
	if got := h.API.Prompts(h.API.Jobs()[0].ID)[0]; got != strings.TrimSpace(long) {
		t.Errorf("the API got %d characters, want the whole instruction (%d)", len(got), len(strings.TrimSpace(long)))
	}
	root := h.Roots(general)[0]
	if len(rendered(root)) >= len(long) || !strings.Contains(rendered(root), "…") {
		t.Errorf("the root message shows %d characters without a cut mark", len(rendered(root)))
	}
	if len(root.Text) > 4000 {
		t.Errorf("the fallback text has %d characters, over Slack's 4,000", len(root.Text))
	}
	// After the finish the root message is rebuilt from Redis: the same excerpt.
	quoted := func(m slacktest.Message) string { return strings.SplitN(rendered(m), "\n", 3)[1] }
	before := quoted(root)
	h.WaitFor("the root message showing the outcome", func() bool {
		m, _ := h.Slack.Message(general, root.TS)
		return strings.Contains(rendered(m), "Completed")
	})
	after, _ := h.Slack.Message(general, root.TS)
	if quoted(after) != before {
		t.Errorf("the excerpt changed on the update:\nbefore %q\nafter  %q", before, quoted(after))
	}
}
