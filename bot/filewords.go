package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// Files in words: what the features tell people of the files they
// attached, the one way.

// FileName is f's name, or its id when it has none.
func FileName(f slack.File) string {
	if f.Name == "" {
		return f.ID
	}
	return f.Name
}

// FileLink is f's name (FileName), escaped, linked to its permalink when it
// has one.
func FileLink(f slack.File) string {
	if f.Permalink == "" {
		return mrkdwn.Escape(FileName(f))
	}
	return mrkdwn.Link(f.Permalink, FileName(f))
}

// WhyNotRead is why a file was not read (ReadFiles' SkippedFile.Err), in
// words.
func (l FileLimits) WhyNotRead(err error) string {
	switch {
	case errors.Is(err, ErrFileTooLarge):
		return "larger than " + sizeWords(l.MaxBytes)
	case errors.Is(err, ErrFileCount):
		return fmt.Sprintf("docsbot reads %d files of a message", l.MaxCount)
	case errors.Is(err, ErrFilesScope):
		return ErrFilesScope.Error()
	case errors.Is(err, ErrFileHost), errors.Is(err, ErrFileRedirect):
		return "not on Slack's file host"
	case errors.Is(err, context.DeadlineExceeded):
		return "not read in time"
	}
	return "Slack did not give it"
}

// sizeWords is a size limit in words: "10 MB", or bytes.
func sizeWords(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return humanize.Count(int64(n)) + " bytes"
}
