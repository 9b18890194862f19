package health

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
	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/project"
)

// `/docs-health quality [7d|30d] [csv]` says how the questions docsbot
// answered came out (bot/outcome's report, read from the store: no
// analytics, no budget), per project: those asked over the range (the
// last 7 days unless it says 30d, today included) and the change on as
// many days before, and the topics of the questions it could not answer
// well, each with Make this a docs job (the docs health's fix button,
// jobdraft.ActionFixDocs). It is shown where the other views are, as
// bot.Sight decides (show): a guest or a person of another organisation
// gets the counts only, without the questions' words nor buttons. With
// csv the figures are also a CSV file (csvexport.WriteQuality), uploaded
// where the report was posted (its channel, or the DM it went to); never
// in a channel shared with another organisation or with guests in it.
// With a projects file and no project=NAME, every project served that
// has questions is shown (qualityProjects of them), each under its name.

// The ranges of the quality report, and its default.
var qualityRanges = []string{"7d", "30d"}

const qualityDefault = "7d"

// qualityProjects is how many projects one report shows (the blocks of a
// message are few).
const qualityProjects = 3

// markCSV is the checkpoint of the quality report's CSV file: its id, or
// "none" when it is not uploaded.
const markCSV = "csv"

// parseQuality reads the words after `quality`: a range of qualityRanges,
// csv, or help.
func parseQuality(req request, words []string, implicit bool) (request, string) {
	req.Quality, req.RangeText = true, qualityDefault
	ranged := false
	for _, w := range words {
		switch {
		case w == "csv" && !req.CSV:
			req.CSV = true
		case (w == "7d" || w == "30d") && !ranged:
			req.RangeText, ranged = w, true
		case w == "help":
			return req, qualityHelp(implicit)
		default:
			return req, "`" + mrkdwn.Escape(mrkdwn.Cut(w, 80)) + "`: the quality report takes `7d` or `30d` and `csv`.\n\n" + qualityHelp(implicit)
		}
	}
	return req, ""
}

// qualityHelp is the help of `/docs-health quality`.
func qualityHelp(implicit bool) string {
	s := "*Answers from the docs:* `" + Command + " quality [7d|30d] [csv]` says how the questions docsbot answered came out " +
		"over the last 7 days (or 30), against the days before: how many were resolved without a human, resolved by an expert, " +
		"handed off, left uncertain, rated helpful, how soon the first text showed, and the questions it could not answer well, " +
		"each with *Make this a docs job*. `csv` adds the figures as a file. Guests and people of other organisations see the counts only."
	if !implicit {
		s += " Add `project=NAME` for one project; without it, every project with questions."
	}
	return s
}

// qualityOf is one project's report, with the name it is shown by ("" for
// the implicit project).
type qualityOf struct {
	name string
	rep  outcome.Report
}

// doQuality answers `/docs-health quality`: the reports of the projects
// asked for, shown once (show), then the CSV file when asked (its step).
func (h *health) doQuality(ctx context.Context, w *bot.Work, req request, log *slog.Logger) error {
	if w.Marked(markPosted) != "" && (!req.CSV || w.Marked(markCSV) != "") {
		return nil
	}
	now := h.cfg.Now()
	rng, perr := daterange.Parse(req.RangeText, daterange.Midnight(now), false)
	if perr != nil {
		h.tell(ctx, req, "`"+mrkdwn.Escape(perr.Part)+"`: "+perr.Problem, log)
		return nil
	}
	keys, ok := h.qualityKeys(ctx, req, log)
	if !ok {
		return nil
	}
	var reps []qualityOf
	for _, key := range keys {
		rep, err := outcome.Read(ctx, h.store.Outcomes, key, req.Team, rng.First, rng.Last, now)
		if err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		if req.Project != "" || len(keys) == 1 || rep.Period.Questions+rep.Before.Questions > 0 {
			reps = append(reps, qualityOf{name: key, rep: rep})
		}
	}
	title := "*Answers from the docs*"
	if len(keys) == 1 && keys[0] != "" {
		title += project.Of(keys[0])
	}
	title += ", " + rng.String() + " · asked by " + mrkdwn.Mention(req.User)
	v := viewShown{text: "Answers from the docs, " + rng.String(), blocks: func(sight bot.Sight, fixes, _ bool) []slack.Block {
		return renderQuality(reps, len(keys), rng.Days(), title, sight, fixes)
	}}
	if err := h.show(ctx, w, req, v, log); err != nil {
		return err
	}
	if !req.CSV || w.Marked(markPosted) == "" {
		return nil
	}
	_, err := w.Step(ctx, markCSV, func(ctx context.Context) (string, error) {
		return h.uploadQuality(ctx, w, req, reps, rng, log)
	})
	return bot.Settle(err, log, "recording the quality CSV's upload failed")
}

// qualityKeys are the projects req's report is of: the one it names, else
// every project of the workspace (bot.ProjectsIn).
func (h *health) qualityKeys(ctx context.Context, req request, log *slog.Logger) ([]string, bool) {
	set := h.core.ProjectsIn(ctx)
	switch {
	case set.Implicit():
		return []string{""}, true
	case req.Project != "":
		served, ok := h.projectOf(ctx, req, log)
		return []string{bot.ProjectKey(served.Project)}, ok
	}
	var keys []string
	for _, p := range set.All() {
		keys = append(keys, bot.ProjectKey(p))
	}
	return keys, true
}

