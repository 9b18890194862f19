package ask

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// Limits of what one answer shows.
const (
	// pieceMax is the most characters of the answer's text one
	// chat.startStream, appendStream or stopStream call carries, before
	// it is made safe (mrkdwn.Markdown: links resolved, addresses put in
	// code, zero-width spaces), which may make it longer.
	pieceMax = 5500
	// pieceMin is the least pieceMax is halved to when a piece made safe
	// is too long for Slack.
	pieceMin = 500
	// sentMax is the most characters of markdown_text one call sends,
	// within Slack's 12,000.
	sentMax = 11000
	// shownMax bounds an answer's text in Slack; what is longer is cut,
	// saying so (its sources still show).
	shownMax = 36000
	// suggestionsFence opens the assistant's block of suggested pages,
	// which is shown as links under the answer, not as text.
	suggestionsFence = "```suggestions"
)

// writer shows one answer in a Slack thread as it arrives: a streamed
// message (chat.startStream, appendStream, stopStream) or, where Slack
// refuses streaming, a message posted and then edited. It calls Slack at
// most once an interval, except for the first text and the end.
//
// Both ways show the same text, made safe by bot/mrkdwn with the links the
// answer may carry (sites): the stream in pieces, each cut by the one rule
// of mrkdwn.NextCut and made safe by mrkdwn.Markdown, as it grows and at
// the end alike; the posted message whole, by mrkdwn.FromMarkdown, at each
// edit.
type writer struct {
	core      *bot.Bot
	channel   string
	thread    string // the thread's ts
	user      string // the recipient of a stream in a channel
	team      string
	interval  time.Duration
	sites     mrkdwn.Sites
	log       *slog.Logger
	onStarted func(ctx context.Context, ts string) error // records the answer's ts before more is shown
	// hold shows nothing as the answer arrives: an unasked question's
	// answer shows whole, and only when it has sources.
	hold bool

	// now is the features' clock (Config.Now), which shownAt is read on.
	now func() time.Time

	ts         string    // the answer's message, once shown
	firstShown time.Time // when its first text was shown
	shownAt    time.Time // the same, on now (the question's outcome keeps the time to it)
	fallback   bool      // a posted and edited message, not a stream
	text       strings.Builder
	sent       int // bytes of text shown (to Slack) so far
	held       int // the length of the text when nothing more of it could be shown
	last       time.Time
	cut        bool
}

// add appends a delta of the answer's text.
func (w *writer) add(delta string) { w.text.WriteString(mrkdwn.StripSentinel(delta)) }

// showable is the part of the text that may be shown now: up to a
// suggestions block, without a last line that may still become one (it
// begins with '`') unless final, and within shownMax (cut after a space).
func (w *writer) showable(final bool) string {
	t := w.text.String()
	if i := strings.Index(t, suggestionsFence); i >= 0 {
		t = t[:i]
	} else if !final {
		if nl := strings.LastIndexByte(t, '\n'); strings.HasPrefix(strings.TrimSpace(t[nl+1:]), "`") {
			t = t[:nl+1]
		}
	}
	if len(t) > shownMax && utf8.RuneCountInString(t) > shownMax {
		w.cut = true
		t = t[:mrkdwn.NextCut(t, 0, shownMax, false)]
	}
	return t
}

// due reports whether an update may be sent now.
func (w *writer) due(now time.Time) bool {
	return w.ts == "" || now.Sub(w.last) >= w.interval
}

// next is the piece of show (the text to show, final when it is all) that
// starts at byte from, made safe to send (mrkdwn.Markdown), and where it
// ends: "", from when nothing more may be shown yet. It is the one cutting
// rule of both the pieces shown as the answer grows and those of its end.
func (w *writer) next(show string, from int, final bool) (string, int) {
	for most := pieceMax; ; most /= 2 {
		end := mrkdwn.NextCut(show, from, most, final)
		if end <= from {
			return "", from
		}
		piece := mrkdwn.Markdown(show, from, end, w.sites)
		if utf8.RuneCountInString(piece) <= sentMax || most <= pieceMin {
			return piece, end
		}
	}
}

// flush shows what arrived since the last call, if anything may be shown
// and the interval allows (always for the first text).
func (w *writer) flush(ctx context.Context, now time.Time) error {
	if w.hold || !w.due(now) {
		return nil
	}
	show := w.showable(false)
	piece, end := w.next(show, w.sent, false)
	if piece == "" {
		w.held = w.text.Len()
		return nil
	}
	if err := w.send(ctx, piece, end); err != nil {
		return err
	}
	w.sent = end
	w.last = time.Now() // after the call: the next one reaches Slack at least an interval after this one
	return nil
}

// send shows piece, the next safe part of the text, which brings what is
// shown up to byte upTo of the text: it starts the answer's message with
// the first, then appends.
func (w *writer) send(ctx context.Context, piece string, upTo int) error {
	if w.ts == "" {
		return w.start(ctx, piece, upTo)
	}
	if w.fallback {
		return w.core.EditNow(ctx, w.channel, w.ts, bot.Plain{slack.MsgOptionText(w.fallbackText(upTo), false)})
	}
	_, _, err := w.core.SlackIn(ctx).AppendStreamContext(ctx, w.channel, w.ts, slack.MsgOptionMarkdownText(piece))
	return err
}

