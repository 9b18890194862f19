package slackweb_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store/redistest"
)

// testWait bounds every wait; conditions are polled, never timed.
const testWait = 15 * time.Second

// world is a fake Slack with the page's handler in front of it.
type world struct {
	slack *slacktest.Server
	page  *httptest.Server
	api   *slack.Client
}

func newWorld(t *testing.T, opts ...slackweb.Option) *world {
	t.Helper()
	sl := slacktest.NewServer()
	t.Cleanup(sl.Close)
	page := httptest.NewServer(slackweb.New(sl, opts...))
	t.Cleanup(page.Close)
	return &world{slack: sl, page: page, api: slack.New(sl.BotToken(), slack.OptionAPIURL(sl.APIURL))}
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
	st, err := w.client().State(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// send posts a SendRequest and returns the status and answer.
func (w *world) send(t *testing.T, req slackweb.SendRequest) (int, slackweb.SendResponse) {
	t.Helper()
	out, status, err := w.client().Send(testContext(t), req)
	if err != nil {
		t.Fatal(err)
	}
	return status, out
}

func (w *world) client() slackweb.Client { return slackweb.Client{URL: w.page.URL} }

// client records the envelopes slack-go's real Socket Mode client, connected
// to the fake Slack by AckAll, received and acknowledged.
type client struct {
	mu     sync.Mutex
	events []socketmode.Event
}

func (w *world) connect(t *testing.T) *client {
	t.Helper()
	c := &client{}
	stop, err := w.slack.AckAll(testContext(t), func(e socketmode.Event) {
		c.mu.Lock()
		c.events = append(c.events, e)
		c.mu.Unlock()
	})
	if err != nil {
		t.Fatalf("the Socket Mode client did not connect: %v", err)
	}
	t.Cleanup(stop)
	return c
}

// waitMessage waits for a message event that match accepts.
func (c *client) waitMessage(t *testing.T, what string, match func(*slackevents.MessageEvent) bool) {
	t.Helper()
	c.waitEvent(t, what, func(e socketmode.Event) bool {
		ev, ok := e.Data.(slackevents.EventsAPIEvent)
		if !ok {
			return false
		}
		me, ok := ev.InnerEvent.Data.(*slackevents.MessageEvent)
		return ok && match(me)
	})
}

// waitEvent waits for an event that match accepts.
func (c *client) waitEvent(t *testing.T, what string, match func(socketmode.Event) bool) socketmode.Event {
	t.Helper()
	var found socketmode.Event
	redistest.Until(t, "the client to receive "+what, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		i := slices.IndexFunc(c.events, match)
		if i >= 0 {
			found = c.events[i]
		}
		return i >= 0
	})
	return found
}
