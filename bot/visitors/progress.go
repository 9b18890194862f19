package visitors

import (
	"context"
	"errors"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
)

// progressNote is the private note that tells the person who typed a
// command that a long export is under way. It is posted through the
// command's response_url at most once per work, from the export's own
// goroutine (never in the background, so it cannot land after the answer),
// and cleared before the answer is given, so that "Counting visitors…"
// never outlives it.
//
// The note outlives no replica that dies between posting and clearing it:
// posting records markNote on the work, so the progress note of a later
// attempt (on any replica) starts as shown, posts no second note and
// deletes the earlier one before its answer. delete_original acts on the
// response_url's last message, and nothing but the note goes through the
// response_url before the answer. Clearing records that the note is gone,
// so that a later attempt (the answer may have been given) neither deletes
// the answer nor spends the response_url's few uses on a second note.
type progressNote struct {
	v   *visitors
	w   *bot.Work
	cmd slack.SlashCommand
	r   dateRange
	// posted reports that the note was posted, by this attempt or an
	// earlier one: it is not posted again.
	posted bool
	// shown reports that the note was posted and not cleared since: the
	// response_url's last message is the note.
	shown bool
}

// markNote is the checkpoint of a progress note: noteShown once posted,
// noteCleared once deleted.
const (
	markNote    = "note"
	noteShown   = "shown"
	noteCleared = "cleared"
)

// clearNoteBudget bounds the deletion of a progress note.
const clearNoteBudget = 10 * time.Second

// progress returns the progress note of cmd's export of r, done as w:
// shown when an earlier attempt at w posted it and did not clear it.
func (v *visitors) progress(w *bot.Work, cmd slack.SlashCommand, r dateRange) *progressNote {
	state := w.Marked(markNote)
	return &progressNote{v: v, w: w, cmd: cmd, r: r, posted: state != "", shown: state == noteShown}
}

// show posts the note; it is export's progress callback. Posting is a step
// of the work (bot.Work.Step on markNote, noteShown): posted once across
// attempts. The note is cosmetic: a failure is logged, and the work goes
// on.
func (n *progressNote) show(ctx context.Context) func() {
	return func() {
		if n.posted || n.cmd.ResponseURL == "" {
			return
		}
		_, err := n.w.Step(ctx, markNote, func(ctx context.Context) (string, error) {
			if err := n.v.core.Respond(ctx, n.cmd, bot.Reply(&slack.WebhookMessage{ResponseType: slack.ResponseTypeEphemeral, Text: progressText(n.r, 2)})); err != nil {
				return "", err
			}
			n.posted, n.shown = true, true
			return noteShown, nil
		})
		switch {
		case errors.Is(err, bot.ErrUnmarked):
			n.v.log.Warn("recording the progress note's state failed", "user", n.cmd.UserID, "note", noteShown, "err", err)
		case err != nil:
			n.v.log.Warn("posting the progress note failed", "user", n.cmd.UserID, "err", err)
		}
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
	if err := n.v.core.Respond(ctx, n.cmd, bot.Reply(&slack.WebhookMessage{DeleteOriginal: true})); err != nil {
		n.v.log.Warn("deleting the progress note failed", "user", n.cmd.UserID, "err", err)
	}
	n.mark(ctx, noteCleared)
}

// mark records the note's state on the work past its step (show): cleared
// rewrites the mark shown. The note is cosmetic: a mark that cannot be
// recorded is logged, and the work goes on.
func (n *progressNote) mark(ctx context.Context, state string) {
	if err := n.w.Mark(ctx, map[string]string{markNote: state}); err != nil {
		n.v.log.Warn("recording the progress note's state failed", "user", n.cmd.UserID, "note", state, "err", err)
	}
}
