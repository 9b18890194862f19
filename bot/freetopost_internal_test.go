package bot

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/slack-go/slack"
)

// TestFreeToPost: a channel is free to post in once a post there went out
// quickly, until Slack refuses one for good, a post there is slow or waits
// its turn, or the replica stops (the table on FreeToPost).
func TestFreeToPost(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	refused := slack.SlackErrorResponse{Err: "not_in_channel"}
	passing := errors.New("connection reset")
	tests := []struct {
		name   string
		posts  []error       // what each post in C1 answered, quickly
		took   time.Duration // how long the last of them took
		queued bool          // a post in C1 holds its turn now
		stop   bool          // the replica stops
		want   bool
	}{
		{name: "never posted in", want: false},
		{name: "posted in", posts: []error{nil}, want: true},
		{name: "posted in, then a failure that may pass", posts: []error{nil, passing}, want: true},
		{name: "posted in, then refused for good", posts: []error{nil, refused}, want: false},
		{name: "refused, then posted in", posts: []error{refused, nil}, want: true},
		{name: "a slow post", posts: []error{nil}, took: slowPost, want: false},
		{name: "a post holding its turn", posts: []error{nil}, queued: true, want: false},
		{name: "the replica stopping", posts: []error{nil}, stop: true, want: false},
	}
	for _, tt := range tests {
		b := &Bot{out: newOutbox(), stopping: make(chan struct{})}
		for i, err := range tt.posts {
			took := time.Millisecond
			if i == len(tt.posts)-1 && tt.took > 0 {
				took = tt.took
			}
			b.notePost(ctx, "C1", took, err)
		}
		if tt.queued {
			b.out.channels["C1"] = &channelQueue{busy: true, waiters: 1}
		}
		if tt.stop {
			close(b.stopping)
		}
		if got := b.FreeToPost(ctx, "C1"); got != tt.want {
			t.Errorf("%s: FreeToPost = %v, want %v", tt.name, got, tt.want)
		}
		if b.FreeToPost(ctx, "C2") {
			t.Errorf("%s: a channel never posted in is free to post in", tt.name)
		}
	}
}
