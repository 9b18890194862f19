package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// A conversation is what a Slack thread of answers from the docs assistant
// needs to go on: the assistant's thread id and key (the key is sent once,
// when the assistant creates the thread, and cannot be read again) and the
// turns so far, which the assistant is sent again with each question. It is
// kept while the conversation may go on (the keep the caller gives, renewed
// by each turn) and no longer:
//
//	{p}conv:<team>:<channel>:<ts>        string: the conversation of an answer thread (JSON, UpdateConversation)

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
	// Version counts the updates: UpdateConversation writes only over the
	// version it read.
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

func (s *Store) conversationKey(t Thread) string {
	return s.prefix + "conv:" + t.Team + ":" + t.Channel + ":" + t.TS
}

// Conversations is the answer threads' conversations with the docs
// assistant.
type Conversations struct{ s *Store }

// Conversations returns the Store's conversations.
func (s *Store) Conversations() Conversations { return Conversations{s} }

// Conversation returns the conversation of thread t: ErrNotFound when the
// thread has none (never an answer's, or its time ran out).
func (cs Conversations) Conversation(ctx context.Context, t Thread) (Conversation, error) {
	s := cs.s
	if !t.valid() {
		return Conversation{}, fmt.Errorf("store: conversation of %s: %w", t, ErrInvalid)
	}
	var c Conversation
	if err := s.getJSON(ctx, s.conversationKey(t), &c, "conversation of "+t.String()); err != nil {
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

// UpdateConversation changes the conversation of thread t with fn, which
// gets the current one (the zero Conversation when there is none) and
// changes it in place, and keeps it for keep from now. The write is made
// only over the version fn saw: when another replica updated the
// conversation in between, fn is called again on the newer one (a few times
// at most, then ErrContended). It returns the conversation written.
func (cs Conversations) UpdateConversation(ctx context.Context, t Thread, keep time.Duration, fn func(*Conversation) error) (Conversation, error) {
	s := cs.s
	if !t.valid() || keep < time.Second {
		return Conversation{}, fmt.Errorf("store: update conversation of %s for %v: %w", t, keep, ErrInvalid)
	}
	key := s.conversationKey(t)
	var out Conversation
	for range conversationTries {
		err := s.rdb.Watch(ctx, func(tx *redis.Tx) error {
			c := Conversation{}
			raw, err := tx.Get(ctx, key).Bytes()
			switch {
			case errors.Is(err, redis.Nil):
			case err != nil:
				return err
			default:
				if err := json.Unmarshal(raw, &c); err != nil {
					return fmt.Errorf("store: conversation of %s: %w", t, err)
				}
			}
			if err := fn(&c); err != nil {
				return errCallback{err}
			}
			c.Version++
			next, err := json.Marshal(c)
			if err != nil {
				return fmt.Errorf("store: conversation of %s: %w", t, err)
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, key, next, keep)
				return nil
			})
			out = c
			return err
		}, key)
		var cb errCallback
		switch {
		case err == nil:
			return out, nil
		case errors.As(err, &cb):
			return Conversation{}, cb.err
		case errors.Is(err, redis.TxFailedErr):
			continue // another replica wrote first: read its version
		default:
			return Conversation{}, wrapErr(err, "store: update conversation")
		}
	}
	return Conversation{}, fmt.Errorf("store: update conversation of %s: %w", t, ErrContended)
}

// ErrContended is returned when other replicas kept updating a
// conversation while UpdateConversation tried to: the caller may try again
// later.
var ErrContended = errors.New("store: the conversation kept changing")

// conversationTries bounds the retries of UpdateConversation when other
// replicas keep writing first.
const conversationTries = 5

// errCallback carries the error of UpdateConversation's fn out of the
// transaction, so that it is returned as fn gave it.
type errCallback struct{ err error }

func (e errCallback) Error() string { return e.err.Error() }
func (e errCallback) Unwrap() error { return e.err }
