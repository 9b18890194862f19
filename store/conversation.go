package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"
)

// A conversation is what a Slack thread of answers from the docs assistant
// needs to go on: the assistant's thread id and key (the key is sent once,
// when the assistant creates the thread, and cannot be read again) and the
// turns so far, which the assistant is sent again with each question. It is
// kept while the conversation may go on (the keep the caller gives, renewed
// by each turn) and no longer. A thread has one conversation, or, where a
// channel answers each asker privately, one per asker (ConversationKey):
//
//	{p}conv:<team>:<channel>:<ts>           string: the conversation of an answer thread (JSON, UpdateConversation)
//	{p}conv:<team>:<channel>:<ts>:<asker>   string: one asker's own conversation in that thread
//
// What it keeps is bounded (Keep, which UpdateConversation applies to what
// it writes): the turns that are sent again, and the last answer as shown.

// Turn is one message of a conversation: a person's question ("user") or
// the assistant's answer ("assistant").
type Turn struct {
	Role string `json:"r"`
	Text string `json:"t"`
}

// Conversation is an answer thread's conversation with the assistant.
type Conversation struct {
	// Project is the docs project whose assistant answers.
	Project string `json:"p,omitempty"`
	// Asker is the Slack user who asked the conversation's first question:
	// in a channel, only their replies go on with it. "" in conversations
	// kept before it was recorded.
	Asker string `json:"a,omitempty"`
	// ThreadID and ThreadKey continue the assistant's thread; ThreadKey is
	// a secret: String and GoString never show it.
	ThreadID  string `json:"id,omitempty"`
	ThreadKey string `json:"k,omitempty"`
	// Turns are the questions and answers so far, oldest first.
	Turns []Turn `json:"turns,omitempty"`
	// Sources are the pages the last answer drew on.
	Sources []string `json:"src,omitempty"`
	// Answers counts the answers given in the conversation: the turn of
	// the last one. 0 in conversations kept before it was recorded.
	Answers int `json:"n,omitempty"`
	// Last is the last answer as it is shown whole, for Share in channel
	// under an answer shown to its asker alone (its turn is Answers); ""
	// where answers show in the thread. Cut to LastMax.
	Last string `json:"last,omitempty"`
	// Workspace is the Slack workspace of the thread; zero for the one
	// workspace and in conversations kept before it was recorded.
	Workspace Workspace `json:"ws,omitzero"`
	// Version counts the updates: UpdateConversation writes only over the
	// version its caller read. It stays the last field: the update's script
	// reads it at the record's end.
	Version int `json:"v"`
}

// String describes c without its key or text, for logs.
func (c Conversation) String() string {
	key := "no key"
	if c.ThreadKey != "" {
		key = "key set"
	}
	return fmt.Sprintf("conversation{project %q, thread %q, %s, %d turns, v%d}", c.Project, c.ThreadID, key, len(c.Turns), c.Version)
}

// GoString is String, so that %#v shows no key either.
func (c Conversation) GoString() string { return c.String() }

// ConversationKey names a conversation: its answer thread's (Asker ""),
// or, where a channel answers each asker privately, one asker's own in the
// thread, which nobody else's question reads or writes.
type ConversationKey struct {
	Thread
	Asker string
}

// String returns "team/channel/ts[/asker]", for logs.
func (k ConversationKey) String() string {
	if k.Asker == "" {
		return k.Thread.String()
	}
	return k.Thread.String() + "/" + k.Asker
}

func (s *Store) conversationKey(k ConversationKey) string {
	key := s.prefix + "conv:" + k.Team + ":" + k.Channel + ":" + k.TS
	if k.Asker != "" {
		key += ":" + k.Asker
	}
	return key
}

// Conversations is the answer threads' conversations with the docs
// assistant.
type Conversations struct{ s *Store }

// Conversations returns the Store's conversations.
func (s *Store) Conversations() Conversations { return Conversations{s} }

