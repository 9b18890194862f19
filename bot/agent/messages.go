package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Limits that keep every message inside what Slack accepts (3,000 characters
// a section, about 4,000 for the fallback text).
const (
	// promptInRoot is the excerpt the store keeps, so the root message reads
	// the same before and after a status update.
	promptInRoot     = store.MaxPromptRunes
	promptInFallback = 150
	// detailMax bounds the model and branch names shown.
	detailMax = 100
)

// RootEvent is the Slack message metadata event type on a job's root message
// (payload: work, the inbox key of the start). A start tried again after a
// crash looks for it before posting a second root message.
const RootEvent = "docsbot_job_root"

// jobState is what the root message of a job shows.
type jobState int

const (
	stateStarting jobState = iota
	stateWorking
	stateFinished
	stateNotStarted
	stateUntracked
	// stateUnknown: the create call's outcome is unknown (Problem says why).
	stateUnknown
)

// rootView is everything the root message of a job shows. The root message is
// re-rendered in full on each change, so the view is the single source of its
// layout.
type rootView struct {
	Requester string
	Prompt    string
	State     jobState
	JobID     string
	Status    docsapi.Status
	PRLink    string
	// Generation counts the job's runs: 1, then +1 per follow-up.
	Generation int64
	// Problem says, in plain words, why the job did not start or stopped.
	Problem string
	// Model and Branch are the agent's, when the docs API gave them.
	Model, Branch string
	// Started is when the current run started; Now is the time of the
	// rendering (updateRoot sets it). Together they give the elapsed time.
	Started, Now time.Time
	// Project is the key of the job's docs project (bot.ProjectKey): shown
	// when not "". Switch adds the Switch project button (rootMessage sets
	// it when the bot serves more than one project).
	Project string
	Switch  bool `json:"-"`
}

// running reports whether the job may still be running (or starting).
func (v rootView) running() bool {
	return (v.State == stateStarting || v.State == stateWorking) && !v.Status.Final()
}

func (v rootView) statusLine() string {
	job := ""
	if v.JobID != "" {
		job = " · job `" + mrkdwn.Escape(v.JobID) + "`"
	}
	runs := ""
	if v.Generation > 1 {
		runs = fmt.Sprintf(" · follow-up %d", v.Generation-1)
	}
	switch v.State {
	case stateStarting:
		return ":hourglass_flowing_sand: Starting the agent…"
	case stateWorking:
		s := ":arrows_counterclockwise: Working"
		if v.Status != "" && v.Status != docsapi.StatusActive {
			s += " (status `" + mrkdwn.Escape(string(v.Status)) + "`)"
		}
		if e := v.elapsed(); e != "" {
			s += " · " + e
		}
		return s + job + runs
	case stateFinished:
		took := ""
		if e := v.elapsed(); e != "" {
			took = " after " + e
		}
		return outcomeEmoji(v.Status) + " " + outcomeWord(v.Status) + took + job + runs + prSuffix(v)
	case stateUnknown:
		return ":grey_question: " + v.Problem
	case stateUntracked:
		return ":grey_question: No longer followed" + job + ": " + v.Problem
	default:
		return ":warning: Not started: " + v.Problem
	}
}

// note is what the person who asked is told privately when their start
// ended without a job to follow.
func (v rootView) note() string {
	switch v.State {
	case stateNotStarted:
		return "Your docs agent job did not start. " + v.Problem
	case stateUntracked:
		return "Your docs agent job `" + mrkdwn.Escape(v.JobID) + "`: " + v.Problem
	}
	return v.Problem
}

// elapsed is the time the current run has taken, in words ("4 min"), ""
// when unknown.
func (v rootView) elapsed() string {
	if v.Started.IsZero() || v.Now.IsZero() {
		return ""
	}
	return elapsedWords(v.Now.Sub(v.Started))
}

// elapsedWords says how long a job has run on its root message: "under a
// minute", then whole minutes in humanize's words ("4 minutes", "2 hours 5
// minutes"). It changes at most once a minute, which paces the live status
// edits.
func elapsedWords(d time.Duration) string {
	if d < time.Minute {
		return "under a minute"
	}
	return humanize.Duration(d.Truncate(time.Minute))
}

// details names the agent's model and branch, "" when the API gave neither.
func (v rootView) details() string {
	var parts []string
	if v.Model != "" {
		parts = append(parts, "model `"+mrkdwn.Escape(mrkdwn.Cut(v.Model, detailMax))+"`")
	}
	if v.Branch != "" {
		parts = append(parts, "branch `"+mrkdwn.Escape(mrkdwn.Cut(v.Branch, detailMax))+"`")
	}
	return strings.Join(parts, " · ")
}

func prSuffix(v rootView) string {
	if v.PRLink == "" {
		if v.Status == docsapi.StatusCompleted {
			return " · no files changed"
		}
		return ""
	}
	return " · " + mrkdwn.Link(v.PRLink, "pull request")
}

// message renders the root message: who asked, the instruction, its
// progress as a plan of task cards (plan.go), and the status line with the
// details and the project under it (a summary, and what clients read that
// show no plan); without the plan where Slack refuses it (bot.Rich).
func (v rootView) message() bot.Rich {
	head := fmt.Sprintf("*%s asked the docs agent:*\n%s", mrkdwn.Mention(v.Requester), mrkdwn.Quote(mrkdwn.Cut(v.Prompt, promptInRoot)))
	headBlock := slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, head, false, false), nil, nil)
	status := []slack.MixedElement{slack.NewTextBlockObject(slack.MarkdownType, v.statusLine(), false, false)}
	if d := v.details(); d != "" {
		status = append(status, slack.NewTextBlockObject(slack.MarkdownType, d, false, false))
	}
	if l := projectLabel(v.Project); l != "" {
		status = append(status, slack.NewTextBlockObject(slack.MarkdownType, l, false, false))
	}
	plain := []slack.Block{headBlock, slack.NewContextBlock("", status...)}
	rich := []slack.Block{headBlock, v.planBlock(), slack.NewContextBlock("", status...)}
	if v.Switch {
		plain = append(plain, switchButton(v))
		rich = append(rich, switchButton(v))
	}
	fallback := fmt.Sprintf("Docs agent job for %s: %s", mrkdwn.Mention(v.Requester), mrkdwn.Escape(mrkdwn.Cut(v.Prompt, promptInFallback)))
	form := func(blocks []slack.Block) []slack.MsgOption {
		return []slack.MsgOption{
			slack.MsgOptionText(fallback, false),
			slack.MsgOptionBlocks(blocks...),
			slack.MsgOptionDisableLinkUnfurl(),
		}
	}
	return bot.Rich{Kind: bot.RichPlan, With: form(rich), Without: form(plain)}
}

