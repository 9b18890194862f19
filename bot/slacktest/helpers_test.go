package slacktest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/store/redistest"
)

// testTimeout bounds every wait in the tests; conditions are polled, never timed.
const testTimeout = 15 * time.Second

func newTestServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := NewServer(opts...)
	t.Cleanup(s.Close)
	return s
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// connectedServer is newTestServer with a Socket Mode client that
// acknowledges everything (ackEverything) and a Web API client with the
// bot's token (botAPI).
func connectedServer(t *testing.T, opts ...Option) (*Server, *slack.Client) {
	t.Helper()
	s := newTestServer(t, opts...)
	ackEverything(t, s, nil)
	return s, botAPI(s)
}

// botAPI is a Web API client holding the server's bot and app tokens.
func botAPI(s *Server) *slack.Client {
	return slack.New(s.cfg.botToken, slack.OptionAPIURL(s.APIURL), slack.OptionAppLevelToken(s.cfg.appToken))
}

// handler sees every Socket Mode event a client receives, in order.
type handler func(sm *socketmode.Client, e socketmode.Event)

// ackEverything connects AckAll's client, which acknowledges every envelope,
// until the test ends; seen (may be nil) sees each envelope's event first.
func ackEverything(t testing.TB, s *Server, seen func(socketmode.Event), opts ...socketmode.Option) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	stop, err := s.AckAll(ctx, seen, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
}

// startClient runs slack-go's Socket Mode client against s until the test ends.
// h runs on the goroutine draining the client's events.
func startClient(t testing.TB, s *Server, h handler, opts ...socketmode.Option) *socketmode.Client {
	t.Helper()
	sm := socketmode.New(botAPI(s), opts...)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = sm.RunContext(ctx) })
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case e := <-sm.Events:
				h(sm, e)
			}
		}
	})
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	return sm
}

// recorder keeps what a handler saw, for assertions after WaitFor.
type recorder[T any] struct {
	mu    sync.Mutex
	items []T
}

func (r *recorder[T]) add(v T) {
	r.mu.Lock()
	r.items = append(r.items, v)
	r.mu.Unlock()
}

func (r *recorder[T]) all() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]T(nil), r.items...)
}

func (r *recorder[T]) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.items)
}

// waitLen waits until r holds at least n items.
func waitLen[T any](t *testing.T, r *recorder[T], n int) []T {
	t.Helper()
	redistest.Until(t, fmt.Sprintf("%d items", n), func() bool { return r.len() >= n })
	return r.all()
}

// pongsReceived is the number of PONG frames received on the open connections.
func (s *Server) pongsReceived() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	for _, c := range s.conns {
		n += c.pongs.Load()
	}
	return n
}
