package ask

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// Limits of what one answer shows.
const (
	// pieceMax is the most characters of the answer one chat.startStream,
	// appendStream or stopStream call carries: defused (a zero-width space
	// after some '<'), at most twice as many, within Slack's 12,000.
	pieceMax = 5500
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
type writer struct {
	core      *bot.Bot
	channel   string
	thread    string // the thread's ts
	user      string // the recipient of a stream in a channel
	team      string
	interval  time.Duration
	site      *url.URL
	log       *slog.Logger
	onStarted func(ctx context.Context, ts string) error // records the answer's ts before more is shown

	ts         string    // the answer's message, once shown
	firstShown time.Time // when its first text was shown
	fallback   bool      // a posted and edited message, not a stream
	text       strings.Builder
	sent       int // bytes of text shown (to Slack) so far
	last       time.Time
	cut        bool
}

// add appends a delta of the answer's text.
func (w *writer) add(delta string) { w.text.WriteString(delta) }

// showable is the part of the text that may be shown now: up to a
// suggestions block, without a last line that may still become one (it
// begins with '`') unless final, and within shownMax.
func (w *writer) showable(final bool) string {
	t := w.text.String()
	if i := strings.Index(t, suggestionsFence); i >= 0 {
		t = t[:i]
	} else if !final {
		if nl := strings.LastIndexByte(t, '\n'); strings.HasPrefix(strings.TrimSpace(t[nl+1:]), "`") {
			t = t[:nl+1]
		}
	}
	if !final {
		// A link not closed yet waits, so that it is sent whole
		// (linksOn).
		if i := strings.LastIndexByte(t, '['); i >= 0 && !strings.Contains(t[i:], ")") {
			t = t[:i]
		}
	}
	if utf8.RuneCountInString(t) > shownMax {
		w.cut = true
		t = string([]rune(t)[:shownMax])
	}
	return t
}

// due reports whether an update may be sent now.
func (w *writer) due(now time.Time) bool {
	return w.ts == "" || now.Sub(w.last) >= w.interval
}

// flush shows what arrived since the last call, if anything may be shown
// and the interval allows (always for the first text).
func (w *writer) flush(ctx context.Context, now time.Time) error {
	if !w.due(now) {
		return nil
	}
	show := w.showable(false)
	if len(show) <= w.sent {
		return nil
	}
	raw := cutRunes(show[w.sent:], pieceMax)
	piece, consumed := w.piece(raw)
	if piece == "" {
		return nil
	}
	if err := w.send(ctx, piece, w.sent+consumed); err != nil {
		return err
	}
	w.sent += consumed
	w.last = time.Now() // after the call: the next one reaches Slack at least an interval after this one
	return nil
}

// send shows piece, the next defused part of the text, which brings what
// is shown up to byte upTo of the text: it starts the answer's message with
// the first, then appends.
func (w *writer) send(ctx context.Context, piece string, upTo int) error {
	if w.ts == "" {
		return w.start(ctx, piece, upTo)
	}
	if w.fallback {
		return w.core.EditNow(ctx, w.channel, w.ts, slack.MsgOptionText(w.fallbackText(upTo), false))
	}
	_, _, err := w.core.Slack().AppendStreamContext(ctx, w.channel, w.ts, slack.MsgOptionMarkdownText(piece))
	return err
}

// start shows the answer's first text (first, defused; the text up to byte
// upTo): a stream, or a posted message where Slack refuses to stream (any
// refusal that is not a passing failure).
func (w *writer) start(ctx context.Context, first string, upTo int) error {
	ts, err := w.core.StartStream(ctx, w.channel, slack.MsgOptionTS(w.thread), slack.MsgOptionMarkdownText(first),
		slack.MsgOptionRecipientUserID(w.user), slack.MsgOptionRecipientTeamID(w.team))
	var se slack.SlackErrorResponse
	if err != nil && errors.As(err, &se) && !bot.TransientSlack(err) {
		w.log.Info("Slack refused to stream the answer; posting it and editing it instead", "err", se.Err)
		w.fallback = true
		ts, err = w.core.Post(ctx, w.channel, slack.MsgOptionTS(w.thread), slack.MsgOptionText(cmp.Or(w.fallbackText(upTo), "…"), false))
	}
	if err != nil {
		return err
	}
	w.ts, w.firstShown = ts, time.Now()
	return w.onStarted(ctx, ts)
}

// pending reports whether text arrived that is not shown yet.
func (w *writer) pending() bool { return len(w.showable(false)) > w.sent }

// piece is what of raw, the next part of the text, may be sent now: its
// links made absolute and its markup defused, and how many bytes of raw it
// takes (a last '<' waits for the character after it).
func (w *writer) piece(raw string) (string, int) {
	if strings.HasSuffix(raw, "<") {
		raw = raw[:len(raw)-1]
	}
	return mrkdwn.Defuse(linksOn(raw, w.site)), len(raw)
}

// mdLink is a markdown link or image: its label and its target.
var mdLink = regexp.MustCompile(`(!?\[[^\]\n]*\])\(([^)\s]+)\)`)

// linksOn makes the markdown links of md that point at a docs path ("/…")
// absolute on site, since Slack cannot follow a relative link; with no site
// they stay as they are.
func linksOn(md string, site *url.URL) string {
	if site == nil || !strings.Contains(md, "](/") {
		return md
	}
	return mdLink.ReplaceAllStringFunc(md, func(l string) string {
		m := mdLink.FindStringSubmatch(l)
		u, err := url.Parse(m[2])
		if err != nil || u.IsAbs() || !strings.HasPrefix(m[2], "/") {
			return l
		}
		return m[1] + "(" + site.ResolveReference(u).String() + ")"
	})
}

// fallbackText is the text shown so far as mrkdwn, for the edited message.
func (w *writer) fallbackText(upTo int) string {
	show := w.showable(true)
	if upTo < len(show) {
		show = show[:upTo]
	}
	return mrkdwn.FromMarkdown(show, w.site)
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
	for rest := show[min(w.sent, len(show)):]; rest != ""; {
		raw := cutRunes(rest, pieceMax)
		pieces = append(pieces, mrkdwn.Defuse(linksOn(raw, w.site)))
		rest = rest[len(raw):]
	}
	if note != "" {
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
	for _, p := range pieces {
		if _, _, err := w.core.Slack().AppendStreamContext(ctx, w.channel, w.ts, slack.MsgOptionMarkdownText(p)); err != nil {
			return err
		}
	}
	opts := []slack.MsgOption{slack.MsgOptionBlocks(blocks...)}
	if last != "" && utf8.RuneCountInString(last) <= 2*pieceMax {
		opts = append(opts, slack.MsgOptionMarkdownText(last))
	}
	_, _, err := w.core.Slack().StopStreamContext(ctx, w.channel, w.ts, opts...)
	w.sent = len(show)
	return err
}

// finishEdited ends an answer shown as a posted message: the whole text
// as mrkdwn, the note, and blocks under it.
func (w *writer) finishEdited(ctx context.Context, show, note string, blocks []slack.Block) error {
	text := mrkdwn.FromMarkdown(show, w.site)
	if note != "" {
		text += "\n\n" + mrkdwn.FromMarkdown(note, nil)
	}
	if strings.TrimSpace(text) == "" {
		text = "_The docs assistant gave no answer._"
	}
	all := append([]slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, mrkdwn.Cut(text, 3000), false, false), nil, nil)}, blocks...)
	opts := []slack.MsgOption{slack.MsgOptionText(mrkdwn.Cut(text, 38000), false), slack.MsgOptionBlocks(all...)}
	if w.ts == "" {
		ts, err := w.core.Post(ctx, w.channel, append(opts, slack.MsgOptionTS(w.thread))...)
		if err != nil {
			return err
		}
		w.ts = ts
		return w.onStarted(ctx, ts)
	}
	return w.core.EditNow(ctx, w.channel, w.ts, opts...)
}

// cutRunes is the first n runes of s.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