func outcomeEmoji(s docsapi.Status) string {
	switch s {
	case docsapi.StatusCompleted:
		return ":white_check_mark:"
	case docsapi.StatusFailed:
		return ":x:"
	case docsapi.StatusArchived:
		return ":file_cabinet:"
	}
	return ":grey_question:"
}

func outcomeWord(s docsapi.Status) string {
	switch s {
	case docsapi.StatusCompleted:
		return "Completed"
	case docsapi.StatusFailed:
		return "Failed"
	case docsapi.StatusArchived:
		return "Archived"
	}
	return "Finished (status `" + mrkdwn.Escape(string(s)) + "`)"
}

// prLabelMax is the longest pull request URL shown as its own label; a
// longer one is labelled "pull request", so that a long URL is not written
// twice into a message that Slack bounds.
const prLabelMax = 100

// prLabel shortens a pull request URL such as
// https://github.com/acme/docs/pull/12 to "acme/docs#12". Another URL is its
// own label when short, else "pull request".
func prLabel(raw string) string {
	if rest, ok := strings.CutPrefix(raw, "https://github.com/"); ok {
		parts := strings.Split(rest, "/")
		if len(parts) == 4 && parts[2] == "pull" && parts[3] != "" && len(rest) <= prLabelMax {
			return parts[0] + "/" + parts[1] + "#" + parts[3]
		}
	}
	if len(raw) > prLabelMax {
		return "pull request"
	}
	return raw
}

// updateRoot re-renders a job's root message. The edit is made in the
// background, coalesced with later edits of the same message (bot.Edit); a
// failure is logged only: the thread and the job stay usable.
func (a *agent) updateRoot(ctx context.Context, channel, ts string, v rootView, log *slog.Logger) {
	v.Now = a.cfg.Now()
	a.core.Edit(ctx, channel, ts, a.rootMessage(v), log)
}

// editRootNow re-renders a job's root message at once and returns Slack's
// answer, for an edit that must not be lost (how a run ended). Unlike
// updateRoot it is not coalesced in the background: an earlier background
// edit of the message cannot land after it (bot.EditNow). A passing failure
// (Slack's own trouble, the network) is tried again, with backoff, until
// Config.FinalEditBudget runs out (well inside finishBudget, so that
// recording the finish still has time after it); a 429 is waited out within
// each call (as Slack's Retry-After asks, bot.SlackOptions). chat.update is
// idempotent, so trying it again is safe. The error returned is the last one: a final refusal
// (message_not_found, not_in_channel) at once, a passing one when the
// budget ran out or ctx ended.
func (a *agent) editRootNow(ctx context.Context, channel, ts string, v rootView, log *slog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.FinalEditBudget)
	defer cancel()
	delay := 200 * time.Millisecond
	for {
		v.Now = a.cfg.Now()
		err := a.core.EditNow(ctx, channel, ts, a.rootMessage(v))
		if err == nil || !bot.TransientSlack(err) || ctx.Err() != nil {
			return err
		}
		log.Warn("updating the root message failed; trying again", "err", err, "retry_in", delay)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("updating the root message: %w", errors.Join(err, ctx.Err()))
		case <-t.C:
		}
		delay = min(delay*2, 2*time.Second)
	}
}

// rootMessage renders a job's root message, with the Switch project button
// when the bot serves more than one project, while the job may be running
// (a click starts a second job) or when it did not start (nothing runs):
// not once it ended.
func (a *agent) rootMessage(v rootView) bot.Rich {
	v.Switch = v.Project != "" && a.core.Projects().Len() > 1 && (v.running() || v.State == stateNotStarted)
	return v.message()
}