// Conversation returns the conversation k: ErrNotFound when there is none
// (never an answer's, or its time ran out).
func (cs Conversations) Conversation(ctx context.Context, k ConversationKey) (Conversation, error) {
	s := cs.s
	if !k.valid() {
		return Conversation{}, fmt.Errorf("store: conversation of %s: %w", k, ErrInvalid)
	}
	var c Conversation
	if err := s.getJSON(ctx, s.conversationKey(k), &c, "conversation of "+k.String()); err != nil {
		return Conversation{}, err
	}
	return c, nil
}

// getJSON reads the JSON string at key into v: ErrNotFound when there is
// none; what names it in errors.
func (s *Store) getJSON(ctx context.Context, key string, v any, what string) error {
	raw, err := s.rdb.Get(ctx, key).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return ErrNotFound
	case err != nil:
		return wrapErr(err, "store: %s", what)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	return nil
}

// UpdateConversation changes the conversation k with fn and keeps it for
// keep from now, cut to what a conversation keeps (Keep). from is the conversation as the caller read
// it (Conversation; the zero Conversation when it had none): fn gets a copy
// and changes it in place, and the write is made only over that version
// (luaUpdateConversation: one script, its GET and SET). When another
// replica updated the conversation in between, or it ran out, fn is called
// again on the one the script found (a few times at most, then
// ErrContended), so that two answers in one thread never overwrite each
// other's turns. It returns the conversation written.
func (cs Conversations) UpdateConversation(ctx context.Context, k ConversationKey, keep time.Duration, from Conversation,
	fn func(*Conversation) error) (Conversation, error) {
	s := cs.s
	if !k.valid() || keep < time.Second {
		return Conversation{}, fmt.Errorf("store: update conversation of %s for %v: %w", k, keep, ErrInvalid)
	}
	key := s.conversationKey(k)
	cur := from
	for range conversationTries {
		c := cur
		c.Turns, c.Sources = slices.Clone(cur.Turns), slices.Clone(cur.Sources)
		if err := fn(&c); err != nil {
			return Conversation{}, err
		}
		c = c.Keep()
		c.Version = cur.Version + 1
		next, err := encodeConversation(c)
		if err != nil {
			return Conversation{}, fmt.Errorf("store: conversation of %s: %w", k, err)
		}
		res, err := s.convUpdate.Run(ctx, s.rdb, []string{key}, cur.Version, next, keep.Milliseconds()).Result()
		if err != nil {
			return Conversation{}, wrapErr(err, "store: update conversation of %s", k)
		}
		switch found := res.(type) {
		case int64:
			if found == 1 {
				return c, nil
			}
			cur = Conversation{} // it ran out (or was never written)
		case string:
			cur = Conversation{}
			if err := json.Unmarshal([]byte(found), &cur); err != nil {
				return Conversation{}, fmt.Errorf("store: conversation of %s: %w", k, err)
			}
		default:
			return Conversation{}, fmt.Errorf("store: update conversation of %s: the script answered %T", k, res)
		}
	}
	return Conversation{}, fmt.Errorf("store: update conversation of %s: %w", k, ErrContended)
}

// luaUpdateConversation: KEYS the conversation; ARGV the version the
// caller read (0: none), the conversation to write, the keep (ms). It
// writes only over that version and returns 1; else it returns what it
// found instead: the record, or 0 when there is none. The version is read
// at the record's end, where Conversation's last field puts it ("v":N}),
// else (a record of another shape) by decoding it whole.
const luaUpdateConversation = `
local cur = redis.call('GET', KEYS[1])
local want = tonumber(ARGV[1])
if cur then
  local v = string.match(string.sub(cur, -32), '"v":(%d+)}$')
  if not v then
    local ok, c = pcall(cjson.decode, cur)
    if ok and type(c) == 'table' then v = c.v end
  end
  if (tonumber(v) or 0) ~= want then return cur end
elseif want ~= 0 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`

// ErrContended is returned when other replicas kept updating a
// conversation while UpdateConversation tried to: the caller may try again
// later.
var ErrContended = errors.New("store: the conversation kept changing")

// conversationTries bounds the retries of UpdateConversation when other
// replicas keep writing first.
const conversationTries = 5