// uploadQuality uploads the reports' figures as a CSV file where the
// report was posted: the channel, or the person's DM with docsbot when it
// went there; in a shared channel told privately, no file (a file cannot
// be private), and the person is told. It returns the file's id, or Later.
func (h *health) uploadQuality(ctx context.Context, w *bot.Work, req request, reps []qualityOf, rng daterange.Range, log *slog.Logger) (string, error) {
	sight := h.core.Sight(ctx, req.User, req.Channel)
	channel := req.Channel
	switch {
	case sight.Private && !sight.Words:
		h.tell(ctx, req, "This channel "+sight.Room+", so docsbot does not post the CSV file here.", log)
		return "none", nil
	case sight.Private:
		dm, _, _, err := h.core.SlackIn(ctx).OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{req.User}})
		if err != nil {
			if bot.TransientSlack(err) {
				return "", bot.Later(bot.RetryDelay(w.Attempt), err)
			}
			h.tell(ctx, req, "docsbot could not send you the CSV file ("+bot.Describe(err)+").", log)
			return "none", nil
		}
		channel = dm.ID
	}
	var b bytes.Buffer
	all := make([]outcome.Report, len(reps))
	for i, r := range reps {
		all[i] = r.rep
	}
	if err := csvexport.WriteQuality(&b, all); err != nil {
		return "", fmt.Errorf("writing the quality CSV: %w", err)
	}
	from, _ := rng.Params()
	f, err := h.core.SlackIn(ctx).UploadFileContext(ctx, slack.UploadFileParameters{
		Reader: bytes.NewReader(b.Bytes()), FileSize: b.Len(), Channel: channel,
		Filename:       "docs-answers-" + from + "-" + rng.Last.Format(time.DateOnly) + ".csv",
		Title:          "Answers from the docs, " + rng.String(),
		InitialComment: fmt.Sprintf("How the questions docsbot answered came out, %s and the %d days before (UTC), asked by %s.", rng, rng.Days(), mrkdwn.Mention(req.User)),
	})
	switch {
	case err != nil && ctx.Err() != nil:
		return "", fmt.Errorf("uploading the quality CSV: %w", err) // handed back on shutdown
	case err != nil && bot.TransientSlack(err):
		return "", bot.Later(time.Minute, err)
	case err != nil:
		log.Warn("uploading the quality CSV failed", "err", err)
		h.tell(ctx, req, "docsbot could not upload the CSV file ("+bot.Describe(err)+").", log)
		return "none", nil
	}
	log.Info("quality CSV posted", "file", f.ID, "projects", len(reps))
	return f.ID, nil
}

// renderQuality is the quality report of reps (of the keys projects asked
// for, over days days) as sight lets it be shown: each project's figures
// with their change, then its gaps: with sight.Words their questions and,
// with fixes, Make this a docs job; without, their counts only.
func renderQuality(reps []qualityOf, keys, days int, title string, sight bot.Sight, fixes bool) []slack.Block {
	blocks := []slack.Block{section(title)}
	if !sight.Words {
		blocks = append(blocks, slack.NewContextBlock("", md(":lock: "+sight.Why)))
	}
	if len(reps) == 0 {
		return append(blocks, section("No questions were answered from the docs in this range nor in the "+plural(days, "day", "days")+" before."))
	}
	r := renderer{words: sight.Words, fixes: fixes && sight.Words}
	for i, q := range reps {
		if i == qualityProjects {
			blocks = append(blocks, slack.NewContextBlock("", md(fmt.Sprintf("…and %d more projects with questions: `%s quality project=NAME` shows one.",
				len(reps)-i, Command))))
			break
		}
		if keys > 1 {
			blocks = append(blocks, section("*Project "+mrkdwn.Escape(q.name)+"*"))
		}
		r.project = q.name
		blocks = append(blocks, section(strings.Join(QualityLines(q.rep), "\n")),
			slack.NewContextBlock("", md(fmt.Sprintf("Changes are against the %s before, %s.", plural(days, "day", "days"),
				daterange.Range{First: q.rep.Before.First, Last: q.rep.Before.Last}))))
		blocks = append(blocks, r.gaps(q.rep)...)
	}
	return blocks
}

// QualityLines are a report's figures, a line each, with the change on the
// span before: the one wording of the report, the digest's and the Home's.
func QualityLines(r outcome.Report) []string {
	f, b := r.Period, r.Before
	resolved := humanize.Count(f.Resolved)
	if p, ok := humanize.Percent(f.Resolved, f.Questions); ok {
		resolved += " (" + p + ")"
	}
	return []string{
		"Questions: " + humanize.Count(f.Questions) + change(f.Questions, b.Questions),
		"Answered with sources: " + humanize.Count(f.Sources) + change(f.Sources, b.Sources),
		"Resolved without a human: " + resolved + change(f.Resolved, b.Resolved),
		"Resolved by an expert: " + humanize.Count(f.ResolvedByExpert) + change(f.ResolvedByExpert, b.ResolvedByExpert),
		"Handed off: " + humanize.Count(f.HandedOff) + change(f.HandedOff, b.HandedOff),
		"Uncertain: " + humanize.Count(f.Uncertain) + change(f.Uncertain, b.Uncertain),
		fmt.Sprintf("Helpful: %s of %s rated (was %s of %s)", humanize.Count(f.Helpful), humanize.Count(f.Rated),
			humanize.Count(b.Helpful), humanize.Count(b.Rated)),
		"Median time to the first text: " + firstText(f) + " (was " + firstText(b) + ")",
	}
}

