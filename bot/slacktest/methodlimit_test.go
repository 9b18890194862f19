package slacktest

import (
	"errors"
	"testing"
	"time"

	"github.com/slack-go/slack"
)

func TestMethodLimit(t *testing.T) {
	t.Parallel()
	clk := NewManualClock(time.Now())
	_, api := connectedServer(t, WithClock(clk.Now), WithEchoBotMessages(false), WithMethodLimit("chat.update", Tier3PerMinute, 2))
	ctx := testContext(t)
	_, ts, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("working", false))
	if err != nil {
		t.Fatal(err)
	}
	update := func() error {
		_, _, _, err := api.UpdateMessageContext(ctx, "C0GENERAL", ts, slack.MsgOptionText("still working", false))
		return err
	}
	tests := []struct {
		name        string
		advance     time.Duration
		wantLimited bool
	}{
		{"first of the burst", 0, false},
		{"second of the burst", 0, false},
		{"over the burst", 0, true},
		{"still over after 1s", time.Second, true},
		{"one refilled after 1.2s more", 1200 * time.Millisecond, false},
	}
	for _, tc := range tests {
		clk.Advance(tc.advance)
		err := update()
		var rl *slack.RateLimitedError
		limited := errors.As(err, &rl)
		if limited != tc.wantLimited || (!limited && err != nil) {
			t.Errorf("%s: err %v, want limited %v", tc.name, err, tc.wantLimited)
		}
		if limited && rl.RetryAfter < time.Second {
			t.Errorf("%s: Retry-After %v, want at least 1s", tc.name, rl.RetryAfter)
		}
	}
	// Other methods are not limited.
	for range 5 {
		if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("x", false)); err != nil {
			t.Fatal(err)
		}
	}
}
