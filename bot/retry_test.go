package bot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/docsbot/docsbot/store"
)

// redisReply stands for an error answered by the Redis server, such as
// WRONGTYPE: go-redis marks those with the redis.Error interface.
type redisReply string

func (e redisReply) Error() string { return string(e) }
func (redisReply) RedisError()     {}

var _ redis.Error = redisReply("")

func TestRetryGivesUpOnlyOnWhatRetryingCannotChange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		err       error
		permanent bool
	}{
		{"conflict", fmt.Errorf("link: %w", store.ErrConflict), true},
		{"not found", fmt.Errorf("job: %w", store.ErrNotFound), true},
		{"invalid call", fmt.Errorf("link: %w", store.ErrInvalid), true},
		{"answered by Redis", fmt.Errorf("follow-up: %w", redisReply("WRONGTYPE Operation against a key")), true},
		{"connection refused", fmt.Errorf("link: %w", &net.OpError{Op: "dial", Err: errors.New("refused")}), false},
		{"timeout", fmt.Errorf("link: %w", context.DeadlineExceeded), false},
	}
	for _, tt := range tests {
		if got := permanentStoreError(tt.err); got != tt.permanent {
			t.Errorf("%s: permanent = %v, want %v", tt.name, got, tt.permanent)
		}
	}
}
