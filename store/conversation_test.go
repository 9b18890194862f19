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
	c, err := cs.UpdateConversation(ctx, th, time.Hour, store.Conversation{}, func(c *store.Conversation) error {
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
	if _, err := cs.UpdateConversation(ctx, th, time.Hour, got, func(*store.Conversation) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("fn's error: %v, want it returned", err)
	}
	if _, err := cs.UpdateConversation(ctx, store.Thread{}, time.Hour, store.Conversation{}, func(*store.Conversation) error { return nil }); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("no thread: %v, want ErrInvalid", err)
	}
}

// addTurn is an update that adds the turn text.
func addTurn(text string) func(*store.Conversation) error {
	return func(c *store.Conversation) error {
		c.Turns = append(c.Turns, store.Turn{Role: "user", Text: text})
		return nil
	}
}

// turnsOf are the texts of c's turns, joined.
func turnsOf(c store.Conversation) string {
	var out []string
	for _, tn := range c.Turns {
		out = append(out, tn.Text)
	}
	return strings.Join(out, ",")
}

// TestConversationUpdatedOverWhatItFinds: an update made from a version
// read before another replica wrote the next is made again over that one
// (both turns kept); one from a conversation that ran out since starts
// again from none; a record whose version is not at its end (another
// shape of JSON) is read all the same; the caller's conversation is not
// changed.
func TestConversationUpdatedOverWhatItFinds(t *testing.T) {
	t.Parallel()
	prefix := testPrefix(t)
	cs := store.New(rdb, store.WithPrefix(prefix)).Conversations()
	ctx := t.Context()
	th := store.Thread{Team: "T1", Channel: "C1", TS: "1700000000.000300"}
	v1, err := cs.UpdateConversation(ctx, th, time.Hour, store.Conversation{}, addTurn("a"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.UpdateConversation(ctx, th, time.Hour, v1, addTurn("b")); err != nil {
		t.Fatal(err)
	}
	got, err := cs.UpdateConversation(ctx, th, time.Hour, v1, addTurn("c"))
	if err != nil || got.Version != 3 || turnsOf(got) != "a,b,c" {
		t.Fatalf("an update from version 1 after version 2 = %+v (%s), %v; want version 3, a,b,c", got, turnsOf(got), err)
	}
	if read, err := cs.Conversation(ctx, th); err != nil || read.Version != 3 || turnsOf(read) != "a,b,c" {
		t.Errorf("read back %+v (%s), %v", read, turnsOf(read), err)
	}
	if v1.Version != 1 || turnsOf(v1) != "a" {
		t.Errorf("the caller's conversation changed: %+v (%s)", v1, turnsOf(v1))
	}

	key := prefix + "conv:" + th.Team + ":" + th.Channel + ":" + th.TS
	if err := rdb.Del(ctx, key).Err(); err != nil {
		t.Fatal(err)
	}
	got, err = cs.UpdateConversation(ctx, th, time.Hour, v1, addTurn("d"))
	if err != nil || got.Version != 1 || turnsOf(got) != "d" {
		t.Errorf("an update of a conversation that ran out = %+v (%s), %v; want version 1, d", got, turnsOf(got), err)
	}

	if err := rdb.Set(ctx, key, `{"v":7,"p":"docs","turns":[{"r":"user","t":"e"}]}`, time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	got, err = cs.UpdateConversation(ctx, th, time.Hour, store.Conversation{}, addTurn("f"))
	if err != nil || got.Version != 8 || got.Project != "docs" || turnsOf(got) != "e,f" {
		t.Errorf("an update over a record of another shape = %+v (%s), %v; want version 8, e,f", got, turnsOf(got), err)
	}
	if ttl := rdb.PTTL(ctx, key).Val(); ttl <= 0 || ttl > time.Hour {
		t.Errorf("kept for %v, want up to an hour", ttl)
	}
}

// TestConversationUpdatesDoNotLoseTurns: replicas adding turns at once,
// each from the conversation as it read it before any wrote, each get
// theirs in or hear that they did not (ErrContended); none is lost
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
			_, err := cs.UpdateConversation(t.Context(), th, time.Hour, store.Conversation{}, addTurn(fmt.Sprint(i)))
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

// TestConversationCommands pins the Redis commands of a conversation's
// update (INFO commandstats, the script's included): 3 (EVALSHA, GET, SET)
// over the version the caller read, 5 when another was written since.
func TestConversationCommands(t *testing.T) {
	own := ownRedis(t)
	s := openStore(t, own.URL)
	cs := s.Conversations()
	ctx := t.Context()
	th := store.Thread{Team: "T1", Channel: "C1", TS: "1700000000.000400"}
	v1, err := cs.UpdateConversation(ctx, th, time.Hour, store.Conversation{}, addTurn("a")) // loads the script
	if err != nil {
		t.Fatal(err)
	}
	var v2 store.Conversation
	if n := commandsOf(t, s, func() error {
		v2, err = cs.UpdateConversation(ctx, th, time.Hour, v1, addTurn("b"))
		return err
	}); n != 3 {
		t.Errorf("an update over the version read: %d commands, want 3", n)
	}
	if n := commandsOf(t, s, func() error {
		_, err := cs.UpdateConversation(ctx, th, time.Hour, v1, addTurn("c"))
		return err
	}); n != 5 || v2.Version != 2 {
		t.Errorf("an update over a version written since: %d commands, want 5", n)
	}
}
