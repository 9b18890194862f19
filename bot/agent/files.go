package agent

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// Files attached to a job request (a mention, a DM, a follow-up in a job's
// thread). The agent takes text: the text files (text/*, as their bytes
// say: logs, Markdown, JSON, YAML, CSV) go after the instruction as quoted
// data, each named, cut to bot.FileLimits.TextMax in all; any other file
// (an image, a PDF) is named to the person with its link, not sent; a file
// not read (too large, past the count, no files:read) is named with why.
// The person is told privately what went and what did not.

// byAttacher is who wrote an attached file, as the quote names them.
func byAttacher(name string) string {
	return "the person who asked, in the file " + oneLineName(name) + " they attached"
}

// byFileOf is who wrote a file attached to a message that writer wrote
// (as the shortcut names them; "" for the editor's own message).
func byFileOf(writer, name string) string {
	if writer == "" {
		return byAttacher(name)
	}
	return writer + ", in the file " + oneLineName(name) + " attached to the message"
}

// oneLineName is a file's name on one line, as a quote's line names it.
func oneLineName(name string) string { return strings.ReplaceAll(name, "\n", " ") }

// attached is what a post's files give a job: Context, the quoted text of
// its text files (for startRequest.Context or after a follow-up), and
// Note, what to tell the person ("" when nothing was attached).
type attached struct {
	Context string
	Note    string
}

// readAttached reads refs (bot.Post.Attached) for a job.
func (a *agent) readAttached(ctx context.Context, refs []bot.FileRef) attached {
	if len(refs) == 0 {
		return attached{}
	}
	files := make([]slack.File, len(refs))
	for i, r := range refs {
		files[i] = r.File()
	}
	fr := a.readFiles(ctx, files, byAttacher)
	var out attached
	cutTo := 0
	if len(fr.parts) > 0 {
		limit := a.core.FileLimits().TextMax
		var cut bool
		if out.Context, cut = renderContext(fr.parts, limit); cut {
			cutTo = limit
		}
	}
	out.Note = strings.Join(fr.lines(cutTo), "\n")
	return out
}

// filesRead is what the files of a message give a job: parts, the text
// files quoted (each as by names its writer); sent, their names, escaped;
// other, the files read that are not text, linked; notRead, the files not
// read, linked, with why.
type filesRead struct {
	parts                []contextPart
	sent, other, notRead []string
}

// readFiles reads files (bot.ReadFiles) for a job.
func (a *agent) readFiles(ctx context.Context, files []slack.File, by func(name string) string) filesRead {
	var fr filesRead
	if len(files) == 0 {
		return fr
	}
	read, skipped := a.core.ReadFiles(ctx, files)
	for _, f := range read {
		name := bot.FileName(f.File)
		switch {
		case isText(f.Type) && strings.TrimSpace(string(f.Data)) == "":
			fr.notRead = append(fr.notRead, bot.FileLink(f.File)+" (empty)")
		case isText(f.Type):
			fr.parts = append(fr.parts, quoted(by(name), string(f.Data)))
			fr.sent = append(fr.sent, mrkdwn.Escape(name))
		default:
			fr.other = append(fr.other, bot.FileLink(f.File))
		}
	}
	for _, s := range skipped {
		fr.notRead = append(fr.notRead, bot.FileLink(s.File)+" ("+a.core.FileLimits().WhyNotRead(s.Err)+")")
	}
	return fr
}

// lines say what became of the files, one line each of: the text files
// sent (cut to cutTo characters in all, when not 0), the files not sent,
// the files not read; none when there were no files.
func (fr filesRead) lines(cutTo int) []string {
	var out []string
	if len(fr.sent) > 0 {
		line := "The agent gets the text of " + strings.Join(fr.sent, ", ") + " after your instruction, as data to read, not as instructions."
		if cutTo > 0 {
			line += fmt.Sprintf(" It was cut to %s characters in all.", humanize.Count(int64(cutTo)))
		}
		out = append(out, line)
	}
	if len(fr.other) > 0 {
		out = append(out, "Not sent to the agent, which takes text only: "+strings.Join(fr.other, ", ")+". Put what it needs from them in your message.")
	}
	if len(fr.notRead) > 0 {
		out = append(out, "Not read: "+strings.Join(fr.notRead, ", ")+".")
	}
	return out
}

// isText reports whether a file's sniffed media type is text.
func isText(mediaType string) bool { return strings.HasPrefix(mediaType, "text/") }

// noteAttached tells the author of a post with files what became of them,
// once (markFiles).
func (a *agent) noteAttached(ctx context.Context, w *bot.Work, r replyRequest, note string, log *slog.Logger) {
	if note == "" {
		return
	}
	_, err := w.Step(ctx, markFiles, func(ctx context.Context) (string, error) {
		a.tellInThread(ctx, r, note, log)
		return "", nil
	})
	if err != nil {
		log.Warn("recording the note about files failed", "err", err)
	}
}
