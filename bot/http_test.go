package bot_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store/redistest"
)

// signingSecret is the Slack app's signing secret in these tests.
const signingSecret = "3f9c1e0b7a6d4c2e8f1a5b9d0c7e6f42"

// roundRobin is a load balancer in front of the replicas: a reverse proxy
// (net/http/httputil) that sends each request to the next replica in turn.
type roundRobin struct {
	mu       sync.Mutex
	backends []*url.URL
	served   []int
	next     int
}

// add puts a replica behind the balancer.
func (p *roundRobin) add(t *testing.T, raw string) {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.backends = append(p.backends, u)
	p.served = append(p.served, 0)
}

func (p *roundRobin) pick() *url.URL {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := p.next % len(p.backends)
	p.next++
	p.served[i]++
	return p.backends[i]
}

// counts is how many requests each replica was sent.
func (p *roundRobin) counts() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int(nil), p.served...)
}

func (p *roundRobin) handler() http.Handler {
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(p.pick())
			r.Out.Host = r.In.Host
		},
		// A replica that is gone answers 502, as a load balancer does.
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, _ error) { w.WriteHeader(http.StatusBadGateway) },
	}
}

// httpWorld is a world whose fake Slack delivers over signed HTTP to a
// round-robin balancer, behind which the test puts replicas started with
// httpBot. Slack retries an unanswered event after 0, 200ms, 500ms, 1s, 2s
// and 4s.
func httpWorld(t *testing.T, apiOpts ...docsapitest.Option) (*bottest.Harness, *roundRobin) {
	t.Helper()
	lb := &roundRobin{}
	front := httptest.NewServer(lb.handler())
	t.Cleanup(front.Close)
	h := bottest.NewWith(t, redisURL, []slacktest.Option{
		slacktest.WithHTTPDelivery(front.URL, signingSecret),
		// Slack waits 3 s for an answer; the fake waits 10: the bot's own
		// bound (httpAckWait, 2.5 s) is what these tests turn on, and a
		// loaded test machine can stall a request past 3 s, which Slack
		// would show the person as a failure and not send again.
		slacktest.WithHTTPRetries(10*time.Second, 0, 200*time.Millisecond, 500*time.Millisecond, time.Second, 2*time.Second, 4*time.Second),
	}, apiOpts...)
	return h, lb
}

// httpBot starts a replica in HTTP mode behind the balancer.
func httpBot(h *bottest.Harness, lb *roundRobin) *bottest.Running {
	h.T.Helper()
	r := h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{Mode: bot.ModeHTTP, SigningSecret: signingSecret}}})
	lb.add(h.T, r.URL)
	return r
}

