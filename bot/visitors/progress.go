package visitors

import (
	"context"
	"time"

	"github.com/slack-go/slack"
)

// progressNote is the private note that tells the person who typed a
// command that a long export is under way. It is posted through the
// command's response_url at most once, from the export's own goroutine
// (never in the background, so it cannot land after the answer), and
// cleared before the answer is given, so that "Counting visitors…" never
// outlives it.
type progressNote struct {
	v   *visitors
	cmd slack.SlashCommand
	r   dateRange
	// shown reports that the note was posted and not cleared since: the
	// response_url's last message is the note.
	shown bool
}

// clearNoteBudget bounds the deletion of a progress note.
const clearNoteBudget = 10 * time.Second

// progress returns the progress note of cmd's export of r.
func (v *visitors) progress(cmd slack.SlashCommand, r dateRange) *progressNote {
	return &progressNote{v: v, cmd: cmd, r: r}
}

// show posts the note; it is export's progress callback.
func (n *progressNote) show(ctx context.Context) func() {
	return func() {
		if n.shown || n.cmd.ResponseURL == "" {
			return
		}
		if err := n.v.core.Respond(ctx, n.cmd, &slack.WebhookMessage{ResponseType: slack.ResponseTypeEphemeral, Text: progressText(n.r, 2)}); err != nil {
			n.v.log.Warn("posting the progress note failed", "user", n.cmd.UserID, "err", err)
			return
		}
		n.shown = true
	}
}

// clear deletes the note, if it was posted, before the answer is given
// through the same response_url (delete_original acts on its last message,
// which is the note until the answer). A note that cannot be deleted is
// logged: the answer follows all the same.
func (n *progressNote) clear(ctx context.Context) {
	if !n.shown {
		return
	}
	n.shown = false
	// Also when the work's time is up: the answer then says why.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), clearNoteBudget)
	defer cancel()
	if err := n.v.core.Respond(ctx, n.cmd, &slack.WebhookMessage{DeleteOriginal: true}); err != nil {
		n.v.log.Warn("deleting the progress note failed", "user", n.cmd.UserID, "err", err)
	}
}
