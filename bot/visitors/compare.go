package visitors

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/visitors/insight"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// comparisonReport is everything a comparison shows.
type comparisonReport struct {
	Req       visitorsRequest
	Prev      dateRange
	Cmp       *insight.Comparison
	Requester string
	// Stale, when not "", says why older data than usual is shown.
	Stale []string
}

// previousRange is the range of the same length that ends the day before r.
func previousRange(r dateRange) dateRange {
	first, last := insight.PreviousRange(r.First, r.Last)
	return dateRange{First: first, Last: last}
}

// postComparison answers `compare`: the range against the previous range
// of the same length, posted in the channel.
func (v *visitors) postComparison(ctx context.Context, w *bot.Work, t target, cmd slack.SlashCommand, req visitorsRequest) {
	log := v.log.With("user", cmd.UserID, "channel", cmd.ChannelID, "range", req.Range.String(), "compare", true, "project", t.proj.Name)
	note := v.progress(w, cmd, req.Range)
	rep, err := v.compare(ctx, t, v.spenderOf(ctx, cmd), req, note.show(ctx), log)
	note.clear(ctx)
	if err != nil {
		log.Warn("visitors comparison failed", "err", err)
		v.core.ReplyPrivately(ctx, cmd, bot.Describe(err))
		return
	}
	rep.Requester = cmd.UserID
	if err := v.core.Respond(ctx, cmd, bot.RichReply{Kind: bot.RichChart, With: rep.withChart(), Without: rep.message()}); err != nil {
		log.Warn("posting the comparison failed", "err", err)
		return
	}
	log.Info("visitors comparison posted")
}

// compare fetches (or reads from the cache) the exports of the range and
// the one before it and compares them; by pays for what is fetched.
func (v *visitors) compare(ctx context.Context, t target, by bot.Spender, req visitorsRequest, progress func(), log *slog.Logger) (*comparisonReport, error) {
	prev := previousRange(req.Range)
	cur, err := v.export(ctx, t, by, req.Range, progress, log)
	if err != nil {
		return nil, err
	}
	before, err := v.export(ctx, t, by, prev, nil, log)
	if err != nil {
		return nil, err
	}
	cmp, err := insight.Compare(period(req.Range, cur.Snap, req.Path), period(prev, before.Snap, req.Path), req.Top)
	if err != nil {
		return nil, err
	}
	rep := &comparisonReport{Req: req, Prev: prev, Cmp: cmp}
	for _, e := range []exported{cur, before} {
		if e.Stale != "" {
			rep.Stale = append(rep.Stale, "numbers from "+humanize.Ago(e.Age)+": "+e.Stale)
		}
	}
	return rep, nil
}

// period is the export snap of r as the comparison takes it, keeping the
// pages under prefix ("" for all).
func period(r dateRange, snap *store.VisitorsSnapshot, prefix string) insight.Period {
	p := insight.Period{First: r.First, Last: r.Last, Totals: apiCounts(snap.Totals), Pages: make([]docsapi.PageVisitors, 0, len(snap.Pages))}
	for _, pg := range snap.Pages {
		if strings.HasPrefix(pg.Path, prefix) {
			p.Pages = append(p.Pages, docsapi.PageVisitors{Path: pg.Path, Counts: apiCounts(pg.VisitorCounts)})
		}
	}
	return p
}

// message renders the comparison, posted in the channel.
func (c *comparisonReport) message() *slack.WebhookMessage {
	blocks := c.blocks()
	note := "Asked by " + mrkdwn.Mention(c.Requester) + " · `" + Command + " help` for options"
	blocks = append(blocks, slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, note, false, false)))
	t := c.Cmp.Totals.Total
	return &slack.WebhookMessage{
		ResponseType: slack.ResponseTypeInChannel,
		Text: fmt.Sprintf("Docs visitors%s %s: %s unique (%s in %s, %s)", project.OfPlain(c.Req.ProjectName), c.Req.Range.Describe(), humanize.Count(t.After),
			humanize.Count(t.Before), c.Prev, changeWord(t)),
		Blocks: &slack.Blocks{BlockSet: blocks},
	}
}