// TestHTTPModeRefusesWhatSlackDidNotSign sends requests that are not
// Slack's, or too large, and checks that each is refused before any handler
// sees it, with nothing logged that holds the secret; signed requests that
// are malformed are refused too, and those with nothing to do acknowledged.
func TestHTTPModeRefusesWhatSlackDidNotSign(t *testing.T) {
	t.Parallel()
	h, lb := httpWorld(t)
	httpBot(h, lb)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.Slack.VerifyURL(ctx); err != nil {
		t.Fatalf("url_verification: %v", err)
	}

	command := []byte(url.Values{"command": {agent.Command}, "text": {"Rewrite the quickstart"}, "user_id": {alice},
		"channel_id": {general}, "team_id": {"T0TEAM"}, "trigger_id": {"1.2.forged"}}.Encode())
	event, _ := json.Marshal(map[string]any{"type": "event_callback", "event_id": "Ev0FORGED", "team_id": "T0TEAM",
		"event": map[string]any{"type": "message", "channel": general, "user": alice, "text": "hi", "ts": "1800000000.000001", "thread_ts": "1700000000.000001"}})
	send := func(path string, body []byte, mod func(*slacktest.HTTPRequest)) func() (slacktest.HTTPAnswer, error) {
		return func() (slacktest.HTTPAnswer, error) {
			req := slacktest.HTTPRequest{Path: path, Body: body}
			mod(&req)
			return h.Slack.SendSigned(ctx, req)
		}
	}
	cases := []struct {
		name string
		send func() (slacktest.HTTPAnswer, error)
		want int
	}{
		{"command signed with another secret", func() (slacktest.HTTPAnswer, error) {
			return h.Slack.SendBadSignature(ctx, slacktest.PathCommands, command)
		}, http.StatusUnauthorized},
		{"event signed with another secret", func() (slacktest.HTTPAnswer, error) {
			return h.Slack.SendBadSignature(ctx, slacktest.PathEvents, event)
		}, http.StatusUnauthorized},
		{"interaction signed with another secret", func() (slacktest.HTTPAnswer, error) {
			return h.Slack.SendBadSignature(ctx, slacktest.PathInteractive, []byte("payload=%7B%7D"))
		}, http.StatusUnauthorized},
		{"command stale by 6 minutes", func() (slacktest.HTTPAnswer, error) {
			return h.Slack.SendStale(ctx, slacktest.PathCommands, command, 6*time.Minute)
		}, http.StatusUnauthorized},
		{"timestamp 6 minutes ahead", send(slacktest.PathEvents, event, func(r *slacktest.HTTPRequest) { r.Timestamp = time.Now().Add(6 * time.Minute) }), http.StatusUnauthorized},
		{"body of 2 MiB", func() (slacktest.HTTPAnswer, error) {
			return h.Slack.SendOversized(ctx, slacktest.PathEvents, 2<<20)
		}, http.StatusRequestEntityTooLarge},
		{"signed but not a command", send(slacktest.PathCommands, []byte("text=hello"), func(*slacktest.HTTPRequest) {}), http.StatusBadRequest},
		{"signed but not JSON", send(slacktest.PathEvents, []byte("{"), func(*slacktest.HTTPRequest) {}), http.StatusBadRequest},
		// Signed and well formed, but nothing to do: acknowledged.
		{"app_rate_limited", send(slacktest.PathEvents, []byte(`{"type":"app_rate_limited","team_id":"T0TEAM","minute_rate_limited":1518467820,"api_app_id":"A0APP"}`),
			func(*slacktest.HTTPRequest) {}), http.StatusOK},
		{"an event type slack-go does not know", send(slacktest.PathEvents, []byte(`{"type":"event_callback","event_id":"Ev0NEW","event":{"type":"brand_new_event"}}`),
			func(*slacktest.HTTPRequest) {}), http.StatusOK},
	}
	for _, tc := range cases {
		ans, err := tc.send()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if ans.Status != tc.want {
			t.Errorf("%s: answered %d, want %d", tc.name, ans.Status, tc.want)
		}
	}

	// A request without Slack's headers at all.
	resp, err := http.Post(lb.backends[0].String()+bot.PathCommands, "application/x-www-form-urlencoded", strings.NewReader(string(command)))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unsigned request answered %d, want 401", resp.StatusCode)
	}

	// The same command, signed, is taken: the refusals were the signature's.
	ans, err := h.Slack.SendSigned(ctx, slacktest.HTTPRequest{Path: slacktest.PathCommands, Body: command})
	if err != nil || ans.Status != http.StatusOK {
		t.Fatalf("signed command: %d %v", ans.Status, err)
	}
	h.WaitFor("the signed command's job", func() bool { return h.API.Count(docsapitest.EndpointCreate) == 1 })
	h.Settle()
	if n := h.API.Count(docsapitest.EndpointCreate); n != 1 {
		t.Errorf("%d jobs created, want only the signed command's", n)
	}
	logs := h.Logs.String()
	if strings.Contains(logs, signingSecret) {
		t.Errorf("the logs hold the signing secret:\n%s", logs)
	}
	if !strings.Contains(logs, "app_rate_limited") {
		t.Errorf("Slack's app_rate_limited notice is not logged")
	}
	if n := strings.Count(logs, `msg="slack request refused"`); n != 6 {
		t.Errorf("%d refusals logged, want 6 (bad signatures, stale, ahead, unsigned):\n%s", n, logs)
	}
}

