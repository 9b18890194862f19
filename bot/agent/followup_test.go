package agent_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

func TestThreadMessagesThatAreNotFollowUps(t *testing.T) {
	t.Parallel()
	// Jobs stay active for a long time here, so nothing else moves.
	h, rootTS, jobID := runningJob(t, bottest.Config{}, "Write a glossary")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	cases := []struct {
		name  string
		event map[string]any
	}{
		{"another bot", map[string]any{"type": "message", "channel": general, "bot_id": "B0OTHER", "subtype": "bot_message", "text": "beep", "ts": "1800000000.000001", "thread_ts": rootTS}},
		{"the bot itself", map[string]any{"type": "message", "channel": general, "user": "U0BOT", "bot_id": "B0BOT", "text": "mine", "ts": "1800000000.000002", "thread_ts": rootTS}},
		{"an edit", map[string]any{"type": "message", "channel": general, "subtype": "message_changed", "ts": "1800000000.000003",
			"message": map[string]any{"type": "message", "user": alice, "text": "edited", "ts": "1800000000.000004", "thread_ts": rootTS}}},
		{"a deletion", map[string]any{"type": "message", "channel": general, "subtype": "message_deleted", "ts": "1800000000.000005", "deleted_ts": "1800000000.000004"}},
		{"a join", map[string]any{"type": "message", "channel": general, "subtype": "channel_join", "user": "U0BOB", "text": "joined", "ts": "1800000000.000006"}},
		{"top level", map[string]any{"type": "message", "channel": general, "user": alice, "text": "hello", "ts": "1800000000.000007"}},
		{"a thread that is not a job", map[string]any{"type": "message", "channel": general, "user": alice, "text": "hi", "ts": "1800000000.000009", "thread_ts": "1700000000.000001"}},
	}
	for _, tc := range cases {
		if _, err := h.Slack.DeliverEvent(ctx, tc.event); err != nil {
			t.Fatalf("%s: deliver: %v", tc.name, err)
		}
	}
	// A real reply afterwards is processed; when it is, everything before it
	// has been handled too (the bot handles events as they arrive).
	replyTS, _ := h.Reply("U0BOB", general, rootTS, "Add 'lease'")
	h.waitReaction("the real reply's reaction", replyTS)
	h.StopAll() // events already acked are handled before Run returns
	if p := h.API.Prompts(jobID); len(p) != 2 {
		t.Errorf("API prompts %q: only the person's reply may become a follow-up", p)
	}
	h.WantRequests(docsapitest.EndpointMessage, 1, "")
}

func TestRedeliveredReplyIsSentOnce(t *testing.T) {
	t.Parallel()
	h, rootTS, jobID := runningJob(t, bottest.Config{}, "Explain rate limits")
	replyTS, eventID := h.Reply(alice, general, rootTS, "Mention Retry-After")
	h.waitReaction("the reaction", replyTS)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	envelope, ok := h.Slack.EnvelopeOfEvent(eventID)
	if !ok {
		t.Fatalf("no envelope carried event %s", eventID)
	}
	for range 3 {
		if err := h.Slack.Redeliver(ctx, envelope); err != nil {
			t.Fatalf("redeliver: %v", err)
		}
	}
	h.WaitLogged(bot.RedeliveredPost, 3)
	h.StopAll()
	if p := h.API.Prompts(jobID); len(p) != 2 {
		t.Errorf("API prompts %q after 3 redeliveries, want the reply once", p)
	}
}

