package store_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func TestConversations(t *testing.T) {
	t.Parallel()
	cs := newStore(t).Conversations()
	ctx := t.Context()
	th := store.Thread{Team: "T1", Channel: "C1", TS: "1700000000.000100"}
	if _, err := cs.Conversation(ctx, th); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a thread with no conversation: %v, want ErrNotFound", err)
	}
	c, err := cs.UpdateConversation(ctx, th, time.Hour, func(c *store.Conversation) error {
		c.Project, c.Asker, c.ThreadID, c.ThreadKey = "docs", "U0ALICE", "01HTHREAD", "tk-secret-value"
		c.Turns = append(c.Turns, store.Turn{Role: "user", Text: "How do I rotate keys?"}, store.Turn{Role: "assistant", Text: "Open Settings."})
		return nil
	})
	if err != nil || c.Version != 1 {
		t.Fatalf("first update: %+v, %v", c, err)
	}
	got, err := cs.Conversation(ctx, th)
	if err != nil || got.ThreadKey != "tk-secret-value" || got.Asker != "U0ALICE" || len(got.Turns) != 2 || got.Version != 1 {
		t.Fatalf("read back %+v, %v", got, err)
	}
	for _, s := range []string{fmt.Sprint(got), fmt.Sprintf("%+v", got), fmt.Sprintf("%#v", got)} {
		if strings.Contains(s, "tk-secret-value") || strings.Contains(s, "rotate") {
			t.Errorf("a conversation printed shows its key or text: %s", s)
		}
	}
	stop := errors.New("no")
	if _, err := cs.UpdateConversation(ctx, th, time.Hour, func(*store.Conversation) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("fn's error: %v, want it returned", err)
	}
	if _, err := cs.UpdateConversation(ctx, store.Thread{}, time.Hour, func(*store.Conversation) error { return nil }); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("no thread: %v, want ErrInvalid", err)
	}
}

// TestConversationUpdatesDoNotLoseTurns: replicas adding turns at once each
// get theirs in or hear that they did not (ErrContended); none is lost
// silently.
func TestConversationUpdatesDoNotLoseTurns(t *testing.T) {
	t.Parallel()
	cs := newStore(t).Conversations()
	th := store.Thread{Team: "T1", Channel: "C1", TS: "1700000000.000200"}
	const writers = 4
	var wg sync.WaitGroup
	var mu sync.Mutex
	written := 0
	for i := range writers {
		wg.Go(func() {
			_, err := cs.UpdateConversation(t.Context(), th, time.Hour, func(c *store.Conversation) error {
				c.Turns = append(c.Turns, store.Turn{Role: "user", Text: fmt.Sprint(i)})
				return nil
			})
			switch {
			case err == nil:
				mu.Lock()
				written++
				mu.Unlock()
			case !errors.Is(err, store.ErrContended):
				t.Error(err)
			}
		})
	}
	wg.Wait()
	c, err := cs.Conversation(t.Context(), th)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Turns) != written || c.Version != written {
		t.Errorf("%d turns, version %d, after %d updates said written", len(c.Turns), c.Version, written)
	}
}
