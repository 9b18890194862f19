package store

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// PaneContexts is the channel each person looks at beside Slack's assistant
// pane, as its events said last: per thread of the pane
// (assistant_thread_started, assistant_thread_context_changed) and per
// person's direct message with the bot (app_context_changed, no thread).
// One key each, written whole: no hash tag needed.
type PaneContexts struct{ s *Store }

// PaneContexts returns the Store's pane contexts.
func (s *Store) PaneContexts() PaneContexts { return PaneContexts{s} }

func (pc PaneContexts) key(team, dm, thread string) string {
	return pc.s.prefix + "pane:" + team + ":" + dm + ":" + thread
}

// SetPaneContext records channel as what the person looks at beside the
// pane's thread thread of their direct message dm ("" thread: the DM as a
// whole), for keep. An empty channel forgets it.
func (pc PaneContexts) SetPaneContext(ctx context.Context, team, dm, thread, channel string, keep time.Duration) error {
	k := pc.key(team, dm, thread)
	var err error
	if channel == "" {
		err = pc.s.rdb.Del(ctx, k).Err()
	} else {
		err = pc.s.rdb.Set(ctx, k, channel, keep).Err()
	}
	if err != nil {
		return wrapErr(err, "store: pane context of %s/%s/%s", team, dm, thread)
	}
	return nil
}

// PaneContext is the channel the person looks at beside the pane's thread
// thread: the thread's own, else the DM's; "" when none is known.
func (pc PaneContexts) PaneContext(ctx context.Context, team, dm, thread string) (string, error) {
	for _, t := range []string{thread, ""} {
		ch, err := pc.s.rdb.Get(ctx, pc.key(team, dm, t)).Result()
		switch {
		case err == nil:
			return ch, nil
		case !errors.Is(err, redis.Nil):
			return "", wrapErr(err, "store: pane context of %s/%s/%s", team, dm, t)
		}
		if thread == "" {
			break
		}
	}
	return "", nil
}
