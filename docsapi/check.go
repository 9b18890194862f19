package docsapi

import (
	"context"
	"time"
)

// Check tries the key and the project with one real request, not retried:
// it reads one row of the unique visitors of the day of now. No error means
// both are good. It costs one request of the analytics budget (100 an hour
// for the whole organization).
func (c *Client) Check(ctx context.Context, now time.Time) error {
	once := *c
	once.retry = RetryPolicy{MaxAttempts: 1}
	_, err := once.Visitors(ctx, VisitorsParams{From: now.UTC().Format(time.DateOnly), Limit: 1})
	return err
}
