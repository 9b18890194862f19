package bot

import (
	"context"
	"iter"

	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/docsapi"
)

// VisitorsAPI is what /docs-visitors needs from the docs API.
type VisitorsAPI interface {
	VisitorPages(ctx context.Context, p docsapi.VisitorsParams) iter.Seq2[*docsapi.VisitorsPage, error]
}

// VisitorsStore is what /docs-visitors keeps in Redis.
type VisitorsStore interface{}

// onVisitorsCommand handles /docs-visitors.
func (b *Bot) onVisitorsCommand(ctx context.Context, evt *socketmode.Event, client *socketmode.Client) {
	b.ack(client, evt.Request, ephemeral("/docs-visitors is not available yet."))
}
