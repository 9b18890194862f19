package store_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/docsbot/docsbot/store"
)

func TestConversations(t *testing.T) {
	t.Parallel()
	cs := newStore(t).Conversations()
	ctx := t.Context()
	th := store.ConversationKey{Thread: store.Thread{Team: "T1", Channel: "C1", TS: "1700000000.000100"}}
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
	if _, err := cs.UpdateConversation(ctx, store.ConversationKey{}, time.Hour, store.Conversation{}, func(*store.Conversation) error { return nil }); !errors.Is(err, store.ErrInvalid) {
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
	th := store.ConversationKey{Thread: store.Thread{Team: "T1", Channel: "C1", TS: "1700000000.000300"}}
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
	th := store.ConversationKey{Thread: store.Thread{Team: "T1", Channel: "C1", TS: "1700000000.000200"}}
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
	th := store.ConversationKey{Thread: store.Thread{Team: "T1", Channel: "C1", TS: "1700000000.000400"}}
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

// TestConversationKeepsWhatIsSentAgain: a long conversation (30 questions
// of 4,000 characters, each answered with 64 KiB, each kept with its
// answer as shown) is kept cut to what the assistant is sent again, at
// most HistoryMax characters of turns, the latest question whole, and its
// last answer cut to LastMax: its record stays within about 13 KB, where
// whole answers were 20 of 64 KiB.
func TestConversationKeepsWhatIsSentAgain(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	cs := s.Conversations()
	ctx := t.Context()
	k := store.ConversationKey{Thread: store.Thread{Team: "T1", Channel: "C1", TS: "1700000000.000500"}, Asker: "U0ALICE"}
	answer := strings.Repeat("<a & b> ", 8192) // 64 KiB, of the characters JSON would write in six bytes
	var c store.Conversation
	for i := range 30 {
		question := fmt.Sprintf("%04d", i) + strings.Repeat("q", 3996)
		var err error
		c, err = cs.UpdateConversation(ctx, k, time.Hour, c, func(c *store.Conversation) error {
			c.Turns = append(c.Turns, store.Turn{Role: "user", Text: question}, store.Turn{Role: "assistant", Text: answer})
			c.Answers++
			c.Last = answer
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := cs.Conversation(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	chars := 0
	for _, tn := range got.Turns {
		chars += utf8.RuneCountInString(tn.Text)
	}
	if chars > store.HistoryMax || len(got.Turns) != 2 || !strings.HasPrefix(got.Turns[0].Text, "0029") || got.Turns[0].Text != c.Turns[0].Text {
		t.Errorf("kept %d turns of %d characters (the first %.8q…), want the latest exchange within %d", len(got.Turns), chars, got.Turns[0].Text, store.HistoryMax)
	}
	if n := utf8.RuneCountInString(got.Last); n != store.LastMax || got.Answers != 30 {
		t.Errorf("the last answer kept with %d characters, answer %d; want %d, answer 30", n, got.Answers, store.LastMax)
	}
	size, err := rdb.StrLen(ctx, s.Prefix()+"conv:T1:C1:1700000000.000500:U0ALICE").Result()
	if err != nil {
		t.Fatal(err)
	}
	if size > 13_000 {
		t.Errorf("the conversation's record is %d bytes, want at most 13,000", size)
	}
}

// TestConversationsOfAskers: a thread's conversation and each asker's own
// in it are apart: none reads or writes another's.
func TestConversationsOfAskers(t *testing.T) {
	t.Parallel()
	cs := newStore(t).Conversations()
	ctx := t.Context()
	th := store.Thread{Team: "T1", Channel: "C1", TS: "1700000000.000600"}
	keys := []store.ConversationKey{{Thread: th}, {Thread: th, Asker: "U0ALICE"}, {Thread: th, Asker: "U0BOB"}}
	for _, k := range keys {
		if _, err := cs.UpdateConversation(ctx, k, time.Hour, store.Conversation{}, addTurn(k.Asker)); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range keys {
		if c, err := cs.Conversation(ctx, k); err != nil || turnsOf(c) != k.Asker || c.Version != 1 {
			t.Errorf("conversation %s = %+v (%q), %v; want its own turn only", k, c, turnsOf(c), err)
		}
	}
}
