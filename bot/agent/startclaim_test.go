package agent_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// mentionsAtOnce starts a bot whose docs API has the faults, and has alice
// and bob mention it at the same moment in a thread that is not a job's.
// It returns the thread and the mentions' texts by person, once Slack's
// events are acked.
func mentionsAtOnce(t *testing.T, faults ...docsapitest.Fault) (*harness, string, map[string]string) {
	t.Helper()
	h := newHarness(t, bottest.LongJobs())
	for _, f := range faults {
		h.API.AddFault(f)
	}
	h.StartBot(bottest.Config{})
	threadTS := h.userMessage(bob, general, "", "The webhooks page still shows the v1 payload")
	// Root messages wait for Slack, so that both mentions are read and
	// about to start before either start's message is in the thread.
	h.Slack.SetAPILatency("chat.postMessage", 500*time.Millisecond)
	// Thread reads wait too (Slack answers after the wait), so that the
	// start that wins reads both mentions, even if one of the two posts
	// below is slow to be scheduled.
	h.Slack.SetAPILatency("conversations.replies", time.Second)
	texts := map[string]string{alice: "update it to v2", bob: "and add the retry headers"}
	var wg sync.WaitGroup
	errs := make(chan error, len(texts))
	for user, text := range texts {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := h.Slack.Mention(ctx, slacktest.UserMessage{ChannelID: general, UserID: user, Text: text, ThreadTS: threadTS})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("mention: %v", err)
		}
	}
	return h, threadTS, texts
}

// Two people mention the bot at the same moment in a thread that is not a
// job's: one job is created, and the thread it read holds both mentions.
// The other mention is not sent again as a follow-up; its author is told
// privately that it went to the job as part of the thread.
func TestConcurrentMentionsInAThreadStartOneJob(t *testing.T) {
	t.Parallel()
	h, parent, texts := mentionsAtOnce(t)
	_, jobID := h.rootIn(general, parent)
	toldFolded := func(user string) bool {
		for _, e := range h.Slack.Ephemerals(user) {
			if strings.Contains(e.Text, "as part of the thread it read") {
				return true
			}
		}
		return false
	}
	// The note is sent once the other mention's work decided not to send
	// it: after it, no follow-up can come.
	h.WaitFor("the other mention's author told it went to the job", func() bool { return toldFolded(alice) || toldFolded(bob) })
	h.StopAll()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
	h.WantRequests(docsapitest.EndpointMessage, 0, "the job read both mentions")
	prompts := h.API.Prompts(jobID)
	if len(prompts) != 1 {
		t.Fatalf("prompts %q, want the start's only", prompts)
	}
	for user, text := range texts {
		if !strings.Contains(prompts[0], text) {
			t.Errorf("the job's prompt %q lacks %s's mention %q", prompts[0], user, text)
		}
	}
	told := 0
	for _, user := range []string{alice, bob} {
		if toldFolded(user) {
			told++
		}
		for _, e := range h.Slack.Ephemerals(user) {
			// The starter is told what of the thread went with the job.
			if !strings.Contains(e.Text, "as part of the thread it read") && !strings.HasPrefix(e.Text, "docsbot passed on") {
				t.Errorf("%s was told privately %q", user, e.Text)
			}
		}
	}
	if told != 1 {
		t.Errorf("%d people told their mention went to the job as context, want 1", told)
	}
}

