package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

const bob = "U0BOB"

// mention posts a person's @mention of the bot (in a thread when threadTS
// is set) and waits for both of Slack's events for it to be acked.
func (h *harness) mention(user, channel, threadTS, text string) slacktest.Mentioned {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	m, err := h.Slack.Mention(ctx, slacktest.UserMessage{ChannelID: channel, UserID: user, Text: text, ThreadTS: threadTS})
	if err != nil {
		h.T.Fatalf("mention %q: %v", text, err)
	}
	return m
}

// rootIn waits for the bot's root message of a job in the thread under
// threadTS, showing its job id, and returns it with the job's id.
func (h *harness) rootIn(channel, threadTS string) (slacktest.Message, string) {
	h.T.Helper()
	var root slacktest.Message
	h.WaitFor("the job's root message in the thread", func() bool {
		for _, m := range h.Slack.Thread(channel, threadTS) {
			if m.TS != threadTS && m.BotID != "" && strings.Contains(string(m.Metadata), agent.RootEvent) && strings.Contains(rendered(m), "job `") {
				root = m
				return true
			}
		}
		return false
	})
	for _, j := range h.API.Jobs() {
		if strings.Contains(rendered(root), j.ID) {
			return root, j.ID
		}
	}
	h.T.Fatalf("root message %q names no job of the API", rendered(root))
	return root, ""
}

// userMessage posts a person's message and returns its ts.
func (h *harness) userMessage(user, channel, threadTS, text string) string {
	h.T.Helper()
	ts, _ := h.Reply(user, channel, threadTS, text)
	return ts
}

func TestMentionStartsAJobInItsThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})

	m := h.mention(alice, general, "", "Add a quickstart for the Go SDK &amp; its CLI")
	root, jobID := h.rootIn(general, m.TS)
	if got := h.API.Prompts(jobID); len(got) != 1 || got[0] != "Add a quickstart for the Go SDK & its CLI" {
		t.Errorf("API got prompts %q, want the instruction as typed, without the mention", got)
	}
	if !strings.Contains(rendered(root), "<@"+alice+">") || !strings.Contains(rendered(root), "&amp; its CLI") {
		t.Errorf("root message %q does not name the requester and quote the instruction escaped", rendered(root))
	}
	h.WaitFor("the result in the person's thread", func() bool { return len(h.Finishes(general, m.TS)) == 1 })
	h.WaitFor("the root message showing the outcome", func() bool {
		got, _ := h.Slack.Message(general, root.TS)
		return strings.Contains(rendered(got), "Completed")
	})
	h.Settle()
	// Slack sent an app_mention and a message event for the one post: one job.
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
	if r := h.Roots(general); len(r) != 0 {
		t.Errorf("%d top-level bot messages, want none: the job lives in the person's thread", len(r))
	}
	// The post's second event is normal operation: not logged as a
	// redelivery, at debug only.
	h.WaitLogged(bot.RedeliveredPost, 1)
	for _, line := range strings.Split(h.Logs.String(), "\n") {
		if strings.Contains(line, bot.RedeliveredEvent) || (strings.Contains(line, bot.RedeliveredPost) && !strings.Contains(line, "level=DEBUG")) {
			t.Errorf("a mention's second event logged as more than normal operation: %s", line)
		}
	}
}

func TestMentionInAJobThreadIsAFollowUp(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})

	m := h.mention(alice, general, "", "Write a glossary")
	_, jobID := h.rootIn(general, m.TS)
	h.mention(bob, general, m.TS, "also define lease")
	h.WaitFor("the mention sent as a follow-up", func() bool { return len(h.API.Prompts(jobID)) == 2 })
	reply := h.userMessage(alice, general, m.TS, "and fencing token")
	h.WaitFor("the plain reply sent as a follow-up", func() bool { return len(h.API.Prompts(jobID)) == 3 })
	h.WaitFor("the reply's reaction", func() bool {
		got, _ := h.Slack.Message(general, reply)
		return len(got.Reactions) > 0
	})
	h.StopAll()
	if got := h.API.Prompts(jobID); got[1] != "also define lease" || got[2] != "and fencing token" {
		t.Errorf("follow-ups %q", got[1:])
	}
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
}

