package bot_test

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestWorkWhoseRecordIsLostGoesOn: a piece of work whose record a Redis
// failover lost while a replica held it (a write no replica confirmed,
// then the primary died) is written back by its holder, with every mark
// its attempts wrote, whether the holder finds it gone at its next mark or
// when it defers the work: the next attempt resumes from those marks, and
// nothing is left in the inbox at the end.
func TestWorkWhoseRecordIsLostGoesOn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// markAfter: the holder marks a step after the loss (else it
		// defers at once).
		markAfter bool
		want      map[string]string
	}{
		{"found gone at a mark", true, map[string]string{"one": "1", "two": "1"}},
		{"found gone when deferred", false, map[string]string{"one": "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := bottest.New(t, redisURL)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			st := openHarnessStore(t, h)
			b := coreOn(h, st, bot.Config{})
			const key = "cmd:lost-record"
			lost := make(chan struct{})
			second := make(chan map[string]string, 1)
			b.Router().HandleWork("test.lost", bot.WorkHandler{Do: func(ctx context.Context, w *bot.Work) error {
				if w.Attempt > 1 {
					second <- maps.Clone(w.Marks)
					return nil
				}
				if err := w.Mark(ctx, map[string]string{"one": "1"}); err != nil {
					return err
				}
				if n := redistest.ExpireKeys(t, redisURL, h.Prefix+"*in:"+key); n != 1 {
					t.Errorf("%d records of the work found to lose, want 1", n)
				}
				close(lost)
				if tt.markAfter {
					if err := w.Mark(ctx, map[string]string{"two": "1"}); err != nil {
						t.Errorf("a mark after the record was lost: %v", err)
					}
				}
				return bot.Later(time.Millisecond, errors.New("asked to wait"))
			}})
			if _, err := st.Inbox().Enqueue(ctx, store.Work{Key: key, Kind: "test.lost", Payload: []byte("{}")}, time.Hour); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- b.Run(ctx) }()
			<-lost
			var marks map[string]string
			h.WaitFor("the work's next attempt", func() bool {
				select {
				case marks = <-second:
					return true
				default:
					return false
				}
			})
			if !maps.Equal(marks, tt.want) {
				t.Errorf("the next attempt found marks %v, want %v", marks, tt.want)
			}
			h.WaitFor("the inbox empty", func() bool {
				n, err := st.Inbox().Queued(ctx)
				return err == nil && n == 0
			})
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run = %v", err)
			}
		})
	}
}
