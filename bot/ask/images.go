package ask

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
)

// Images a question comes with (bot.Question.Files: a mention's, a DM's,
// a help channel's or the pane's question, a reply in an answer's thread)
// go to the assistant with it, as file parts of the question
// (docsapi.DataFile: the bytes, with the media type sniffed from them):
// PNG, JPEG, GIF and WebP, read within the core's bot.FileLimits (count and
// size each). They are read before the assistant is asked, on every
// attempt that asks (the bytes are kept nowhere). The answer ends saying
// which images the assistant looked at; the asker is told privately, once,
// of the files not sent (not images) and not read (too large, past the
// count, without files:read). A service that refuses a question with files
// (docsapi.ErrFilesRefused: it answered nothing) is asked again without
// them, and the answer says so.

// imageTypes are the media types of the images the assistant is sent.
var imageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// markFilesNote marks a question's work once its asker was told of the
// files not sent.
const markFilesNote = "files_note"

// images is what a question's files give its answer: the images as file
// parts and their names, and what to tell the asker of the other files
// ("" when nothing).
type images struct {
	files []docsapi.FilePart
	names []string
	note  string
}

// readImages reads q's files for its answer.
func (a *answers) readImages(ctx context.Context, q bot.Question) images {
	var out images
	if len(q.Files) == 0 {
		return out
	}
	read, skipped := a.core.ReadRefs(ctx, q.Files)
	var other, notRead []string
	for _, f := range read {
		if !slices.Contains(imageTypes, f.Type) {
			other = append(other, bot.FileLink(f.File))
			continue
		}
		out.files = append(out.files, docsapi.DataFile(f.Type, bot.FileName(f.File), f.Data))
		out.names = append(out.names, bot.FileName(f.File))
	}
	for _, s := range skipped {
		notRead = append(notRead, bot.FileLink(s.File)+" ("+a.core.FileLimits().WhyNotRead(s.Err)+")")
	}
	var lines []string
	if len(other) > 0 {
		lines = append(lines, "Not sent to the docs assistant, which looks at images only (PNG, JPEG, GIF, WebP): "+strings.Join(other, ", ")+".")
	}
	if len(notRead) > 0 {
		lines = append(lines, "Not read: "+strings.Join(notRead, ", ")+".")
	}
	out.note = strings.Join(lines, "\n")
	return out
}

// noteImages tells the asker of q, privately and once (markFilesNote), in
// the thread its answer goes in, what became of the files the assistant
// was not sent.
func (a *answers) noteImages(ctx context.Context, w *bot.Work, q bot.Question, note string, log *slog.Logger) {
	if note == "" {
		return
	}
	q.ThreadTS = cmp.Or(q.ThreadTS, q.TS)
	if _, err := w.Step(ctx, markFilesNote, func(ctx context.Context) (string, error) {
		a.tell(ctx, q, note, log)
		return "1", nil
	}); err != nil {
		log.Warn("recording the note about files failed", "err", err)
	}
}

// imagesLine is the line an answer ends with about its images (markdown of
// docsbot's own, the names as code): the ones the assistant looked at, or,
// refused, that it answered without them; "" when there were none.
func imagesLine(names []string, refused bool) string {
	if len(names) == 0 {
		return ""
	}
	shown := make([]string, len(names))
	for i, n := range names {
		shown[i] = mrkdwn.Defuse(mrkdwn.Inert(n))
	}
	list := shown[len(shown)-1]
	if len(shown) > 1 {
		list = strings.Join(shown[:len(shown)-1], ", ") + " and " + list
	}
	image := "the image "
	if len(names) > 1 {
		image = "the images "
	}
	if refused {
		return "_The docs assistant did not take " + image + list + ", so this answer is from your words alone._"
	}
	return "_The docs assistant looked at " + image + list + "._"
}
