package health

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
)

// defaultRange is the range of a view that names none.
const defaultRange = "30d"

// request is a /docs-health, as its work carries it.
type request struct {
	Team        string `json:"team"`
	Channel     string `json:"channel"`
	User        string `json:"user"`
	ResponseURL string `json:"response_url,omitempty"`
	View        string `json:"view,omitempty"`
	// RangeText is the range as typed ("30d" when none was); it is read
	// again, as of when the command was received.
	RangeText string `json:"range"`
	Project   string `json:"project,omitempty"`
	// Digest is the digest subcommand: weekly, off or status.
	Digest string `json:"digest,omitempty"`
	// Quality is the quality subcommand (quality.go), CSV its csv.
	Quality bool `json:"quality,omitempty"`
	CSV     bool `json:"csv,omitempty"`
}

// parse reads /docs-health's text: a range (as /docs-visitors takes them),
// a view word, project=NAME with a projects file, or help. It returns what
// to answer in the ack instead when the text is help or wrong.
func (h *health) parse(ctx context.Context, text string, today time.Time) (request, string) {
	req := request{RangeText: defaultRange}
	if !h.core.ProjectsIn(ctx).Implicit() {
		name, rest, ok, err := project.CutToken(text)
		if err != nil {
			return req, project.Problem(err, h.core.ProjectsIn(ctx), "command")
		}
		if ok {
			req.Project, text = name, rest
		}
	}
	if words := strings.Fields(strings.ToLower(text)); len(words) > 0 && words[0] == "digest" {
		if len(words) != 2 || !slices.Contains([]string{digestWeekly, digestOff, digestStatus}, words[1]) {
			return req, digestHelp(h.core.ProjectsIn(ctx).Implicit())
		}
		req.Digest = words[1]
		return req, ""
	}
	if words := strings.Fields(strings.ToLower(text)); len(words) > 0 && words[0] == "quality" {
		return parseQuality(req, words[1:], h.core.ProjectsIn(ctx).Implicit())
	}
	ranged := false
	for _, word := range strings.Fields(text) {
		lower := strings.ToLower(word)
		switch lower {
		case "help":
			return req, help(h.core.ProjectsIn(ctx).Implicit())
		case viewSearches, viewFeedback, viewQuestions, viewViews:
			if req.View != "" {
				return req, "Ask for one view at a time: `searches`, `feedback`, `questions` or `views`."
			}
			req.View = lower
			continue
		}
		if _, err := daterange.Parse(lower, today, false); err != nil {
			return req, "`" + mrkdwn.Escape(mrkdwn.Cut(err.Part, 80)) + "`: " + err.Problem + "\n\n" + help(h.core.ProjectsIn(ctx).Implicit())
		}
		if ranged {
			return req, "Give one date range at most."
		}
		req.RangeText, ranged = lower, true
	}
	return req, ""
}

// onCommand answers /docs-health in the ack when it needs no I/O and
// otherwise records its work in the inbox and acks. Anyone allowed may ask.
func (h *health) onCommand(ctx context.Context, r *bot.CommandRequest) {
	cmd := r.Command
	req, answer := h.parse(ctx, mrkdwn.Plain(cmd.Text), daterange.Midnight(h.cfg.Now()))
	if answer != "" {
		r.Ack(bot.Ephemeral(answer))
		return
	}
	if refusal := h.core.Refusal(cmd.UserID, cmd.ChannelID); refusal != "" {
		h.core.RefuseCommand(ctx, r, refusal, "")
		return
	}
	req.Team, req.Channel, req.User, req.ResponseURL = cmd.TeamID, cmd.ChannelID, cmd.UserID, cmd.ResponseURL
	h.core.QueueCommand(ctx, r, workHealth, req, "it did not read the docs health")
}

// help is /docs-health's help.
func help(implicit bool) string {
	s := "*Docs health:* `" + Command + " [range] [searches | feedback | questions | views]` shows what to fix in the docs, " +
		"from the docs site's analytics (the last 30 days unless you give a range, written as for `/docs-visitors`: " +
		"`7d`, `12w`, `last-month`, `2025-11-01..2025-11-30`):\n" +
		"• alone: the searches that found nothing clicked, the pages readers voted down with their comments, " +
		"the questions the assistant could not answer, and the pages viewed most;\n" +
		"• `searches`, `feedback`, `questions` or `views`: one of them, longer.\n" +
		"Every problem has *Fix with agent*: an editor starts a docs job with the evidence, in the thread.\n" +
		"Readers' comments, searches and questions are shown to members of the organisation only; asked in a channel shared with another organisation, " +
		"or with guests in it, the docs health comes to you alone.\n" +
		"`" + Command + " digest weekly` posts the week's summary in the channel every week; `digest off` stops it, `digest status` says when the next one comes.\n" +
		"`" + Command + " quality [7d|30d] [csv]` says how docsbot's answers from the docs came out: resolved, handed off, uncertain, rated."
	if !implicit {
		s += "\nAdd `project=NAME` to choose the docs project."
	}
	return s
}
