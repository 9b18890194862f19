package slacktest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

// AckAll connects slack-go's real Socket Mode client to the server, with the
// server's tokens, and acknowledges every envelope it receives, without a
// payload: a stand-in for a bot that accepts everything, for tests and tools
// that need envelopes drained. seen, when not nil, is called with each
// envelope's event just before its ack, on the client's event goroutine. opts
// configure the client.
//
// AckAll returns once the connection is open (the client received hello), or
// with an error if the client stopped first or ctx ended; ctx bounds only that
// wait. The client runs until stop, which closes it and waits for its
// goroutines; the server notices the closed connection soon after (see
// WaitConnections). stop may be called more than once.
func (s *Server) AckAll(ctx context.Context, seen func(socketmode.Event), opts ...socketmode.Option) (stop func(), err error) {
	api := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL), slack.OptionAppLevelToken(s.AppToken()))
	sm := socketmode.New(api, opts...)
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	hello := make(chan struct{})
	ran := make(chan error, 1)
	var wg sync.WaitGroup
	wg.Go(func() { ran <- sm.RunContext(runCtx) })
	wg.Go(func() {
		said := false
		for {
			select {
			case <-runCtx.Done():
				return
			case e := <-sm.Events:
				if e.Type == socketmode.EventTypeHello && !said {
					said = true
					close(hello)
				}
				if e.Request == nil || e.Request.EnvelopeID == "" {
					continue
				}
				if seen != nil {
					seen(e)
				}
				_ = sm.Ack(*e.Request)
			}
		}
	})
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			wg.Wait()
		})
	}
	select {
	case <-hello:
		return stop, nil
	case err := <-ran:
		stop()
		if err == nil || errors.Is(err, context.Canceled) {
			err = errors.New("the client stopped")
		}
		return nil, fmt.Errorf("slacktest: acknowledging client did not connect: %w", err)
	case <-ctx.Done():
		stop()
		return nil, fmt.Errorf("slacktest: acknowledging client did not connect: %w", ctx.Err())
	}
}

// AckCount is the number of acks received so far: len(Acks()) without the copy.
func (s *Server) AckCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.acks)
}