// start shows the answer's first text (first, safe; the text up to byte
// upTo): a stream, or a posted message where Slack refuses to stream (any
// refusal that is not a passing failure).
func (w *writer) start(ctx context.Context, first string, upTo int) error {
	ts, err := w.core.StartStream(ctx, w.channel, slack.MsgOptionTS(w.thread), slack.MsgOptionMarkdownText(first),
		slack.MsgOptionRecipientUserID(w.user), slack.MsgOptionRecipientTeamID(w.team))
	var se slack.SlackErrorResponse
	if err != nil && errors.As(err, &se) && !bot.TransientSlack(err) {
		w.log.Info("Slack refused to stream the answer; posting it and editing it instead", "err", se.Err)
		w.fallback = true
		ts, err = w.core.Post(ctx, w.channel, bot.Plain{slack.MsgOptionTS(w.thread), slack.MsgOptionText(cmp.Or(w.fallbackText(upTo), "…"), false)})
	}
	if err != nil {
		return err
	}
	w.ts, w.firstShown = ts, time.Now()
	if w.now != nil {
		w.shownAt = w.now()
	}
	return w.started(ctx, ts)
}

// started records the ts of the answer's message, now shown (onStarted).
// Only a lost claim stops the answer there (store.ErrStale: another
// replica has the work; store.ErrNotFound: its record is gone and another
// stands in its place); a record that cannot be written now (Redis away)
// is no reason to leave the person a message cut short: the answer goes
// on, and only an attempt after a crash would not know the message.
func (w *writer) started(ctx context.Context, ts string) error {
	err := w.onStarted(ctx, ts)
	if err == nil || errors.Is(err, store.ErrStale) || errors.Is(err, store.ErrNotFound) {
		return err
	}
	w.log.Warn("the answer's message shows, but its record was not written; going on with it", "err", err)
	return nil
}

// pending reports whether text arrived that is not shown yet and may be
// shown: not when the last flush that was due found nothing to show and no
// text came since.
func (w *writer) pending() bool {
	n := w.text.Len()
	return !w.hold && n > w.sent && n != w.held
}

// fallbackText is the text shown so far as mrkdwn, for the edited message.
func (w *writer) fallbackText(upTo int) string {
	show := w.showable(true)
	if upTo < len(show) {
		show = show[:upTo]
	}
	return mrkdwn.FromMarkdown(show, w.sites)
}

// finish shows the rest of the text, then note (markdown of docsbot's own,
// may be ""), and ends the answer with blocks under it.
func (w *writer) finish(ctx context.Context, note string, blocks []slack.Block) error {
	show := w.showable(true)
	if w.cut {
		note = strings.TrimSpace(note + "\n\n_This answer is longer than Slack shows; the rest is in the sources below._")
	}
	if w.fallback {
		return w.finishEdited(ctx, show, note, blocks)
	}
	// The rest of the text in pieces a call takes, the last with the stop.
	var pieces []string
	for from := min(w.sent, len(show)); from < len(show); {
		piece, end := w.next(show, from, true)
		pieces = append(pieces, piece)
		from = end
	}
	if note != "" {
		if mrkdwn.FenceOpen(show) {
			note = "```\n\n" + note // the answer was cut inside a code block: close it
		}
		pieces = append(pieces, "\n\n"+note)
	}
	if w.ts == "" {
		if len(pieces) == 0 {
			pieces = []string{"_The docs assistant gave no answer._"}
		}
		if err := w.start(ctx, pieces[0], len(show)); err != nil {
			return err
		}
		pieces = pieces[1:]
		if w.fallback {
			return w.finishEdited(ctx, show, note, blocks)
		}
	}
	last := ""
	if len(pieces) > 0 {
		last, pieces = pieces[len(pieces)-1], pieces[:len(pieces)-1]
	}
	if utf8.RuneCountInString(last) > sentMax {
		pieces, last = append(pieces, last), "" // a note too long to go with the stop
	}
	for _, p := range pieces {
		if _, _, err := w.core.SlackIn(ctx).AppendStreamContext(ctx, w.channel, w.ts, slack.MsgOptionMarkdownText(p)); err != nil {
			return err
		}
	}
	opts := []slack.MsgOption{slack.MsgOptionBlocks(blocks...)}
	if last != "" {
		opts = append(opts, slack.MsgOptionMarkdownText(last))
	}
	_, _, err := w.core.SlackIn(ctx).StopStreamContext(ctx, w.channel, w.ts, opts...)
	w.sent = len(show)
	return err
}

// finishEdited ends an answer shown as a posted message: the whole text
// as mrkdwn, the note, and blocks under it.
func (w *writer) finishEdited(ctx context.Context, show, note string, blocks []slack.Block) error {
	text := mrkdwn.FromMarkdown(show, w.sites)
	if note != "" {
		text += "\n\n" + mrkdwn.FromMarkdown(note, mrkdwn.Sites{})
	}
	if strings.TrimSpace(text) == "" {
		text = "_The docs assistant gave no answer._"
	}
	all := append([]slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, mrkdwn.Cut(text, 3000), false, false), nil, nil)}, blocks...)
	opts := []slack.MsgOption{slack.MsgOptionText(mrkdwn.Cut(text, 38000), false), slack.MsgOptionBlocks(all...)}
	if w.ts == "" {
		ts, err := w.core.Post(ctx, w.channel, bot.Plain(opts), slack.MsgOptionTS(w.thread))
		if err != nil {
			return err
		}
		w.ts = ts
		return w.started(ctx, ts)
	}
	return w.core.EditNow(ctx, w.channel, w.ts, bot.Plain(opts))
}
