package visitors

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/csvexport"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// markCSV is the checkpoint of a CSV file uploaded: its file id.
const markCSV = "csv"

// postCSV answers `csv`: every page of the range (under the path prefix, if
// one is given) as a CSV file uploaded in the channel. The upload is the
// work's step (markCSV, the file's id): an attempt after it exports and
// uploads nothing.
func (v *visitors) postCSV(ctx context.Context, w *bot.Work, t target, cmd slack.SlashCommand, req visitorsRequest) error {
	log := v.log.With("user", cmd.UserID, "channel", cmd.ChannelID, "range", req.Range.String(), "csv", true, "project", t.proj.Name)
	_, err := w.Step(ctx, markCSV, func(ctx context.Context) (string, error) {
		return v.uploadCSV(ctx, w, t, cmd, req, log)
	})
	return bot.Settle(err, log, "recording the CSV's upload failed")
}

// errNoCSV is why a CSV's step ends unmarked, the work done: the person was
// told why there is no file.
var errNoCSV = fmt.Errorf("visitors: no CSV uploaded: %w", bot.ErrNoMark)

// uploadCSV exports the range's pages and uploads them as a CSV file; it
// returns the file's id, errNoCSV when the person was told why not, or
// Later.
func (v *visitors) uploadCSV(ctx context.Context, w *bot.Work, t target, cmd slack.SlashCommand, req visitorsRequest, log *slog.Logger) (string, error) {
	note := v.progress(w, cmd, req.Range)
	ex, err := v.export(ctx, t, v.spenderOf(ctx, cmd), req.Range, note.show(ctx), log)
	note.clear(ctx)
	if err != nil {
		log.Warn("visitors CSV failed", "err", err)
		v.core.ReplyPrivately(ctx, cmd, bot.Describe(err))
		return "", errNoCSV
	}
	data, rows, err := visitorsCSV(ex.Snap.Pages, req.Path)
	if err != nil {
		return "", fmt.Errorf("writing the visitors CSV: %w", err)
	}
	from, _ := req.Range.Params()
	of := project.Of(t.label())
	comment := fmt.Sprintf("Unique visitors of %s pages%s, %s (UTC), asked by %s.", humanize.Count(int64(rows)), of, req.Range, mrkdwn.Mention(cmd.UserID))
	if req.Path != "" {
		comment = fmt.Sprintf("Unique visitors of the %s pages under %s%s, %s (UTC), asked by %s.", humanize.Count(int64(rows)), inlineCode(req.Path), of, req.Range, mrkdwn.Mention(cmd.UserID))
	}
	if ex.Stale != "" {
		comment += " :hourglass: These numbers are from " + humanize.Ago(ex.Age) + ": " + ex.Stale
	}
	f, err := v.core.SlackIn(ctx).UploadFileContext(ctx, slack.UploadFileParameters{
		Reader:         bytes.NewReader(data),
		FileSize:       len(data),
		Filename:       "docs-visitors-" + fileProject(t.label()) + from + "-" + req.Range.Last.Format(time.DateOnly) + ".csv",
		Title:          "Docs visitors by page" + project.OfPlain(t.label()) + ", " + req.Range.String(),
		Channel:        cmd.ChannelID,
		InitialComment: comment,
	})
	if err != nil {
		if ctx.Err() != nil {
			// Cut short by the shutdown: handed back (store/doc.go,
			// "Handing back"), not ended with a message it cannot send.
			return "", fmt.Errorf("uploading the visitors CSV: %w", err)
		}
		if bot.TransientSlack(err) {
			return "", bot.Later(time.Minute, err)
		}
		log.Warn("uploading the visitors CSV failed", "err", err)
		v.core.ReplyPrivately(ctx, cmd, bot.Describe(err))
		return "", errNoCSV
	}
	log.Info("visitors CSV posted", "file", f.ID, "rows", rows)
	return f.ID, nil
}

// visitorsCSV writes the pages whose path starts with prefix, in the
// export's order, as the command line does (csvexport.WriteVisitors: a
// header, one row per page, paths kept from being read as spreadsheet
// formulas), and counts them.
func visitorsCSV(pages []store.VisitorPage, prefix string) ([]byte, int, error) {
	page := &docsapi.VisitorsPage{Visitors: make([]docsapi.PageVisitors, 0, len(pages))}
	for _, p := range pages {
		if strings.HasPrefix(p.Path, prefix) {
			page.Visitors = append(page.Visitors, docsapi.PageVisitors{Path: p.Path, Counts: apiCounts(p.VisitorCounts)})
		}
	}
	var b bytes.Buffer
	if err := csvexport.WriteVisitors(&b, page); err != nil {
		return nil, 0, err
	}
	return b.Bytes(), len(page.Visitors), nil
}