// change is a count's change on the span before: " (+3)", " (-1)",
// " (±0)".
func change(now, before int64) string {
	switch d := now - before; {
	case d > 0:
		return " (+" + humanize.Count(d) + ")"
	case d < 0:
		return " (" + humanize.Count(d) + ")"
	}
	return " (±0)"
}

// firstText is a span's median time to the first text: "2.4 s", "none"
// when none was measured.
func firstText(f outcome.Figures) string {
	d, ok := f.MedianFirstText()
	if !ok {
		return "none"
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// The instruction of Make this a docs job on a gap, in docsbot's words:
// the questions themselves are in the evidence, quoted.
const gapInstruction = "Document what people ask in the questions quoted in the evidence, which docsbot's answers from the docs did not cover."

// gaps lists rep's topics of questions docsbot could not answer well.
func (r renderer) gaps(rep outcome.Report) []slack.Block {
	blocks := []slack.Block{section("*Questions docsbot could not answer well* (uncertain, or rated unhelpful by their asker)")}
	switch {
	case len(rep.Gaps) == 0:
		return append(blocks, none())
	case !r.words:
		return append(blocks, section(fmt.Sprintf("_%s in %s._", plural(int(rep.GapQuestions), "question", "questions"),
			plural(rep.GapTopics, "topic", "topics"))))
	}
	for _, g := range rep.Gaps {
		line := fmt.Sprintf("• “%s” — %s (%s)", mrkdwn.Escape(mrkdwn.Cut(g.Question, 150)), plural(int(g.Questions), "question", "questions"), gapKinds(g))
		d := jobdraft.Draft{
			Problem: fmt.Sprintf("%s asked of docsbot on one topic, quoted in the evidence, got no answer from the docs or one rated unhelpful",
				plural(int(g.Questions), "question", "questions")),
			Instruction: gapInstruction,
			Evidence:    "topic: " + g.Topic + "\nquestion: \"" + g.Question + "\""}
		blocks = append(blocks, r.fixAs(line, d, "Make this a docs job"))
	}
	return blocks
}

// gapKinds says how a gap's questions came out: "2 uncertain", "1 rated
// unhelpful", or both.
func gapKinds(g outcome.Gap) string {
	var parts []string
	if g.Uncertain > 0 {
		parts = append(parts, humanize.Count(g.Uncertain)+" uncertain")
	}
	if g.Unhelpful > 0 {
		parts = append(parts, humanize.Count(g.Unhelpful)+" rated unhelpful")
	}
	return strings.Join(parts, ", ")
}

// qualityDigest is the week's figures of the project keyed key in its
// digest (rng, against the week before): counts only, the same for
// everyone; nothing when it had no questions in either week, or when they
// cannot be read (logged).
func (h *health) qualityDigest(ctx context.Context, team, key string, rng daterange.Range, log *slog.Logger) []slack.Block {
	text, ok, err := h.qualityText(ctx, team, key, rng)
	if err != nil {
		log.Warn("reading the questions' outcomes for the health digest failed; it leaves them out", "err", err)
	}
	if !ok {
		return nil
	}
	return []slack.Block{section("*Answers from the docs*, against the week before\n" + text),
		slack.NewContextBlock("", md("`"+Command+" quality"+project.Arg(key)+"` shows the questions docsbot could not answer well."))}
}

// qualityText is the figures of the project keyed key in workspace team
// over rng, a line each, with their change on as many days before; ok is
// false when it had no questions in either span.
func (h *health) qualityText(ctx context.Context, team, key string, rng daterange.Range) (string, bool, error) {
	rep, err := outcome.Read(ctx, h.store.Outcomes, key, team, rng.First, rng.Last, h.cfg.Now())
	if err != nil || rep.Period.Questions+rep.Before.Questions == 0 {
		return "", false, err
	}
	return strings.Join(QualityLines(rep), "\n"), true, nil
}

// QualityText renders the figures of the last days days (today included)
// of the project keyed projectKey in workspace team, a line each with
// their change on the days before: counts, no one's words, read from the
// store (the Home's). ok is false when it had no questions in either span.
func (f *Feature) QualityText(ctx context.Context, team, projectKey string, days int) (text string, ok bool, err error) {
	h := f.h
	rng, perr := daterange.Parse(fmt.Sprintf("%dd", days), daterange.Midnight(h.cfg.Now()), false)
	if perr != nil {
		return "", false, perr
	}
	return h.qualityText(ctx, team, projectKey, rng)
}