// TestHTTPModeAnswersInTheResponse checks that an ack's payload is the HTTP
// answer: help and refusals reach the person in the response itself.
func TestHTTPModeAnswersInTheResponse(t *testing.T) {
	t.Parallel()
	h, lb := httpWorld(t)
	r := h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{Mode: bot.ModeHTTP, SigningSecret: signingSecret, AllowedChannels: []string{"C0ELSEWHERE"}}}})
	lb.add(t, r.URL)
	for _, tc := range []struct{ text, want string }{
		{"help", agent.Command},
		{"Rewrite the quickstart", "not enabled in this channel"},
	} {
		ack := h.Command(alice, general, agent.Command, tc.text)
		if !strings.Contains(privateText(ack.Payload), tc.want) {
			t.Errorf("answer to %q = %s, want a private reply with %q", tc.text, ack.Payload, tc.want)
		}
	}
	h.Settle()
	if n := len(h.API.Requests()); n != 0 {
		t.Errorf("%d API requests, want none", n)
	}
}

// TestHTTPModeRetryIsHandledOnce sends a thread reply's event again with
// X-Slack-Retry-Num, as Slack does when it believes a delivery failed: the
// inbox drops the retries by the event id, as over Socket Mode.
func TestHTTPModeRetryIsHandledOnce(t *testing.T) {
	t.Parallel()
	h, lb := httpWorld(t, docsapitest.WithLifecycle(func(string) docsapitest.Lifecycle {
		return docsapitest.Lifecycle{ActivePolls: 1 << 30, Outcome: docsapitest.OutcomePR}
	}))
	httpBot(h, lb)
	rootTS, jobID := startedJob(h, "Explain rate limits")
	replyTS, eventID := h.Reply(alice, general, rootTS, "Mention Retry-After")
	h.WaitFor("the reaction", func() bool {
		m, _ := h.Slack.Message(general, replyTS)
		return len(m.Reactions) == 1
	})
	envelope, ok := h.Slack.EnvelopeOfEvent(eventID)
	if !ok {
		t.Fatalf("no envelope carried event %s", eventID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for range 2 {
		if err := h.Slack.Redeliver(ctx, envelope); err != nil {
			t.Fatalf("redeliver: %v", err)
		}
	}
	h.WaitLogged(bot.RedeliveredPost, 2)
	h.StopAll()
	if p := h.API.Prompts(jobID); len(p) != 2 {
		t.Errorf("API prompts %q after 2 retries, want the reply once", p)
	}
	var retries []int
	for _, d := range h.Slack.HTTPDeliveries() {
		if d.EnvelopeID == envelope {
			retries = append(retries, d.RetryNum)
			if d.Status != http.StatusOK {
				t.Errorf("delivery %d answered %d, want 200", d.RetryNum, d.Status)
			}
		}
	}
	if len(retries) != 3 || retries[1] != 1 || retries[2] != 2 {
		t.Errorf("deliveries of the reply carried X-Slack-Retry-Num %v, want [0 1 2]", retries)
	}
}

// TestHTTPModeLastRetryNotRecordedIsAnswered has Redis down while Slack
// delivers a thread reply over HTTP and retries it: each delivery is
// answered 503 until the last retry (X-Slack-Retry-Num 3), when the person
// is told privately that the reply was not taken.
func TestHTTPModeLastRetryNotRecordedIsAnswered(t *testing.T) {
	t.Parallel()
	srv, err := redistest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	h, lb := httpWorld(t, docsapitest.WithLifecycle(func(string) docsapitest.Lifecycle {
		return docsapitest.Lifecycle{ActivePolls: 1 << 30, Outcome: docsapitest.OutcomePR}
	}))
	h.RedisURL = srv.URL
	httpBot(h, lb)
	rootTS, _ := startedJob(h, "Document the webhooks")
	h.ReplyWithRedisDown(srv, alice, general, rootTS, "More examples please", "could not take this message")
	var retries []int
	for _, d := range h.Slack.HTTPDeliveries() {
		if d.RetryNum > 0 {
			retries = append(retries, d.RetryNum)
		}
	}
	if !slices.Contains(retries, bot.SlackEventRetries) {
		t.Errorf("retries %v: the reply was answered before Slack's last try", retries)
	}
}

// TestHTTPModeTwoReplicasBehindABalancer runs the whole agent flow, the
// agent's other entry points (an @mention, the message shortcut and its
// form) and /docs-visitors with its Show trend button through a round-robin balancer in front of two
// replicas: every request may land on either, and everything happens once.
func TestHTTPModeTwoReplicasBehindABalancer(t *testing.T) {
	t.Parallel()
	// The job stays active until the follow-up asks to finish.
	h, lb := httpWorld(t, docsapitest.WithLifecycle(func(prompt string) docsapitest.Lifecycle {
		if strings.Contains(prompt, "finish") {
			return docsapitest.Lifecycle{ActivePolls: 2, Outcome: docsapitest.OutcomePR}
		}
		return docsapitest.Lifecycle{ActivePolls: 1 << 30, Outcome: docsapitest.OutcomePR}
	}))
	httpBot(h, lb)
	httpBot(h, lb)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.Slack.VerifyURL(ctx); err != nil {
		t.Fatalf("url_verification: %v", err)
	}

	rootTS, jobID := startedJob(h, "Write a glossary")
	replyTS, _ := h.Reply(alice, general, rootTS, "Add 'lease', then finish")
	h.WaitFor("the follow-up's reaction", func() bool {
		m, _ := h.Slack.Message(general, replyTS)
		return len(m.Reactions) == 1
	})
	h.WaitFor("the result in the thread", func() bool { return len(h.Finishes(general, rootTS)) == 1 })

	// An @mention (an app_mention and a message event for the same post,
	// which may land on different replicas) starts one job.
	if _, err := h.Slack.Mention(ctx, slacktest.UserMessage{ChannelID: general, UserID: alice, Text: "Document webhooks, then finish"}); err != nil {
		t.Fatal(err)
	}
	h.WaitFor("the mention's job", func() bool { return h.API.Count(docsapitest.EndpointCreate) == 2 })

	// The message shortcut on a person's message opens the job form; its
	// submission starts a job.
	msgTS, _ := h.Reply(alice, general, "", "The webhooks page does not say how retries work")
	h.Shortcut(slacktest.MessageShortcut{UserID: alice, CallbackID: agent.ShortcutSendToAgent, ChannelID: general, MessageTS: msgTS})
	var form slacktest.View
	h.WaitFor("the job form", func() bool {
		for _, v := range h.Slack.OpenModals(alice) {
			if v.CallbackID == agent.ViewJob {
				form = v
				return true
			}
		}
		return false
	})
	if _, err := h.Slack.SubmitView(ctx, slacktest.ViewSubmission{ViewID: form.ID,
		Values: map[string]map[string]string{"instruction": {"instruction": "Add a webhook example, then finish"}}}); err != nil {
		t.Fatal(err)
	}
	h.WaitFor("the form's job", func() bool { return h.API.Count(docsapitest.EndpointCreate) == 3 })

	if ack := h.Command(alice, general, visitors.Command, "7d"); len(ack.Payload) > 0 && string(ack.Payload) != "null" {
		t.Errorf("/docs-visitors answered %s, want an empty ack", ack.Payload)
	}
	var summaryTS string
	h.WaitFor("the visitors summary with its Show trend button", func() bool {
		for _, m := range h.Roots(general) {
			if strings.Contains(string(m.Blocks), visitors.ActionShowTrend) {
				summaryTS = m.TS
				return true
			}
		}
		return false
	})
	// The summary's button, pressed through the balancer: the chart (of 7
	// days, Slack's own) goes in the summary's thread.
	h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: summaryTS, ActionID: visitors.ActionShowTrend})
	h.WaitFor("the trend chart in the summary's thread", func() bool {
		return slices.ContainsFunc(h.ChartPosts(general), func(m slacktest.Message) bool { return m.ThreadTS == summaryTS && m.TS != summaryTS })
	})
	// What Slack sent while the replicas ran; stopping replicas answer what
	// comes later (the echo of the last post) with 503, as they should.
	delivered := h.Slack.HTTPDeliveries()
	h.Settle()

	if p := h.API.Prompts(jobID); len(p) != 2 {
		t.Errorf("API prompts %q, want the instruction and the follow-up once each", p)
	}
	if n := h.API.Count(docsapitest.EndpointCreate); n != 3 {
		t.Errorf("%d jobs created, want 3: the command's, the mention's and the form's", n)
	}
	if n := len(h.Finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results posted, want 1", n)
	}
	jobRoots := 0
	for _, m := range h.Roots(general) {
		if strings.Contains(bottest.Rendered(m), "job `") {
			jobRoots++
		}
	}
	if jobRoots != 1 {
		t.Errorf("%d root messages of a job in the channel, want the command's", jobRoots)
	}
	for i, n := range lb.counts() {
		if n == 0 {
			t.Errorf("replica %d served no request: the balancer did not spread them (%v)", i, lb.counts())
		}
	}
	for _, d := range delivered {
		if d.Status != http.StatusOK {
			t.Errorf("delivery %s to %s answered %d, want 200", d.EnvelopeID, d.Path, d.Status)
		}
	}
}

