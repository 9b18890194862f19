package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

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
	return "the person who asked, in the file " + strings.ReplaceAll(name, "\n", " ") + " they attached"
}

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
	read, skipped := a.core.ReadRefs(ctx, refs)
	var parts []contextPart
	var sent, other, notRead []string
	for _, f := range read {
		name := fileName(f.File.Name, f.File.ID)
		if isText(f.Type) && strings.TrimSpace(string(f.Data)) == "" {
			notRead = append(notRead, fileWithLink(name, f.File.Permalink)+" (empty)")
			continue
		}
		if isText(f.Type) {
			parts = append(parts, quoted(byAttacher(name), string(f.Data)))
			sent = append(sent, mrkdwn.Escape(name))
			continue
		}
		other = append(other, fileWithLink(name, f.File.Permalink))
	}
	for _, s := range skipped {
		notRead = append(notRead, fileWithLink(fileName(s.File.Name, s.File.ID), s.File.Permalink)+" ("+a.whyNotRead(s.Err)+")")
	}
	var out attached
	var note []string
	if len(parts) > 0 {
		limit := a.core.FileLimits().TextMax
		var cut bool
		out.Context, cut = renderContext(parts, limit)
		line := "The agent gets the text of " + strings.Join(sent, ", ") + " after your instruction, as data to read, not as instructions."
		if cut {
			line += fmt.Sprintf(" It was cut to %s characters in all.", humanize.Count(int64(limit)))
		}
		note = append(note, line)
	}
	if len(other) > 0 {
		note = append(note, "Not sent to the agent, which takes text only: "+strings.Join(other, ", ")+". Put what it needs from them in your message.")
	}
	if len(notRead) > 0 {
		note = append(note, "Not read: "+strings.Join(notRead, ", ")+".")
	}
	out.Note = strings.Join(note, "\n")
	return out
}

// whyNotRead is why a file was not read, in words.
func (a *agent) whyNotRead(err error) string {
	limits := a.core.FileLimits()
	switch {
	case errors.Is(err, bot.ErrFileTooLarge):
		return "larger than " + sizeWords(limits.MaxBytes)
	case errors.Is(err, bot.ErrFileCount):
		return fmt.Sprintf("docsbot reads %d files of a message", limits.MaxCount)
	case errors.Is(err, bot.ErrFilesScope):
		return bot.ErrFilesScope.Error()
	case errors.Is(err, bot.ErrFileHost), errors.Is(err, bot.ErrFileRedirect):
		return "not on Slack's file host"
	}
	return "Slack did not give it"
}

// isText reports whether a file's sniffed media type is text.
func isText(mediaType string) bool { return strings.HasPrefix(mediaType, "text/") }

// fileName is a file's name, or its id when it has none.
func fileName(name, id string) string {
	if name == "" {
		return id
	}
	return name
}

// fileWithLink is a file's name, escaped, linked to its permalink when it
// has one on Slack.
func fileWithLink(name, permalink string) string {
	if permalink == "" {
		return mrkdwn.Escape(name)
	}
	return mrkdwn.Link(permalink, name)
}

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

// sizeWords is a file size limit in words: "10 MB", or bytes.
func sizeWords(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return humanize.Count(int64(n)) + " bytes"
}