func TestDMStartsAJobAndRepliesFollowUp(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	dm, err := h.Slack.OpenDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	ts := h.userMessage(alice, dm, "", "Write an FAQ about billing")
	_, jobID := h.rootIn(dm, ts)
	h.userMessage(alice, dm, ts, "Keep it short")
	h.WaitFor("the DM reply sent as a follow-up", func() bool { return len(h.API.Prompts(jobID)) == 2 })
	h.StopAll()
	if got := h.API.Prompts(jobID); got[0] != "Write an FAQ about billing" || got[1] != "Keep it short" {
		t.Errorf("API prompts %q", got)
	}
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
}

func TestMentionInAThreadPassesItAsContext(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	parent := h.userMessage(bob, general, "", "The CLI docs never mention --dry-run")
	h.userMessage(alice, general, parent, "<@"+bob+"> right, and it prints a plan &lt;first&gt;")
	// Another message by a bot (here docsbot itself, posting as any bot
	// would), marked as such in the context.
	api := h.BotClient()
	if _, _, err := api.PostMessage(general, slack.MsgOptionText("Reminder: docs freeze on Friday", false), slack.MsgOptionTS(parent)); err != nil {
		t.Fatal(err)
	}

	h.mention(alice, general, parent, "document this")
	_, jobID := h.rootIn(general, parent)
	prompt := h.API.Prompts(jobID)[0]
	bottest.WantContains(t, "instruction", prompt,
		"document this\n\nContext: the Slack thread",
		"https://", // the thread's permalink
		"bob: The CLI docs never mention --dry-run",
		"alice: @bob right, and it prints a plan <first>",
		"docsbot (bot): Reminder: docs freeze on Friday",
	)
	if strings.Contains(prompt, bob) || strings.Contains(prompt, alice) || strings.Contains(prompt, "left out") {
		t.Errorf("instruction names people by id or says it cut a short thread:\n%s", prompt)
	}
	// The thread is now the job's: a later mention there is a follow-up.
	// Alice's reply, posted before the job and in its context, is not one.
	h.mention(bob, general, parent, "mention the exit codes too")
	h.WaitFor("the second mention sent as a follow-up", func() bool { return len(h.API.Prompts(jobID)) >= 2 })
	h.Idle()
	h.StopAll()
	if got := h.API.Prompts(jobID); len(got) != 2 || got[1] != "mention the exit codes too" {
		t.Errorf("API got prompts %q, want the instruction with its context, then the second mention only", got)
	}
	h.WantRequests(docsapitest.EndpointMessage, 1, "the thread's earlier messages went as context")
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
}

// A reply posted after the mention, while its job is being started, waits
// for the job and is sent to it, once; a reply posted before the mention
// went as context and is not sent again.
func TestReplyWhileAMentionsJobStartsIsAFollowUp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// behind is how far the fake Slack's clock is behind: how old the
		// thread looks to the bot.
		behind time.Duration
	}{
		{name: "a thread begun moments ago"},
		// Over startWindow: only the start's claim on the thread tells the
		// reply to wait for the job.
		{name: "a thread begun minutes ago", behind: 3 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			replyWhileAMentionsJobStarts(t, tc.behind)
		})
	}
}

// replyWhileAMentionsJobStarts posts a reply in a thread while a mention's
// job is being created there, on a fake Slack whose clock is behind by
// behind: the reply is sent to the job as a follow-up, once.
func replyWhileAMentionsJobStarts(t *testing.T, behind time.Duration) {
	clock := func() time.Time { return time.Now().Add(-behind) }
	h := &harness{bottest.NewWith(t, redisURL, []slacktest.Option{slacktest.WithClock(clock)}, bottest.LongJobs())}
	h.StartBot(bottest.Config{})
	parent := h.userMessage(bob, general, "", "The CLI docs never mention --dry-run")
	h.userMessage(alice, general, parent, "it prints a plan")
	// The job is created only when the test lets the create call through:
	// until then the thread is no job's.
	hold := make(chan struct{})
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Hold: hold, Times: 1})
	h.mention(alice, general, parent, "document this")
	h.WaitFor("the create call under way", func() bool { return h.API.Count(docsapitest.EndpointCreate) == 1 })
	h.userMessage(bob, general, parent, "and the exit codes")
	if n := len(h.API.Jobs()); n != 0 {
		t.Fatalf("%d jobs created while the create call was held", n)
	}
	close(hold)
	_, jobID := h.rootIn(general, parent)
	h.WaitFor("the later reply sent as a follow-up", func() bool { return len(h.API.Prompts(jobID)) >= 2 })
	h.Idle()
	h.StopAll()
	got := h.API.Prompts(jobID)
	if len(got) != 2 || !strings.Contains(got[0], "alice: it prints a plan") || strings.Contains(got[0], "exit codes") || got[1] != "and the exit codes" {
		t.Errorf("API got prompts %q, want the instruction with the earlier reply as context, then the later reply", got)
	}
	h.WantRequests(docsapitest.EndpointMessage, 1, "")
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
}

