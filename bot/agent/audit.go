package agent

import (
	"context"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// Where a refusal happened, the Detail of its audit record.
const (
	viaCommand  = "/docs-agent"
	viaPost     = "mention or DM"
	viaFollowUp = "follow-up"
	// viaFollowUpButton and viaFollowUpForm are the result's Follow up
	// button and its form.
	viaFollowUpButton = "follow-up button"
	viaFollowUpForm   = "follow-up form"
	viaRetry          = "retry"
	viaShortcut       = "shortcut"
	viaButton         = "improve-page button"
	viaModal          = "job form"
	viaStart          = "job start"
	viaSwitch         = "switch project button"
)

// markAudited records that a piece of work's audit record was appended
// (bot.AuditTrail.Work); a piece of work appends one record.
const markAudited = "audited"

// auditRefusedInAck records a refusal answered in the ack, under the
// delivery's key.
func (a *agent) auditRefusedInAck(ctx context.Context, key string, rec store.AuditRecord) {
	rec.Work = key
	a.core.Audit().Record(ctx, rec)
}

// auditWork records rec once for the work w (bot.AuditTrail.Work).
func (a *agent) auditWork(ctx context.Context, w *bot.Work, rec store.AuditRecord) {
	a.core.Audit().Work(ctx, w, markAudited, rec)
}
