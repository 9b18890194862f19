package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// "/docs-agent list" (and "@docsbot list") shows the person, privately,
// their recent jobs and the channel's running ones; "/docs-agent status
// <job id>" shows one job. Both read Redis, so they go through the inbox as
// agent.list work, answered through the command's response_url or, for a
// mention, as a message only the person sees.

// workList is the kind of inbox work that answers list and status.
const workList = "agent.list"

// wordStatus asks for one job: "/docs-agent status <job id>".
const wordStatus = "status"

// listShown is how many jobs each part of the list shows.
const listShown = 10

// listRequest is what a list or status request carries through the inbox.
type listRequest struct {
	Team    string `json:"team"`
	Channel string `json:"channel"`
	User    string `json:"user"`
	// ResponseURL answers a slash command; otherwise the answer is a
	// message only User sees, in ThreadTS when set.
	ResponseURL string `json:"response_url,omitempty"`
	ThreadTS    string `json:"thread_ts,omitempty"`
	// JobID asks for the status of one job; "" asks for the list.
	JobID string `json:"job_id,omitempty"`
	// Project, when the command said project=NAME, lists that project's
	// jobs alone.
	Project string `json:"project,omitempty"`
}

// listWords returns text without a project=NAME word, and the name, when
// projects (the bot's) are a projects file's; text itself otherwise. problem is the answer
// to a help, list or status whose project= words name nothing or two
// projects ("" otherwise: a start decides its project itself).
func listWords(text string, projects *project.Set) (rest, name, problem string) {
	if projects.Implicit() {
		return text, "", ""
	}
	name, rest, found, err := project.CutToken(text)
	if err != nil {
		switch commandWord(withoutTokenWords(text)) {
		case wordList, wordStatus, wordHelp:
			return text, "", project.Problem(err, projects, "command")
		}
		return text, "", ""
	}
	if !found {
		return text, "", ""
	}
	return rest, name, ""
}

// withoutTokenWords is text without its first and last words when they
// start with project= (whatever follows).
func withoutTokenWords(text string) string {
	words := strings.Fields(text)
	isToken := func(w string) bool {
		return len(w) >= len("project=") && strings.EqualFold(w[:len("project=")], "project=")
	}
	if len(words) > 0 && isToken(words[0]) {
		words = words[1:]
	}
	if len(words) > 0 && isToken(words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	return strings.Join(words, " ")
}

// doList answers a list or status request from the inbox.
func (a *agent) doList(ctx context.Context, w *bot.Work) error {
	var req listRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding a list request: %w", err)
	}
	return a.answerList(ctx, w, req)
}

// answerList reads the jobs asked for and answers privately.
func (a *agent) answerList(ctx context.Context, w *bot.Work, req listRequest) error {
	log := a.log.With("user", req.User, "channel", req.Channel, "work", w.Key)
	var text string
	var err error
	if req.Project != "" {
		p, ok := a.core.ProjectsIn(ctx).Get(req.Project)
		if !ok {
			text = project.Problem(&project.UnknownError{Name: req.Project}, a.core.ProjectsIn(ctx), "command")
			return a.answerListText(ctx, req, text, log)
		}
		req.Project = p.Name
	}
	if req.JobID != "" {
		text, err = a.statusText(ctx, req)
	} else {
		text, err = a.listText(ctx, req)
	}
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return a.answerListText(ctx, req, text, log)
}

// answerListText answers a list or status request privately with text.
func (a *agent) answerListText(ctx context.Context, req listRequest, text string, log *slog.Logger) error {
	if req.ResponseURL != "" {
		a.core.ReplyPrivately(ctx, slack.SlashCommand{UserID: req.User, ChannelID: req.Channel, ResponseURL: req.ResponseURL}, text)
		return nil
	}
	a.tellInThread(ctx, replyRequest{Post: bot.Post{Channel: req.Channel, User: req.User, ThreadTS: req.ThreadTS}}, text, log)
	return nil
}

// listText renders the person's recent jobs and the channel's running ones.
func (a *agent) listText(ctx context.Context, req listRequest) (string, error) {
	mine, err := a.store.RecentJobs(ctx, req.Team, req.User, listShown)
	if err != nil {
		return "", err
	}
	running, err := a.store.RunningJobs(ctx, req.Team, req.Channel, listShown)
	if err != nil {
		return "", err
	}
	if req.Project != "" {
		mine, running = inProject(mine, req.Project), inProject(running, req.Project)
	}
	var b strings.Builder
	if req.Project != "" {
		b.WriteString("*Your recent docs agent jobs in the project `" + mrkdwn.Escape(req.Project) + "`*\n")
	} else {
		b.WriteString("*Your recent docs agent jobs*\n")
	}
	if len(mine) == 0 {
		fmt.Fprintf(&b, "You started no docs agent job in the last %d days.\n", int(store.Retention/(24*time.Hour)))
	}
	for _, j := range mine {
		b.WriteString("• " + a.jobLine(ctx, &j, false, true) + "\n")
	}
	b.WriteString("\n*Running in this channel*\n")
	n := 0
	for _, j := range running {
		if docsapi.Status(j.Status).Final() {
			continue // finished, its result being posted
		}
		b.WriteString("• " + a.jobLine(ctx, &j, true, true) + "\n")
		n++
	}
	if n == 0 {
		b.WriteString("No docs agent job is running in this channel.\n")
	}
	b.WriteString("\n`" + Command + " status <job id>` shows one job.")
	return b.String(), nil
}

