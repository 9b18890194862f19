package home

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/docsbot/docsbot/store/redistest"
)

// TestPublisherCoalesces asks for many publishes of one person's Home while
// one is under way: they collapse into one more, and another person's is
// not held up.
func TestPublisherCoalesces(t *testing.T) {
	t.Parallel()
	var p publisher
	var runs atomic.Int32
	started, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- p.publish(t.Context(), "T:U1", func() error {
			runs.Add(1)
			close(started)
			<-release
			return nil
		})
	}()
	<-started

	// Another person publishes while U1's first publish is blocked.
	if err := p.publish(t.Context(), "T:U2", func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	const waiting = 20
	var wg sync.WaitGroup
	queued := make(chan struct{}, waiting)
	for range waiting {
		wg.Go(func() {
			queued <- struct{}{}
			if err := p.publish(t.Context(), "T:U1", func() error { runs.Add(1); return nil }); err != nil {
				t.Error(err)
			}
		})
	}
	// Wait until every request holds a number before the first publish ends.
	for range waiting {
		<-queued
	}
	redistest.Until(t, "every request holding a number", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.users["T:U1"].asked == waiting+1
	})
	close(release)
	wg.Wait()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if n := runs.Load(); n != 2 {
		t.Errorf("%d publishes for 21 requests, one under way: want 2", n)
	}
	p.mu.Lock()
	left := len(p.users)
	p.mu.Unlock()
	if left != 0 {
		t.Errorf("%d people still tracked after every publish returned", left)
	}
}

// TestPublisherRetriesAfterAFailure: a failed publish covers nobody, so the
// next request publishes.
func TestPublisherRetriesAfterAFailure(t *testing.T) {
	t.Parallel()
	var p publisher
	boom := errors.New("slack down")
	if err := p.publish(context.Background(), "k", func() error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("publish = %v, want %v", err, boom)
	}
	ran := false
	if err := p.publish(context.Background(), "k", func() error { ran = true; return nil }); err != nil || !ran {
		t.Errorf("after a failure the next publish ran=%t err=%v, want it to run", ran, err)
	}
}
