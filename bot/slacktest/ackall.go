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
// configure the client. It returns as Connect does.
func (s *Server) AckAll(ctx context.Context, seen func(socketmode.Event), opts ...socketmode.Option) (stop func(), err error) {
	stop, err = s.Connect(ctx, func(sm *socketmode.Client, e socketmode.Event) {
		if e.Request == nil || e.Request.EnvelopeID == "" {
			return
		}
		if seen != nil {
			seen(e)
		}
		_ = sm.Ack(*e.Request)
	}, opts...)
	if err != nil {
		return nil, fmt.Errorf("slacktest: acknowledging client: %w", err)
	}
	return stop, nil
}

// Connect connects slack-go's real Socket Mode client to the server, with
// the server's tokens, and calls handle with every event it receives, in
// order, on the client's event goroutine: handle acknowledges envelopes
// itself (sm.Ack, with a payload where it answers). It is the smallest
// Socket Mode app, for tests that need an app answering like a bot. opts
// configure the client.
//
// Connect returns once the connection is open (the client received hello), or
// with an error if the client stopped first or ctx ended; ctx bounds only that
// wait. The client runs until stop, which closes it and waits for its
// goroutines; the server notices the closed connection soon after (see
// WaitConnections). stop may be called more than once.
func (s *Server) Connect(ctx context.Context, handle func(sm *socketmode.Client, e socketmode.Event), opts ...socketmode.Option) (stop func(), err error) {
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
				handle(sm, e)
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
		return nil, fmt.Errorf("slacktest: the client did not connect: %w", err)
	case <-ctx.Done():
		stop()
		return nil, fmt.Errorf("slacktest: the client did not connect: %w", ctx.Err())
	}
}

// AckCount is the number of acks received so far: len(Acks()) without the copy.
func (s *Server) AckCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.acks)
}
