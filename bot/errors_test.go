package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/slack-go/slack"
)

// TestTransientSlack is the one classification of Slack failures: Slack's
// own trouble and the network may pass, an answer about the call does not.
func TestTransientSlack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"network", io.ErrUnexpectedEOF, true},
		{"timeout", context.DeadlineExceeded, true},
		{"rate limited", &slack.RateLimitedError{}, true},
		{"HTTP 503", slack.StatusCodeError{Code: 503}, true},
		{"HTTP 429", slack.StatusCodeError{Code: 429}, true},
		{"HTTP 404", slack.StatusCodeError{Code: 404}, false},
		{"internal_error", slack.SlackErrorResponse{Err: "internal_error"}, true},
		{"fatal_error", slack.SlackErrorResponse{Err: "fatal_error"}, true},
		{"service_unavailable", slack.SlackErrorResponse{Err: "service_unavailable"}, true},
		{"request_timeout", slack.SlackErrorResponse{Err: "request_timeout"}, true},
		{"wrapped internal_error", fmt.Errorf("posting: %w", slack.SlackErrorResponse{Err: "internal_error"}), true},
		{"not_in_channel", slack.SlackErrorResponse{Err: "not_in_channel"}, false},
		{"is_archived", slack.SlackErrorResponse{Err: "is_archived"}, false},
		{"invalid_blocks", slack.SlackErrorResponse{Err: "invalid_blocks"}, false},
		{"msg_too_long", slack.SlackErrorResponse{Err: "msg_too_long"}, false},
		{"invalid_auth", slack.SlackErrorResponse{Err: "invalid_auth"}, false},
		{"joined", errors.Join(errors.New("x"), slack.SlackErrorResponse{Err: "channel_not_found"}), false},
	} {
		if got := TransientSlack(tc.err); got != tc.want {
			t.Errorf("%s: TransientSlack = %v, want %v", tc.name, got, tc.want)
		}
	}
}
