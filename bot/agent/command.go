package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// storageDown is what a person is told when docsbot could not record their
// command: nothing was started.
const storageDown = "docsbot cannot reach its storage right now, so it did not start this. Try again in a minute."

// onCommand handles /docs-agent. Answers that need no I/O (help,
// refusals) travel in the ack itself; anything else is recorded in the inbox
// and then acknowledged. If Redis cannot record it, the ack says so.
func (a *agent) onCommand(ctx context.Context, r *bot.CommandRequest) {
	cmd := r.Command
	c := parseCommand(cmd.Text, a.core.ProjectsIn(ctx).Set)
	if c.Problem != "" {
		r.Ack(bot.Ephemeral(c.Problem))
		return
	}
	if c.Help {
		r.Ack(bot.Ephemeral(agentHelp(a.core.ProjectsIn(ctx).Set, a.answersOn())))
		return
	}
	text, listing := c.Text, c.Listing
	refusal := a.core.Refusal(cmd.UserID, cmd.ChannelID)
	if refusal == "" && !listing {
		// Viewers may list; starting a job takes an editor.
		refusal = a.core.Editors().RefusalInAck(ctx, cmd.UserID, cmd.ChannelID, "")
	}
	if refusal != "" {
		r.Ack(bot.Ephemeral(refusal))
		a.auditRefusedInAck(ctx, "cmd:"+r.DeliveryID, bot.RefusalRecord(cmd.TeamID, cmd.ChannelID, cmd.UserID, viaCommand, text))
		return
	}
	if text == "" {
		// The job modal, opened right after the ack: the trigger id lives
		// 3 seconds.
		r.Ack(nil)
		a.openModal(ctx, cmd.TriggerID, cmd.UserID, modalTarget{Team: cmd.TeamID, Channel: cmd.ChannelID, ResponseURL: cmd.ResponseURL}, "", "")
		return
	}
	kind := workStart
	payload, _ := json.Marshal(startRequest{Team: cmd.TeamID, Channel: cmd.ChannelID, User: cmd.UserID, Prompt: text, ResponseURL: cmd.ResponseURL})
	if listing {
		kind = workList
		payload, _ = json.Marshal(listRequest{Team: cmd.TeamID, Channel: cmd.ChannelID, User: cmd.UserID, ResponseURL: cmd.ResponseURL, JobID: c.JobID, Project: c.Project})
	}
	if !a.core.AcceptEnvelope(ctx, store.Work{Key: "cmd:" + r.DeliveryID, Kind: kind, Payload: payload}, bot.RedeliveredCommand) {
		r.Ack(bot.Ephemeral(storageDown))
		return
	}
	r.Ack(nil)
}

// agentCommand is what the text of /docs-agent asks for (parseCommand).
type agentCommand struct {
	// Text is the text as the person typed it: Slack's escaping and markup
	// undone, spaces trimmed. "" opens the job modal; otherwise, unless one
	// of the fields below says more, it is the instruction of a new job.
	Text string
	// Problem is the answer to a help, list or status whose project= words
	// name no project or two ("" otherwise: a start decides its project
	// itself).
	Problem string
	// Help asks for the help; Listing for the list or, with JobID, the
	// status of one job, of Project's jobs when it is set (project=NAME).
	Help, Listing bool
	JobID         string
	Project       string
}

// parseCommand reads the text of /docs-agent as Slack sends it, for a bot
// serving projects. It does no I/O: who may do what is decided after.
func parseCommand(raw string, projects *project.Set) agentCommand {
	// Slack escapes what the person typed and marks up mentions and links;
	// the agent gets it as typed.
	c := agentCommand{Text: strings.TrimSpace(mrkdwn.Plain(raw))}
	// "project=NAME list" lists that project's jobs.
	listed, name, problem := listWords(c.Text, projects)
	switch word := commandWord(listed); {
	case problem != "":
		c.Problem = problem
	case strings.EqualFold(listed, wordHelp):
		c.Help = true
	case listed != "" && (word == wordList || word == wordStatus):
		c.Listing, c.JobID, c.Project = true, askedJob(listed), name
	}
	return c
}

// giveUpStart tells the person that their job could not be started in time.
func (a *agent) giveUpStart(ctx context.Context, w *bot.Work) {
	var req startRequest
	if json.Unmarshal(w.Payload, &req) != nil {
		return
	}
	root := w.Marked(markRoot)
	if raw := w.Marked(markOutcome); raw != "" {
		// The start ended; only showing it kept failing.
		var ended rootView
		if w.Marked(markTold) == "" && json.Unmarshal([]byte(raw), &ended) == nil {
			a.tell(ctx, req, root, ended.note(), a.log)
		}
		return
	}
	if _, err := w.Outcome(createCall); errors.Is(err, bot.ErrUnfinished) {
		a.tell(ctx, req, root, fmt.Sprintf("docsbot cannot tell whether your docs agent job started: Slack or its storage kept failing for %d minutes. Check the agent jobs in your docs dashboard before trying again.",
			int(bot.WorkMaxAge/time.Minute)), a.log)
		return
	}
	a.tell(ctx, req, root, fmt.Sprintf("docsbot could not start your docs agent job: Slack or its storage kept failing for %d minutes. Nothing was started; try again.",
		int(bot.WorkMaxAge/time.Minute)), a.log)
}

// linkJob saves the thread-to-job link, retrying until it works or the start
// budget runs out: a created job must not be left unlinked.
func (a *agent) linkJob(ctx context.Context, rec store.Job, log *slog.Logger) error {
	err := bot.Retry(ctx, log, "saving the job link", func() error {
		return a.store.LinkJob(ctx, rec, a.cfg.PollInterval)
	})
	if err != nil {
		log.Error("job created but NOT linked: it will not be followed", "err", err)
		return err
	}
	a.jobChanged(ctx, rec)
	return nil
}

// jobView rebuilds a root message view from a stored job record.
func jobView(j *store.Job) rootView {
	return rootView{
		Requester:  j.Requester,
		Prompt:     j.Prompt,
		State:      stateWorking,
		JobID:      j.ID,
		Status:     docsapi.Status(j.Status),
		PRLink:     j.PRLink,
		Generation: j.Generation,
		Model:      j.Model,
		Branch:     j.Branch,
		Started:    j.RunStarted,
		Project:    j.Project,
	}
}
