package slackweb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/slacktest/slackweb"
)

const (
	botToken = "xoxb-slackweb-test"
	appToken = "xapp-slackweb-test"
	// testWait bounds every wait; conditions are polled, never timed.
	testWait = 15 * time.Second
)

// world is a fake Slack with the page's handler in front of it.
type world struct {
	slack *slacktest.Server
	page  *httptest.Server
	api   *slack.Client
}

func newWorld(t *testing.T, opts ...slackweb.Option) *world {
	t.Helper()
	sl := slacktest.NewServer(slacktest.WithBotToken(botToken), slacktest.WithAppToken(appToken))
	t.Cleanup(sl.Close)
	page := httptest.NewServer(slackweb.New(sl, opts...))
	t.Cleanup(page.Close)
	return &world{slack: sl, page: page, api: slack.New(botToken, slack.OptionAPIURL(sl.APIURL))}
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testWait)
	t.Cleanup(cancel)
	return ctx
}

// state fetches GET /api/state.
func (w *world) state(t *testing.T) slackweb.State {
	t.Helper()
	resp, err := http.Get(w.page.URL + "/api/state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/state: %s", resp.Status)
	}
	var st slackweb.State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// send posts a SendRequest and returns the status and answer.
func (w *world) send(t *testing.T, req slackweb.SendRequest) (int, slackweb.SendResponse) {
	t.Helper()
	body, _ := json.Marshal(req)
	resp, err := http.Post(w.page.URL+"/api/send", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out slackweb.SendResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("POST /api/send: %s, %v", resp.Status, err)
	}
	return resp.StatusCode, out
}

// client is slack-go's real Socket Mode client connected to the fake Slack:
// it acknowledges every envelope and records what it received.
type client struct {
	mu     sync.Mutex
	events []socketmode.Event
}

func (w *world) connect(t *testing.T) *client {
	t.Helper()
	sm := socketmode.New(slack.New(botToken, slack.OptionAppLevelToken(appToken), slack.OptionAPIURL(w.slack.APIURL)))
	c := &client{}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = sm.RunContext(ctx) })
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case e := <-sm.Events:
				if e.Request == nil || e.Request.EnvelopeID == "" {
					continue
				}
				c.mu.Lock()
				c.events = append(c.events, e)
				c.mu.Unlock()
				_ = sm.Ack(*e.Request)
			}
		}
	})
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	if err := w.slack.WaitConnections(testContext(t), 1); err != nil {
		t.Fatalf("the Socket Mode client did not connect: %v", err)
	}
	return c
}

// waitEvent waits for an event that match accepts.
func (c *client) waitEvent(t *testing.T, what string, match func(socketmode.Event) bool) socketmode.Event {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		for _, e := range c.events {
			if match(e) {
				c.mu.Unlock()
				return e
			}
		}
		c.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the client never received %s", what)
	return socketmode.Event{}
}
