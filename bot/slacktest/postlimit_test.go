package slacktest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestPostLimit posts a burst into one channel with the real slack-go client:
// the burst goes through, the next post is refused with Slack's 429 and a
// Retry-After, another channel is not affected, and after the wait a post
// goes through again. The server's clock is moved by hand, so slow round
// trips refill nothing.
func TestPostLimit(t *testing.T) {
	clk := slacktest.NewManualClock(time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC))
	s := slacktest.NewServer(slacktest.WithClock(clk.Now), slacktest.WithPostLimit(1, 3))
	t.Cleanup(s.Close)
	s.AddChannel(slacktest.Channel{ID: "C0OTHER", Name: "other", BotMember: true})
	api := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL))
	post := func(channel string) error {
		_, _, err := api.PostMessageContext(t.Context(), channel, slack.MsgOptionText("hello", false))
		return err
	}
	for i := range 3 {
		if err := post("C0GENERAL"); err != nil {
			t.Fatalf("post %d of the burst: %v", i+1, err)
		}
	}
	err := post("C0GENERAL")
	rl, ok := errors.AsType[*slack.RateLimitedError](err)
	if !ok || rl.RetryAfter < time.Second {
		t.Fatalf("post over the limit = %v, want a RateLimitedError with Retry-After of 1s or more", err)
	}
	if err := post("C0OTHER"); err != nil {
		t.Fatalf("post in another channel: %v", err)
	}
	if got := s.RateLimited()["C0GENERAL"]; got != 1 {
		t.Fatalf("RateLimited()[C0GENERAL] = %d, want 1", got)
	}
	if n := len(s.Messages("C0GENERAL")); n != 3 {
		t.Fatalf("%d messages in the channel, want the 3 of the burst", n)
	}
	// Just before the wait the bucket is still empty; after it a post fits.
	clk.Advance(rl.RetryAfter - time.Millisecond)
	if _, ok := errors.AsType[*slack.RateLimitedError](post("C0GENERAL")); !ok {
		t.Fatalf("post before Retry-After passed went through, want a RateLimitedError")
	}
	clk.Advance(time.Millisecond)
	if err := post("C0GENERAL"); err != nil {
		t.Fatalf("post after Retry-After: %v", err)
	}
}