// TestReplyOutsideJobThreadsIsNotKept: every message in a thread of a
// channel the bot is in is recorded before its ack, text and all; once the
// work finds the thread is not a job's, no key in Redis holds that text,
// while the delivery's key still drops a redelivery. A reply in the job's
// thread still reaches the agent.
func TestReplyOutsideJobThreadsIsNotKept(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	h := longJobsBot(t, bottest.Config{Config: app.Config{Bot: bot.Config{Metrics: bot.NewMetrics(reg)}}})
	rootTS, jobID := h.startedJob("Write a glossary")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const private = "salary-review-notes-4f2a9c"
	eventID, err := h.Slack.DeliverEvent(ctx, map[string]any{"type": "message", "channel": general, "user": "U0BOB",
		"text": "between us: " + private, "ts": "1800000000.000100", "thread_ts": "1700000000.000001"})
	if err != nil {
		t.Fatalf("deliver: %v", err)
	}
	h.Idle() // the reply's work is done
	if keys := redistest.KeysHolding(t, h.RedisURL, h.Prefix, private); len(keys) > 0 {
		t.Errorf("Redis keeps the text of a reply in a thread that is not a job's, in %q", keys)
	}

	envelope, ok := h.Slack.EnvelopeOfEvent(eventID)
	if !ok {
		t.Fatalf("no envelope carried event %s", eventID)
	}
	if err := h.Slack.Redeliver(ctx, envelope); err != nil {
		t.Fatalf("redeliver: %v", err)
	}
	h.WaitLogged(bot.RedeliveredPost, 1)
	h.Idle()
	if n := repliesDone(t, reg); n != 1 {
		t.Errorf("%v replies done after the redelivery, want 1", n)
	}
	if keys := redistest.KeysHolding(t, h.RedisURL, h.Prefix, private); len(keys) > 0 {
		t.Errorf("after the redelivery, Redis keeps the reply's text in %q", keys)
	}

	replyTS, _ := h.Reply(alice, general, rootTS, "Add 'lease'")
	h.waitReaction("the follow-up's reaction", replyTS)
	if p := h.API.Prompts(jobID); len(p) != 2 || p[1] != "Add 'lease'" {
		t.Errorf("API prompts %q, want the follow-up after the first", p)
	}
	h.Idle() // the reaction shows before the follow-up's work is counted done
	if n := repliesDone(t, reg); n != 2 {
		t.Errorf("%v replies done, want 2: the first one once, and the follow-up", n)
	}
}

// repliesDone is docsbot_inbox_work_total{kind="post",outcome="done"}: the posts done.
func repliesDone(t *testing.T, reg *prometheus.Registry) float64 {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != "docsbot_inbox_work_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["kind"] == bot.WorkPost && labels["outcome"] == "done" {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

func TestRedeliveredSlashCommandStartsOneJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	envelope, _, err := h.Slack.SendSlashCommand(ctx, slacktest.SlashCommand{Command: agent.Command, Text: "One job only", UserID: alice, ChannelID: general})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := h.Slack.Redeliver(ctx, envelope); err != nil {
			t.Fatalf("redeliver: %v", err)
		}
	}
	h.WaitFor("a root message", func() bool { return len(h.Roots(general)) >= 1 })
	h.WaitLogged("slash command delivered again; already handled", 2)
	h.StopAll()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
	if n := len(h.Roots(general)); n != 1 {
		t.Errorf("%d root messages, want 1", n)
	}
}

func TestFollowUpRefusedByTheAPI(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		fault docsapitest.Fault
		want  []string
		not   string
	}{
		{"rate limited", docsapitest.Fault{Endpoint: docsapitest.EndpointMessage, Status: 429, RetryAfter: 10 * time.Minute, Times: 5},
			[]string{"not sent to the agent", "rate limit"}, "cannot tell"},
		// A 500 may have reached the agent: never "not sent".
		{"server error", docsapitest.Fault{Endpoint: docsapitest.EndpointMessage, Status: 500, Times: 5},
			[]string{"cannot tell whether this reply reached the agent", "the docs API answered 500 Internal Server Error", "send it again"}, "not sent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, rootTS, _ := runningJob(t, bottest.Config{}, "Document webhooks")
			h.API.AddFault(tc.fault)
			h.Reply(alice, general, rootTS, "More examples please")
			h.WaitFor("a private note in the thread", func() bool { return len(h.Slack.Ephemerals(alice)) == 1 })
			note := h.Slack.Ephemerals(alice)[0]
			for _, w := range tc.want {
				if !strings.Contains(note.Text, w) {
					t.Errorf("note %q lacks %q", note.Text, w)
				}
			}
			if strings.Contains(note.Text, tc.not) {
				t.Errorf("note %q says %q", note.Text, tc.not)
			}
			if note.ThreadTS != rootTS {
				t.Errorf("note posted in thread %q, want %q", note.ThreadTS, rootTS)
			}
		})
	}
}