// withChart is the comparison with the bar chart of its totals under its
// first section (native.go); nil when the range is too long for one.
func (c *comparisonReport) withChart() *slack.WebhookMessage {
	chart := c.compareChart()
	if chart == nil {
		return nil
	}
	m := c.message()
	blocks := slices.Insert(slices.Clone(m.Blocks.BlockSet), 1, slack.Block(chart))
	m.Blocks = &slack.Blocks{BlockSet: blocks}
	return m
}

// blocks renders the comparison without a footer: the digest uses it too.
func (c *comparisonReport) blocks() []slack.Block {
	cmp := c.Cmp
	var blocks []slack.Block
	section := func(text string) { blocks = append(blocks, textSection(text, nil)) }
	note := func(text string) {
		blocks = append(blocks, slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, text, false, false)))
	}
	line := func(name string, ch insight.Change) string {
		return fmt.Sprintf("*%s* %s (was %s, %s)", humanize.Count(ch.After), name, humanize.Count(ch.Before), changeWord(ch))
	}
	section(fmt.Sprintf(":chart_with_upwards_trend: *Unique visitors to the docs%s, %s compared with %s*\n%s  ·  %s  ·  %s",
		project.OfPlain(c.Req.ProjectName), c.Req.Range.Describe(), c.Prev, line("visitors", cmp.Totals.Total), line("human", cmp.Totals.Human), line("AI", cmp.Totals.AI)))
	caveat := "Totals are each range's unique visitors; page counts are never added into them."
	if left := c.Req.Range.LeftOutNote(); left != "" {
		caveat = left + " " + caveat
	}
	note(caveat)
	for _, s := range c.Stale {
		section(":hourglass: " + s)
	}
	if c.Req.Path != "" {
		section(":warning: Only pages whose path starts with " + inlineCode(c.Req.Path) + " are listed; the totals above are for the whole site.")
	}
	type list struct {
		title string
		rows  []insight.PageChange
		count int
		// after names the column of the later count; improve adds the
		// button to each row.
		improve bool
	}
	for _, l := range []list{
		{"Rose most", cmp.Rose, cmp.RoseCount, false},
		{"Fell most", cmp.Fell, cmp.FellCount, true},
		{"New pages (no visitors in " + c.Prev.String() + ")", cmp.New, cmp.NewCount, false},
		{"Pages that vanished (no visitors in " + c.Req.Range.String() + ")", cmp.Vanished, cmp.VanishedCount, false},
	} {
		heading := fmt.Sprintf("*%s* (%s pages)", l.title, humanize.Count(int64(l.count)))
		if len(l.rows) == 0 {
			section(heading + ": none.")
			continue
		}
		t := newTextTable(len(l.rows), []string{"Before", "After", "Change"})
		for i, p := range l.rows {
			ch := p.Change()
			t.row(fmt.Sprintf("%d.", i+1), p.Path, humanize.Count(ch.Before), humanize.Count(ch.After), changeWord(ch))
		}
		lines := t.lines()
		if !l.improve {
			for _, text := range codeSections(heading+"\n", lines) {
				section(text)
			}
			continue
		}
		section(heading + "\n```\n" + lines[0] + "\n```")
		for i, p := range l.rows {
			blocks = append(blocks, textSection("```\n"+lines[i+1]+"\n```", improveButton(p.Path, counts(p.After), c.Req.Range, c.Req.Project)))
		}
	}
	return blocks
}

// changeWord reads like "+12.5%", "-3.0%", "no change" or "+40" (when there
// was nothing before, no percentage means anything).
func changeWord(ch insight.Change) string {
	if ch.Delta() == 0 {
		return "no change"
	}
	if p, ok := ch.Percent(); ok {
		return p
	}
	if d := ch.Delta(); d < 0 {
		return "-" + humanize.Count(-d)
	}
	return "+" + humanize.Count(ch.Delta())
}
