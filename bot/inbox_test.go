package bot_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// The inbox, the outbox and private answers under a running bot, driven
// through /docs-agent.

// ownRedis starts a redis-server with an append-only file for one test, so
// that the test may kill and start it.
func ownRedis(t *testing.T) *redistest.Server {
	t.Helper()
	rs, err := redistest.Start(redistest.WithAppendOnly())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rs.Close() })
	return rs
}

// TestRedisOutage kills Redis under a running bot, over each transport: a
// slash command is answered at once, privately, with what happened; a
// thread reply is left unacknowledged (in HTTP mode: answered 503), so Slack
// delivers it again, and once Redis is back it is sent to the agent exactly
// once.
func TestRedisOutage(t *testing.T) {
	t.Parallel()
	for _, httpMode := range []bool{false, true} {
		t.Run(map[bool]string{false: "socket mode", true: "http mode"}[httpMode], func(t *testing.T) {
			t.Parallel()
			rs := ownRedis(t)
			var h *bottest.Harness
			if httpMode {
				var lb *roundRobin
				h, lb = httpWorld(t)
				h.RedisURL = rs.URL
				httpBot(h, lb)
			} else {
				h = bottest.New(t, redisURL)
				h.RedisURL = rs.URL
				h.StartBot(bottest.Config{})
			}
			// Alice has her Home open, so the start refreshes it through the
			// inbox: let that finish, or Redis could die between running the
			// claim and answering it, and the work would wait out its lease,
			// longer than Settle waits.
			if _, err := h.Slack.OpenHome(context.Background(), alice); err != nil {
				t.Fatal(err)
			}
			h.WaitFor("Alice's Home published", func() bool { _, ok := h.Slack.HomeView(alice); return ok })
			rootTS, _ := startedJob(h, "Document the CLI flags")
			h.WaitFor("Alice's Home shows the job", func() bool {
				v, _ := h.Slack.HomeView(alice)
				return strings.Contains(bottest.Rendered(slacktest.Message{Blocks: v.Blocks}), "Document the CLI flags")
			})

			if err := rs.Kill(); err != nil {
				t.Fatal(err)
			}
			ack := h.Command(alice, general, agent.Command, "Document the config file")
			if !strings.Contains(privateText(ack.Payload), "cannot reach its storage") {
				t.Errorf("ack while Redis is down = %s, want a private note that the command was not taken", ack.Payload)
			}

			h.PostNoAck(alice, general, rootTS, "Also mention the environment variables")
			h.WaitLogged("cannot record Slack work in Redis; not acknowledged", 1)
			if httpMode {
				h.WaitFor("the event answered 503", func() bool {
					return slices.ContainsFunc(h.Slack.HTTPDeliveries(), func(d slacktest.HTTPDelivery) bool {
						return d.Path == slacktest.PathEvents && d.Status == http.StatusServiceUnavailable
					})
				})
			}
			if err := rs.Start(); err != nil {
				t.Fatal(err)
			}
			h.WaitFor("the follow-up to reach the agent", func() bool { return h.API.Count(docsapitest.EndpointMessage) == 1 })
			h.Settle()

			if n := h.API.Count(docsapitest.EndpointMessage); n != 1 {
				t.Errorf("%d follow-ups sent, want exactly 1", n)
			}
			if n := h.API.Count(docsapitest.EndpointCreate); n != 1 {
				t.Errorf("%d jobs created, want 1 (the command refused while Redis was down was not started)", n)
			}
			if n := len(h.Roots(general)); n != 1 {
				t.Errorf("%d root messages, want 1", n)
			}
		})
	}
}

// TestPerChannelPostLimit sends more commands into one channel than Slack
// lets the bot post there at once: every job starts and reports once, the
// root messages and results waiting their turn; none is dropped.
func TestPerChannelPostLimit(t *testing.T) {
	t.Parallel()
	const commands = 12
	h := bottest.NewWith(t, redisURL, []slacktest.Option{slacktest.WithPostLimit(4, 2)})
	h.StartBot(bottest.Config{})
	for i := range commands {
		h.Command(alice, general, agent.Command, fmt.Sprintf("Document endpoint %d", i))
	}
	h.Settle()
	if n := h.API.Count(docsapitest.EndpointCreate); n != commands {
		t.Errorf("%d jobs created, want %d", n, commands)
	}
	roots := h.Roots(general)
	if len(roots) != commands {
		t.Fatalf("%d root messages, want %d", len(roots), commands)
	}
	for _, r := range roots {
		if n := len(h.Finishes(general, r.TS)); n != 1 {
			t.Errorf("root %s: %d results, want 1", r.TS, n)
		}
	}
	if h.Slack.RateLimited()[general] == 0 {
		t.Errorf("Slack never refused a post: the limit was not in force")
	}
}

// TestResponseURLRateLimited has Slack answer 429 to a response_url post:
// the private reply is sent again after Retry-After, not dropped.
func TestResponseURLRateLimited(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.Slack.AddChannel(slacktest.Channel{ID: "C0PRIVATE", Name: "secret", BotMember: false, Private: true})
	h.Slack.RateLimit("response_url", 1, time.Second)
	h.StartBot(bottest.Config{})
	h.Command(alice, "C0PRIVATE", agent.Command, "Write docs")
	h.WaitFor("the private reply after the 429", func() bool { return len(h.Slack.ResponsePosts("")) == 1 })
	if post := h.Slack.ResponsePosts("")[0]; !strings.Contains(post.Text, "/invite @docsbot") {
		t.Errorf("reply %q, want the invite hint", post.Text)
	}
}

// TestWorkOfAnUnknownKindWaits plays a rolling update: a newer replica queued
// work of a kind this one does not know. It is left in the inbox for a
// replica that knows it, not dropped.
func TestWorkOfAnUnknownKindWaits(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	st := h.OpenStore()
	if queued, err := st.Inbox().Enqueue(context.Background(), store.Work{Key: "ev:from-the-future", Kind: "agent.mention", Payload: []byte("{}")}, time.Hour); err != nil || !queued {
		t.Fatalf("Enqueue = %v, %v", queued, err)
	}
	h.StartBot(bottest.Config{})
	h.WaitLogged("no handler for this kind of work here; leaving it to another replica", 1)
	h.StopAll()
	if n, err := st.Inbox().Queued(context.Background()); err != nil || n != 1 {
		t.Fatalf("Queued = %d, %v; want the work still waiting", n, err)
	}
}