// TestRetryTakenBeforeACrashIsQueued plays a replica that took the retry
// offered in a thread on the person's "retry" and died (or lost Redis)
// before queuing the start: the next attempt of the reply queues it from
// the work's mark, and the job starts once, instead of the person hearing
// that it is being started again while nothing is.
func TestRetryTakenBeforeACrashIsQueued(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	st := h.OpenStore()
	ctx := context.Background()

	rootTS := h.PostNoAck(alice, general, "", "placeholder for the root message of a start whose outcome was unknown")
	thread := store.Thread{Team: "T0TEST", Channel: general, TS: rootTS}
	start, _ := json.Marshal(map[string]string{"team": "T0TEST", "channel": general, "user": alice, "prompt": "Document the webhooks", "root": rootTS})
	if err := st.RetryOffers().OfferRetry(ctx, thread, start, time.Hour); err != nil {
		t.Fatalf("OfferRetry: %v", err)
	}
	// The dead replica's reply work: the offer taken and marked.
	replyTS := h.PostNoAck(alice, general, rootTS, "retry")
	offer, err := st.RetryOffers().TakeRetry(ctx, thread)
	if err != nil {
		t.Fatalf("TakeRetry: %v", err)
	}
	h.DeadReplicaWork("msg:T0TEST:"+general+":"+replyTS, "agent.reply",
		map[string]string{"team": "T0TEST", "channel": general, "user": alice, "ts": replyTS, "thread_ts": rootTS, "text": "retry"},
		map[string]string{"retry": string(offer)})

	h.StartBot(bottest.Config{})
	h.WaitFor("the job to start on retry", func() bool { return h.API.Count(docsapitest.EndpointCreate) == 1 })
	h.Settle()
	h.WantRequests(docsapitest.EndpointCreate, 1, "")
	for _, m := range h.Privates(alice, "already being started again") {
		t.Errorf("private note %q: the start was queued by this very reply", m.Text)
	}
}

// TestReplyWithFiles: a thread reply with files attached (subtype
// file_share) goes on as a follow-up by its text, and the person is told
// privately that the files do not; one with files and no text sends nothing
// and says so.
func TestReplyWithFiles(t *testing.T) {
	t.Parallel()
	h, rootTS, jobID := runningJob(t, bottest.Config{}, "Document the export format")
	const logLine = "export failed: column 7 has no header"
	withLog := "Also cover this error\n\n"
	cases := []struct {
		name, text string
		attach     []slacktest.Attachment
		wantNote   string
		wantSent   []string // the API's prompts afterwards (a prefix of the last one)
	}{
		{"text and an empty file", "Use this sample export", nil, "|export.csv> (empty)", []string{"Document the export format", "Use this sample export"}},
		{"a file alone", "", nil, "nothing was sent", []string{"Document the export format", "Use this sample export"}},
		{"text and a log file", "Also cover this error", []slacktest.Attachment{{Name: "export.log", Mimetype: "text/plain", Content: []byte(logLine)}},
			"The agent gets the text of export.log", []string{"Document the export format", "Use this sample export", withLog}},
	}
	for i, tc := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		msg := slacktest.UserMessage{ChannelID: general, UserID: alice, ThreadTS: rootTS, Text: tc.text, Files: []string{"export.csv"}}
		if tc.attach != nil {
			msg.Files, msg.Attach = nil, tc.attach
		}
		_, _, err := h.Slack.PostUserMessage(ctx, msg)
		cancel()
		if err != nil {
			t.Fatalf("%s: post: %v", tc.name, err)
		}
		h.WaitFor(tc.name+": a private note", func() bool { return len(h.Slack.Ephemerals(alice)) == i+1 })
		note := h.Slack.Ephemerals(alice)[i]
		if !strings.Contains(note.Text, tc.wantNote) || note.ThreadTS != rootTS {
			t.Errorf("%s: note %q in thread %q, want %q in %q", tc.name, note.Text, note.ThreadTS, tc.wantNote, rootTS)
		}
		if tc.attach != nil {
			h.WaitFor(tc.name+": the follow-up sent", func() bool { return len(h.API.Prompts(jobID)) == len(tc.wantSent) })
		}
		p := h.API.Prompts(jobID)
		last := len(tc.wantSent) - 1
		if len(p) != len(tc.wantSent) || !slices.Equal(p[:last], tc.wantSent[:last]) || !strings.HasPrefix(p[last], tc.wantSent[last]) {
			t.Errorf("%s: API prompts %q, want %q", tc.name, p, tc.wantSent)
		}
		if tc.attach != nil && !strings.Contains(p[len(p)-1], logLine) {
			t.Errorf("%s: the follow-up %q lacks the log's text", tc.name, p[len(p)-1])
		}
	}
	h.StopAll()
	h.WantRequests(docsapitest.EndpointMessage, 2, "")
}