// statusText renders one job, if the person may see it: they started it,
// or it runs in the channel they ask from.
func (a *agent) statusText(ctx context.Context, req listRequest) (string, error) {
	j, err := a.store.Job(ctx, req.JobID)
	if err == nil && j.Requester != req.User && j.Thread.Channel != req.Channel {
		err = store.ErrNotFound // someone else's, elsewhere: not shown
	}
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Sprintf("docsbot knows no job `%s` started by you or in this channel (jobs are kept %d days after they finish).",
				mrkdwn.Escape(mrkdwn.Cut(req.JobID, 80)), int(store.Retention/(24*time.Hour))), nil
		}
		return "", err
	}
	var b strings.Builder
	b.WriteString(a.jobLine(ctx, j, true, true))
	if j.Generation > 1 {
		fmt.Fprintf(&b, "\nFollow-ups: %d", j.Generation-1)
	}
	fmt.Fprintf(&b, "\nInstruction: %s", mrkdwn.Escape(mrkdwn.Cut(j.Prompt, 300)))
	if !j.UpdatedAt.IsZero() {
		fmt.Fprintf(&b, "\nLast change: %s", humanize.Ago(time.Since(j.UpdatedAt)))
	}
	return b.String(), nil
}

// jobLine renders one job on a line: status, age, id, its project (when
// withProject and the job has one), the instruction's start, its thread and
// pull request links, and who asked (withWho).
func (a *agent) jobLine(ctx context.Context, j *store.Job, withWho, withProject bool) string {
	st := docsapi.Status(j.Status)
	status := ":arrows_counterclockwise: Working"
	if st.Final() {
		status = outcomeEmoji(st) + " " + outcomeWord(st)
	} else if st != docsapi.StatusActive && st != "" {
		status = ":grey_question: `" + mrkdwn.Escape(j.Status) + "`"
	}
	parts := []string{status, "started " + humanize.Ago(time.Since(j.CreatedAt)), "`" + mrkdwn.Escape(j.ID) + "`"}
	if withProject && j.Project != "" {
		parts = append(parts, "project `"+mrkdwn.Escape(j.Project)+"`")
	}
	if withWho {
		parts = append(parts, "by "+mrkdwn.Mention(j.Requester))
	}
	parts = append(parts, "“"+mrkdwn.Escape(mrkdwn.Cut(firstLine(j.Prompt), 60))+"”")
	link, err := a.core.SlackIn(ctx).GetPermalinkContext(ctx, &slack.PermalinkParameters{Channel: j.Thread.Channel, Ts: rootTS(j)})
	if err == nil && link != "" {
		parts = append(parts, mrkdwn.Link(link, "thread"))
	}
	if j.PRLink != "" {
		parts = append(parts, mrkdwn.Link(j.PRLink, prLabel(j.PRLink)))
	}
	return strings.Join(parts, " · ")
}

// isJobID reports whether s can be a job id: one word, not too long.
func isJobID(s string) bool {
	return s != "" && len(s) <= 100 && !strings.ContainsAny(s, " \t\n")
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// giveUpList tells the person their list could not be shown.
func (a *agent) giveUpList(ctx context.Context, w *bot.Work) {
	var req listRequest
	if json.Unmarshal(w.Payload, &req) != nil {
		return
	}
	text := "docsbot could not read its storage to list your jobs. Try again in a few minutes."
	if req.ResponseURL != "" {
		a.core.ReplyPrivately(ctx, slack.SlashCommand{UserID: req.User, ChannelID: req.Channel, ResponseURL: req.ResponseURL}, text)
		return
	}
	a.tellInThread(ctx, replyRequest{Post: bot.Post{Channel: req.Channel, User: req.User, ThreadTS: req.ThreadTS}}, text, a.log)
}

// inProject keeps the jobs of the project named name.
func inProject(jobs []store.Job, name string) []store.Job {
	var out []store.Job
	for _, j := range jobs {
		if j.Project == name {
			out = append(out, j)
		}
	}
	return out
}
