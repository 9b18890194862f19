package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
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
	// Slack escapes what the person typed and marks up mentions and links;
	// the agent gets it as typed.
	text := strings.TrimSpace(mrkdwn.Plain(cmd.Text))
	// "project=NAME list" lists that project's jobs.
	listed, listProject, problem := a.listWords(text)
	if problem != "" {
		r.Ack(bot.Ephemeral(problem))
		return
	}
	if strings.EqualFold(listed, wordHelp) {
		r.Ack(bot.Ephemeral(agentHelp(a.core.Projects())))
		return
	}
	word := commandWord(listed)
	listing := listed != "" && (word == wordList || word == wordStatus)
	refusal := a.core.Refusal(cmd.UserID, cmd.ChannelID)
	if refusal == "" && !listing {
		// Viewers may list; starting a job takes an editor.
		refusal = a.core.EditorRefusalInAck(ctx, cmd.UserID, cmd.ChannelID, "")
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
		payload, _ = json.Marshal(listRequest{Team: cmd.TeamID, Channel: cmd.ChannelID, User: cmd.UserID, ResponseURL: cmd.ResponseURL, JobID: askedJob(listed), Project: listProject})
	}
	if !a.core.AcceptEnvelope(ctx, store.Work{Key: "cmd:" + r.DeliveryID, Kind: kind, Payload: payload}, bot.RedeliveredCommand) {
		r.Ack(bot.Ephemeral(storageDown))
		return
	}
	r.Ack(nil)
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
	if w.Marked(markIntent) != "" {
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
