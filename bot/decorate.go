package bot

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/slack-go/slack"
)

// Decorations are what the bot shows beside its messages: its reactions on
// a message and the working status of a thread. They are cosmetic: they are
// made in the background (never holding up a post or the caller), in the
// order asked for each message, and a failure is logged only. Slack's 429s
// are waited out by the client (SlackOptions), within editBudget.

// sequencer runs the tasks of one key one after another, in the order they
// were given, each key in a goroutine of its own while it has tasks.
type sequencer struct {
	mu     sync.Mutex
	queues map[string][]func()
}

// inOrder queues fn under key and reports false if the bot is shutting down.
func (b *Bot) inOrder(key string, fn func()) bool {
	s := &b.decor
	s.mu.Lock()
	if s.queues == nil {
		s.queues = map[string][]func(){}
	}
	if q, busy := s.queues[key]; busy {
		s.queues[key] = append(q, fn)
		s.mu.Unlock()
		return true
	}
	s.queues[key] = []func(){}
	s.mu.Unlock()
	started := b.work.Go(func() {
		for fn != nil {
			fn()
			s.mu.Lock()
			if q := s.queues[key]; len(q) > 0 {
				fn, s.queues[key] = q[0], q[1:]
			} else {
				fn = nil
				delete(s.queues, key)
			}
			s.mu.Unlock()
		}
	})
	if !started {
		s.mu.Lock()
		delete(s.queues, key)
		s.mu.Unlock()
	}
	return started
}

// Decorations are the reactions and thread statuses of messages, made in
// the background in order per message (Bot.Decorations).
type Decorations struct{ b *Bot }

// Decorations makes the reactions and thread statuses of messages.
func (b *Bot) Decorations() Decorations { return Decorations{b} }

// React takes the bot's reactions named in remove off the message ts of
// channel and then adds add ("" for none), in the background and after the
// reactions asked for earlier on the same message. It is idempotent: a
// reaction already there (already_reacted) or already gone (no_reaction) is
// what was wanted.
func (d Decorations) React(ctx context.Context, channel, ts, add string, remove []string, log *slog.Logger) {
	b := d.b
	if channel == "" || ts == "" {
		return
	}
	ctx = context.WithoutCancel(ctx)
	item := slack.ItemRef{Channel: channel, Timestamp: ts}
	queued := b.inOrder("react:"+channel+"/"+ts, func() {
		ctx, cancel := context.WithTimeout(ctx, editBudget)
		defer cancel()
		for _, name := range remove {
			if name == add {
				continue
			}
			if err := b.SlackIn(ctx).RemoveReactionContext(ctx, name, item); err != nil && SlackCode(err) != "no_reaction" {
				log.Warn("removing a reaction failed", "reaction", name, "err", err)
			}
		}
		if add == "" {
			return
		}
		if err := b.SlackIn(ctx).AddReactionContext(ctx, add, item); err != nil && SlackCode(err) != "already_reacted" {
			log.Warn("adding a reaction failed", "reaction", add, "err", err)
		}
	})
	if !queued {
		log.Warn("shutting down: reaction not changed", "reaction", add)
	}
}

// threadStatusOff remembers that Slack refused assistant.threads.setStatus
// for good (a scope the app lacks, a workspace that does not allow it).
type threadStatusOff struct{ off atomic.Bool }

// SetThreadStatus shows status ("is working on your docs…") in the thread
// whose parent is threadTS, in the background; "" clears it. Slack clears it
// by itself when the bot posts in the thread, or after two minutes: refresh
// it sooner while the work goes on. If Slack answers that the app may not
// set it (missing_scope, not_allowed...), that is logged once and the
// feature is skipped from then on: it is never fatal.
func (d Decorations) SetThreadStatus(ctx context.Context, channel, threadTS, status string, log *slog.Logger) {
	b := d.b
	if b.threadStatus.off.Load() || channel == "" || threadTS == "" {
		return
	}
	ctx = context.WithoutCancel(ctx)
	b.inOrder("status:"+channel+"/"+threadTS, func() {
		if b.threadStatus.off.Load() {
			return
		}
		ctx, cancel := context.WithTimeout(ctx, editBudget)
		defer cancel()
		err := b.SlackIn(ctx).SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{
			ChannelID: channel, ThreadTS: threadTS, Status: status,
		})
		switch code := SlackCode(err); {
		case err == nil:
		case threadStatusRefused(code):
			if b.threadStatus.off.CompareAndSwap(false, true) {
				b.log.Warn("Slack does not let docsbot show a thread's working status; not showing it", "err", err)
			}
		default:
			log.Warn("setting the thread's working status failed", "err", err)
		}
	})
}

// ThreadStatusPending reports whether a thread status asked for in the
// thread whose parent is threadTS is still on its way to Slack.
func (d Decorations) ThreadStatusPending(channel, threadTS string) bool {
	b := d.b
	s := &b.decor
	s.mu.Lock()
	defer s.mu.Unlock()
	_, busy := s.queues["status:"+channel+"/"+threadTS]
	return busy
}

// threadStatusRefused reports Slack's answers to assistant.threads.setStatus
// that will not change by trying again.
func threadStatusRefused(code string) bool {
	switch code {
	case "missing_scope", "not_allowed", "not_allowed_token_type", "method_deprecated",
		"unknown_method", "feature_not_enabled", "team_not_allowed", "access_denied":
		return true
	}
	return false
}