// A mention posted after a start in the thread read the thread, while that
// start is still under way, waits for the job and is sent to it as a
// follow-up: the job did not read it.
func TestMentionAfterAStartReadTheThreadIsItsFollowUp(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	parent := h.userMessage(bob, general, "", "The webhooks page still shows the v1 payload")
	// The start's root message waits for Slack long enough for the later
	// mention to find the start under way.
	h.Slack.SetAPILatency("chat.postMessage", 5*time.Second)
	h.mention(alice, general, parent, "update it to v2")
	// Queued once it read the thread and claimed the start.
	h.WaitLogged("job start queued", 1)
	later := "and add the retry headers"
	h.mention(bob, general, parent, later)
	h.WaitLogged("another job start in this thread is under way; this post waits to be its follow-up", 1)
	h.Slack.SetAPILatency("chat.postMessage", 0)
	_, jobID := h.rootIn(general, parent)
	h.WaitFor("the later mention sent to the job as a follow-up", func() bool { return len(h.API.Prompts(jobID)) == 2 })
	h.StopAll()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
	h.WantRequests(docsapitest.EndpointMessage, 1, "")
	prompts := h.API.Prompts(jobID)
	if strings.Contains(prompts[0], later) {
		t.Errorf("the job's start %q holds the later mention, which was posted after it read the thread", prompts[0])
	}
	if prompts[1] != later {
		t.Errorf("follow-up %q, want %q", prompts[1], later)
	}
	// Alice is told that bob's message went with her job, as his words;
	// nothing else is told.
	for _, user := range []string{alice, bob} {
		for _, e := range h.Slack.Ephemerals(user) {
			if user == alice && strings.HasPrefix(e.Text, "docsbot passed on 1 message of this thread") && strings.Contains(e.Text, "by bob") {
				continue
			}
			t.Errorf("%s was told privately %q; want only the note of what went with the job", user, e.Text)
		}
	}
}

// When the start the other mention waits for fails, that mention creates
// nothing either: its author is told, plainly and privately.
func TestConcurrentMentionWhoseStartFailedIsTold(t *testing.T) {
	t.Parallel()
	h, _, _ := mentionsAtOnce(t, docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Status: 400, Times: 1})
	told := func() int {
		n := 0
		for _, user := range []string{alice, bob} {
			for _, e := range h.Slack.Ephemerals(user) {
				if strings.Contains(e.Text, "That start did not succeed, so your message was not sent to the agent") {
					n++
				}
			}
		}
		return n
	}
	h.WaitFor("the waiting mention's author told", func() bool { return told() == 1 })
	h.Settle()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
	if n := told(); n != 1 {
		t.Errorf("%d people told their mention was not sent, want 1", n)
	}
	h.WantRequests(docsapitest.EndpointMessage, 0, "there is no job")
}

// A mention under a message and the message shortcut's form on the same
// message, at the same moment: one job. Whichever start loses waits for it:
// the mention becomes its follow-up, or the form's author is told to reply
// in its thread.
func TestMentionAndShortcutOnOneMessageStartOneJob(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	msg := h.userMessage(bob, general, "", "The webhooks page still shows the v1 payload")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.Shortcut(slacktest.MessageShortcut{UserID: alice, CallbackID: agent.ShortcutSendToAgent, ChannelID: general, MessageTS: msg})
	v := h.modalOf(alice)
	h.Slack.SetAPILatency("chat.postMessage", 500*time.Millisecond)

	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := h.Slack.Mention(ctx, slacktest.UserMessage{ChannelID: general, UserID: bob, Text: "and add the retry headers", ThreadTS: msg}); err != nil {
			t.Errorf("mention: %v", err)
		}
	})
	wg.Go(func() {
		if _, err := h.Slack.SubmitView(ctx, slacktest.ViewSubmission{ViewID: v.ID,
			Values: map[string]map[string]string{"instruction": {"instruction": "update it to v2"}}}); err != nil {
			t.Errorf("submit: %v", err)
		}
	})
	wg.Wait()

	_, jobID := h.rootIn(general, msg)
	toldToReply := func() bool {
		for _, e := range h.Slack.Ephemerals(alice) {
			if strings.Contains(e.Text, "This thread already follows docs agent job") {
				return true
			}
		}
		return false
	}
	h.WaitFor("the losing start settled", func() bool { return len(h.API.Prompts(jobID)) == 2 || toldToReply() })
	h.StopAll()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
}