// startedJob runs /docs-agent and waits until the job is linked (its id shows
// in the root message). It returns the root message's ts and the job id.
func startedJob(h *bottest.Harness, prompt string) (rootTS, jobID string) {
	h.T.Helper()
	before := len(h.Roots(general))
	h.Command(alice, general, agent.Command, prompt)
	h.WaitFor("a linked job", func() bool {
		r := h.Roots(general)
		return len(r) == before+1 && strings.Contains(bottest.Rendered(r[before]), "job `")
	})
	jobs := h.API.Jobs()
	return h.Roots(general)[before].TS, jobs[len(jobs)-1].ID
}

// TestHTTPModeRoutesInteractions registers a global and message shortcut, a
// modal's submission and a button, and uses each through signed HTTP: each
// reaches its handler as over Socket Mode, and a view_submission's
// response_action travels in the HTTP answer.
func TestHTTPModeRoutesInteractions(t *testing.T) {
	t.Parallel()
	h, lb := httpWorld(t)
	var (
		mu      sync.Mutex
		reached []string
	)
	note := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		reached = append(reached, s)
	}
	seen := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(reached)
	}
	modal := slack.ModalViewRequest{
		Type: slack.VTModal, CallbackID: "ask_docs_modal",
		Title:  slack.NewTextBlockObject(slack.PlainTextType, "Ask the docs", false, false),
		Submit: slack.NewTextBlockObject(slack.PlainTextType, "Ask", false, false),
		Blocks: slack.Blocks{BlockSet: []slack.Block{slack.NewInputBlock("question",
			slack.NewTextBlockObject(slack.PlainTextType, "Question", false, false), nil,
			slack.NewPlainTextInputBlockElement(nil, "text"))}},
	}
	r := h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{Mode: bot.ModeHTTP, SigningSecret: signingSecret}, Register: func(b *bot.Bot) {
		b.Router().HandleShortcut("ask_docs", func(ctx context.Context, req *bot.InteractionRequest) {
			note("shortcut " + string(req.Interaction.Type)) // before the ack: the test goes on once Slack has it
			req.Ack(nil)
			if _, err := b.SlackIn(ctx).OpenViewContext(ctx, req.Interaction.TriggerID, modal); err != nil {
				note("views.open failed: " + err.Error())
			}
		})
		b.Router().HandleViewSubmission("ask_docs_modal", func(_ context.Context, req *bot.InteractionRequest) {
			q := req.Interaction.View.State.Values["question"]["text"].Value
			if strings.TrimSpace(q) == "" {
				note("submission refused")
				req.Ack(slack.NewErrorsViewSubmissionResponse(map[string]string{"question": "Say what to ask"}))
				return
			}
			note("submitted " + q)
			req.Ack(nil)
		})
		b.Router().HandleBlockAction("approve", func(_ context.Context, req *bot.InteractionRequest) {
			note("approve " + req.Interaction.ActionCallback.BlockActions[0].Value)
			req.Ack(nil)
		})
	}}})
	lb.add(t, r.URL)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a bound, not a wait
	defer cancel()

	if _, err := h.Slack.Shortcut(ctx, slacktest.Shortcut{UserID: alice, CallbackID: "ask_docs"}); err != nil {
		t.Fatal(err)
	}
	h.WaitFor("the modal", func() bool { return len(h.Slack.OpenModals(alice)) == 1 })
	view := h.Slack.OpenModals(alice)[0]
	if _, err := h.Slack.SubmitView(ctx, slacktest.ViewSubmission{ViewID: view.ID, Values: map[string]map[string]string{"question": {"text": " "}}}); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.Slack.ViewByID(view.ID); !v.Open || v.Errors["question"] != "Say what to ask" {
		t.Errorf("after an empty submission the modal is open=%v with errors %v, want it open with the error", v.Open, v.Errors)
	}
	if _, err := h.Slack.SubmitView(ctx, slacktest.ViewSubmission{ViewID: view.ID, Values: map[string]map[string]string{"question": {"text": "How do I rotate keys?"}}}); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.Slack.ViewByID(view.ID); v.Open {
		t.Errorf("the modal is still open after a good submission")
	}

	_, ts, err := r.Bot.SlackIn(ctx).PostMessageContext(ctx, general, slack.MsgOptionText("Approve?", false), slack.MsgOptionBlocks(
		slack.NewActionBlock("decide",
			slack.NewButtonBlockElement("approve", "v1", slack.NewTextBlockObject(slack.PlainTextType, "Approve", false, false)),
			slack.NewButtonBlockElement("reject", "v1", slack.NewTextBlockObject(slack.PlainTextType, "Reject", false, false)))))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"reject", "approve"} { // reject has no handler: acknowledged and ignored
		in, err := h.Slack.Act(ctx, slacktest.Action{UserID: alice, ChannelID: general, MessageTS: ts, ActionID: id})
		if err != nil || in.Ack == nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	h.Shortcut(slacktest.MessageShortcut{UserID: alice, CallbackID: "ask_docs", ChannelID: general, MessageTS: ts})
	want := []string{"shortcut shortcut", "submission refused", "submitted How do I rotate keys?", "approve v1", "shortcut message_action"}
	h.WaitFor("every interaction handled", func() bool { return len(seen()) >= len(want) })
	if got := seen(); !slices.Equal(got, want) {
		t.Errorf("handlers reached %q, want %q", got, want)
	}
	for _, d := range h.Slack.HTTPDeliveries() {
		if d.Path == slacktest.PathInteractive && d.Status != http.StatusOK {
			t.Errorf("interaction %s answered %d, want 200", d.EnvelopeID, d.Status)
		}
	}
}