// TestFollowUpAfterCrashDuringSend plays a replica that died while sending a
// thread reply to the agent: the API took the reply, the replica never
// recorded it. The next replica must not send it again, and, since the agent
// may be acting on it, it must follow the job again so that the job's next
// result is posted in the thread, besides telling the person privately that
// it cannot tell whether the reply arrived.
func TestFollowUpAfterCrashDuringSend(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	first := h.StartBot(bottest.Config{})
	rootTS, jobID := h.startedJob("Document the retry settings")
	h.WaitFor("the first result", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	first.Stop()

	// The dead replica: it took the reply from the inbox, marked the send
	// and sent it; the API acted on it; then the replica died.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	const text = "Also mention Retry-After"
	// Posted while no replica runs: Slack delivers it when one connects,
	// and the inbox drops that delivery as the dead replica's work.
	replyTS := h.PostNoAck(alice, general, rootTS, text)
	h.DeadReplicaWork("msg:T0TEST:"+general+":"+replyTS, "agent.reply",
		map[string]string{"team": "T0TEST", "channel": general, "user": alice, "ts": replyTS, "thread_ts": rootTS, "text": text},
		map[string]string{"sending": "1"})
	client := h.apiClient()
	if _, err := client.SendMessage(ctx, jobID, text); err != nil {
		t.Fatalf("the dead replica's send: %v", err)
	}

	h.StartBot(bottest.Config{})
	h.WaitFor("the follow-up's result", func() bool { return len(h.Finishes(general, rootTS)) == 2 })
	h.Settle()
	h.WantRequests(docsapitest.EndpointMessage, 1, "the dead replica's only")
	if n := len(h.Finishes(general, rootTS)); n != 2 {
		t.Errorf("%d results in the thread, want 2", n)
	}
	var told bool
	for _, m := range h.Slack.Ephemerals(alice) {
		told = told || (m.ThreadTS == rootTS && strings.Contains(m.Text, "cannot tell whether this reply reached the agent"))
	}
	if !told {
		t.Errorf("private notes %+v: the person is not told that docsbot cannot tell whether the reply arrived", h.Slack.Ephemerals(alice))
	}
}

// TestReplyNotRecordedOnSlacksLastTryIsAnswered has Redis down while Slack
// delivers a thread reply and all its retries: the bot cannot record it, so
// it does not acknowledge it until Slack's last try, and then tells the
// person privately that the reply was not taken. It does so also when Slack
// cannot show for now whose thread the reply is in (the thread may be the
// bot's), but not when Slack refuses for good: such a thread may be anyone's.
func TestReplyNotRecordedOnSlacksLastTryIsAnswered(t *testing.T) {
	t.Parallel()
	const note = "could not take this message"
	for _, tc := range []struct {
		name string
		// threadError, if set, is how conversations.replies fails: the bot
		// cannot tell that the thread is a job's.
		threadError string
		told        bool
	}{
		{name: "in a job's thread", told: true},
		{name: "in a thread Slack cannot show for now", threadError: "internal_error", told: true},
		{name: "in a thread Slack refuses to show", threadError: "channel_not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, err := redistest.Start()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = srv.Close() })
			h := newHarness(t, bottest.LongJobs())
			h.RedisURL = srv.URL
			h.StartBot(bottest.Config{})
			rootTS, _ := h.startedJob("Document the webhooks")
			if tc.threadError != "" {
				h.Slack.FailNext("conversations.replies", tc.threadError, 1000)
			}
			if tc.told {
				h.ReplyWithRedisDown(srv, alice, general, rootTS, "More examples please", note)
			} else {
				if err := srv.Kill(); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
				_, eventID, err := h.Slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: general, UserID: alice, Text: "More examples please", ThreadTS: rootTS})
				cancel()
				if eventID == "" {
					t.Fatalf("post: no event delivered (%v)", err)
				}
				// The bot acknowledges Slack's last try after deciding
				// whether to tell the person: after the ack, no note comes.
				h.WaitFor("Slack's last try acknowledged", func() bool {
					fate, ok := h.Slack.EventFate(eventID)
					return ok && fate.Acked
				})
				h.WaitLogged("post not recorded on Slack's last try; not taken", 1)
				if err := srv.Start(); err != nil {
					t.Fatal(err)
				}
				h.StopAll()
				for _, m := range h.Slack.Ephemerals(alice) {
					t.Errorf("alice was told privately %q in a thread Slack refuses to show", m.Text)
				}
			}
			if n := h.Slack.Redelivered(); n < bot.SlackEventRetries {
				t.Errorf("%d redeliveries: the reply was answered before Slack's last try", n)
			}
			h.WantRequests(docsapitest.EndpointMessage, 0, "")
		})
	}
}
