package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// redisServer is the package's own redis-server, on a unix socket.
var redisServer *redistest.Server

func TestMain(m *testing.M) {
	srv, err := redistest.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	redisServer = srv
	code := m.Run()
	_ = srv.Close()
	os.Exit(code)
}

// harness is one end-to-end world: a fake Slack, the API test server and a
// key prefix of its own in the package's Redis. Bots started on it are real
// bot.Bot values talking over real sockets.
type harness struct {
	t      *testing.T
	slack  *slacktest.Server
	api    *docsapitest.Server
	prefix string
	logs   *docsapitest.LogBuffer
	// redisURL is the Redis the bots use: the package's, or a test's own.
	redisURL string

	mu   sync.Mutex
	bots []*running
}

const general = "C0GENERAL"

func newHarness(t *testing.T, apiOpts ...docsapitest.Option) *harness {
	t.Helper()
	return newHarnessWith(t, nil, apiOpts...)
}

// newHarnessWith is newHarness with options of the fake Slack added.
func newHarnessWith(t *testing.T, slackOpts []slacktest.Option, apiOpts ...docsapitest.Option) *harness {
	t.Helper()
	sl := slacktest.NewServer(append([]slacktest.Option{slacktest.WithPingInterval(500 * time.Millisecond), slacktest.WithRedelivery(time.Second)}, slackOpts...)...)
	t.Cleanup(sl.Close)
	api := docsapitest.NewServer(apiOpts...)
	t.Cleanup(api.Close)
	return &harness{t: t, slack: sl, api: api, prefix: redistest.Prefix(t), logs: &docsapitest.LogBuffer{}, redisURL: redisURL()}
}

// running is a started bot and how to stop it.
type running struct {
	bot   *bot.Bot
	store *store.Store
	stop  func()
	done  chan error
}

// startBot starts a replica and waits until its socket is connected.
func (h *harness) startBot(cfg bot.Config) *running {
	h.t.Helper()
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 20 * time.Millisecond
	}
	if cfg.PollMaxInterval == 0 {
		cfg.PollMaxInterval = 80 * time.Millisecond
	}
	cfg.Logger = slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	ctx, cancel := context.WithCancel(context.Background())
	st, err := store.Open(ctx, h.redisURL, store.WithPrefix(h.prefix))
	if err != nil {
		h.t.Fatalf("open store: %v", err)
	}
	client, err := docsapi.NewClient(h.api.Key, h.api.ProjectID,
		docsapi.WithBaseURL(h.api.URL),
		docsapi.WithRetryPolicy(docsapi.RetryPolicy{MaxAttempts: 2, BaseDelay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond, MaxWait: 50 * time.Millisecond}))
	if err != nil {
		h.t.Fatalf("docs client: %v", err)
	}
	sc := slack.New("xoxb-test-bot-token", append([]slack.Option{slack.OptionAppLevelToken("xapp-test-app-token"), slack.OptionAPIURL(h.slack.APIURL)},
		bot.SlackOptions(cfg.Metrics)...)...)
	// Count connections ever opened: a bot stopped just before may still be
	// counted among the open ones for a moment.
	before := h.slack.Connects()
	b := bot.New(cfg, sc, client, st)
	r := &running{bot: b, store: st, done: make(chan error, 1)}
	go func() { r.done <- b.Run(ctx) }()
	var once sync.Once
	r.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-r.done:
				if err != nil {
					h.t.Errorf("bot.Run: %v", err)
				}
			case <-time.After(10 * time.Second):
				h.t.Errorf("bot did not stop within 10s")
			}
			_ = st.Close()
		})
	}
	h.t.Cleanup(r.stop)
	h.mu.Lock()
	h.bots = append(h.bots, r)
	h.mu.Unlock()
	h.waitFor("the bot's Slack connection", func() bool { return h.slack.Connects() > before && b.Connected() })
	return r
}

func redisURL() string { return redisServer.URL }

// waitFor re-checks cond on every change in the fake Slack and every 10ms
// (conditions on the API server change without Slack seeing it) until it
// holds, failing the test after 15s.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	changes, unsubscribe := h.slack.Changes()
	defer unsubscribe()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(15 * time.Second)
	for !cond() {
		select {
		case <-changes:
		case <-tick.C:
		case <-deadline:
			h.t.Fatalf("waiting for %s: not true after 15s\nlogs:\n%s", what, h.logs.String())
		}
	}
}

// settle waits until the inbox is empty (every command and reply taken and
// done) and the shared schedule too (every job's result posted or the job
// dropped), then stops every replica. Once Run has
// returned nothing more can be posted or asked of the API, so counts taken
// afterwards are final: they replace "wait a while and count".
func (h *harness) settle() {
	h.t.Helper()
	st := h.openStore()
	h.waitFor("an empty inbox and poll schedule", func() bool {
		q, err := st.Queued(context.Background())
		if err != nil || q != 0 {
			return false
		}
		n, err := st.Tracked(context.Background())
		return err == nil && n == 0
	})
	h.stopAll()
}

// stopAll stops every replica started on the harness.
func (h *harness) stopAll() {
	h.mu.Lock()
	bots := slices.Clone(h.bots)
	h.mu.Unlock()
	for _, r := range bots {
		r.stop()
	}
}

// waitLogged waits until the bots have logged msg n times: positive proof
// that redelivered envelopes were seen and dropped.
func (h *harness) waitLogged(msg string, n int) {
	h.t.Helper()
	h.waitFor(fmt.Sprintf("%d log lines %q", n, msg), func() bool {
		return strings.Count(h.logs.String(), "msg=\""+msg+"\"") >= n
	})
}

func (h *harness) openStore() *store.Store {
	h.t.Helper()
	st, err := store.Open(context.Background(), h.redisURL, store.WithPrefix(h.prefix))
	if err != nil {
		h.t.Fatalf("open store: %v", err)
	}
	h.t.Cleanup(func() { _ = st.Close() })
	return st
}

// command types a slash command in a channel as a user and returns Slack's
// record of the ack.
func (h *harness) command(user, channel, command, text string) *slacktest.Ack {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ack, err := h.slack.SlashCommand(ctx, slacktest.SlashCommand{Command: command, Text: text, UserID: user, ChannelID: channel})
	if err != nil {
		h.t.Fatalf("slash command %s %q: %v", command, text, err)
	}
	return ack
}

// reply posts a person's reply in a thread.
func (h *harness) reply(user, channel, threadTS, text string) (ts, eventID string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ts, eventID, err := h.slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: channel, UserID: user, Text: text, ThreadTS: threadTS})
	if err != nil {
		h.t.Fatalf("reply %q: %v", text, err)
	}
	return ts, eventID
}

// roots returns the bot's top-level messages in a channel.
func (h *harness) roots(channel string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.slack.Messages(channel) {
		if m.BotID != "" {
			out = append(out, m)
		}
	}
	return out
}

// finishes returns the bot's result messages in a thread.
func (h *harness) finishes(channel, ts string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.slack.Thread(channel, ts) {
		if m.TS != ts && m.BotID != "" && strings.Contains(string(m.Metadata), bot.FinishedEvent) {
			out = append(out, m)
		}
	}
	return out
}

// rendered is what a message shows: its blocks' texts (decoded from JSON),
// or its text when it has no blocks.
func rendered(m slacktest.Message) string {
	if len(m.Blocks) == 0 {
		return m.Text
	}
	var v any
	if err := json.Unmarshal(m.Blocks, &v); err != nil {
		return m.Text
	}
	var texts []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if t, ok := x["text"].(string); ok {
				texts = append(texts, t)
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	return strings.Join(texts, "\n")
}