// TestHTTPModeLateCommandIsTold runs a slash command whose handler records
// its work only after the request was answered 503 (Slack had stopped
// waiting): Slack does not send a slash command again, so the person is told
// through its response_url that it was taken after all.
func TestHTTPModeLateCommandIsTold(t *testing.T) {
	t.Parallel()
	h, lb := httpWorld(t)
	release := make(chan struct{})
	r := h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{Mode: bot.ModeHTTP, SigningSecret: signingSecret}, Register: func(b *bot.Bot) {
		b.Router().HandleCommand("/slow", func(_ context.Context, req *bot.CommandRequest) {
			<-release
			req.Ack(nil)
		})
	}}})
	lb.add(t, r.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, _, err := h.Slack.SendSlashCommand(ctx, slacktest.SlashCommand{Command: "/slow", ChannelID: general, UserID: alice, Text: "now"}); err != nil {
		t.Fatal(err)
	}
	h.WaitFor("the command answered 503", func() bool {
		for _, d := range h.Slack.HTTPDeliveries() {
			if d.Path == slacktest.PathCommands && d.Status == http.StatusServiceUnavailable {
				return true
			}
		}
		return false
	})
	close(release)
	h.WaitPrivate(alice, "it was recorded and is being done")
}

// TestHTTPModeHome opens the App Home over signed HTTP: app_home_opened
// reaches the Home feature and the viewer's Home is published.
func TestHTTPModeHome(t *testing.T) {
	t.Parallel()
	h, lb := httpWorld(t)
	httpBot(h, lb)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := h.Slack.OpenHome(ctx, alice); err != nil {
		t.Fatal(err)
	}
	h.WaitFor("Alice's Home with the New docs job button", func() bool {
		v, ok := h.Slack.HomeView(alice)
		return ok && strings.Contains(string(v.Blocks), jobdraft.ActionNewJob)
	})
}