func TestThreadContextIsCapped(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	parent := h.userMessage(bob, general, "", "FIRST: the migration guide is wrong")
	// 201 replies of 50 characters: over the cap, and more than one page of
	// conversations.replies (200 a page), so the latest come from the second.
	const n, size = 201, 40
	for i := range n {
		h.userMessage(alice, general, parent, fmt.Sprintf("note %03d %s", i, strings.Repeat("x", size)))
	}
	h.mention(alice, general, parent, "fix the guide")
	_, jobID := h.rootIn(general, parent)
	prompt := h.API.Prompts(jobID)[0]
	if !strings.Contains(prompt, "FIRST: the migration guide is wrong") || !strings.Contains(prompt, fmt.Sprintf("note %03d", n-1)) {
		t.Errorf("instruction lacks the first or the latest message")
	}
	if strings.Contains(prompt, "note 000") {
		t.Errorf("instruction kept an early message of a thread over the cap")
	}
	if !strings.Contains(prompt, "at most 8000 characters") || !strings.Contains(prompt, "left out") {
		t.Errorf("instruction does not say the cap and what it left out:\n%s", prompt[:400])
	}
	if n := len(h.Slack.Calls("users.info")); n != 2 {
		t.Errorf("%d users.info calls for a thread by two people, want 2: names are remembered", n)
	}
	if len([]rune(prompt)) > 8000+1000 {
		t.Errorf("instruction is %d characters: over the cap", len([]rune(prompt)))
	}
	h.WaitPrivate(alice, "longer than the 8000 characters")
	// The replies went as context: none is sent again as a follow-up.
	h.Idle()
	h.StopAll()
	h.WantRequests(docsapitest.EndpointMessage, 0, "they went as context")
}

func TestListAndStatus(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	m := h.mention(alice, general, "", "Document the &lt;rate&gt; limits")
	_, jobID := h.rootIn(general, m.TS)

	cases := []struct {
		name, user, text string
		want, not        []string
	}{
		{"list", alice, "list", []string{"Your recent docs agent jobs", jobID, "Working", "|thread>", "Running in this channel", "&lt;rate&gt;"}, []string{"<rate>"}},
		{"list by someone else", bob, "list", []string{"You started no docs agent job", "Running in this channel", jobID, "by <@" + alice + ">"}, nil},
		{"status", bob, "status " + jobID, []string{jobID, "Instruction: Document the &lt;rate&gt; limits"}, nil},
		{"status of an unknown job", alice, "status job_nope", []string{"knows no job `job_nope`"}, nil},
	}
	for _, tc := range cases {
		before := len(h.Slack.ResponsePosts(""))
		h.Command(tc.user, general, agent.Command, tc.text)
		h.WaitFor(tc.name+": the private answer", func() bool { return len(h.Slack.ResponsePosts("")) > before })
		post := h.Slack.ResponsePosts("")[before]
		if post.ResponseType != "ephemeral" {
			t.Errorf("%s: answer %+v is not ephemeral", tc.name, post)
		}
		for _, w := range tc.want {
			if !strings.Contains(post.Text, w) {
				t.Errorf("%s: answer lacks %q:\n%s", tc.name, w, post.Text)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(post.Text, w) {
				t.Errorf("%s: answer has %q:\n%s", tc.name, w, post.Text)
			}
		}
	}

	// @docsbot list answers privately too, and starts nothing.
	h.mention(alice, general, "", "list")
	h.WaitFor("the list shown to alice only", func() bool {
		for _, e := range h.Slack.Ephemerals(alice) {
			if strings.Contains(e.Text, "Your recent docs agent jobs") && strings.Contains(e.Text, jobID) {
				return true
			}
		}
		return false
	})
	h.mention(bob, general, "", "status "+jobID)
	h.WaitPrivate(bob, "Instruction: Document the &lt;rate&gt; limits")
	h.StopAll()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
}
