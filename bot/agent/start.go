package agent

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// The kinds of inbox work of agent jobs.
const (
	workStart = "agent.start"
	workReply = "agent.reply"
)

// Marks a start records as it goes, for an attempt after a crash.
const (
	markRoot   = "root"   // the root message's ts
	markIntent = "intent" // the create call is about to be made (instruction hash)
	markQueued = "queued" // the person was told the job waits for Slack
	// markOutcome is how a start ended without a followed job (not started,
	// started but not linked, outcome unknown): the root view, in JSON. An
	// attempt that finds it only shows it; it never creates again.
	markOutcome = "outcome"
	markTold    = "told" // the person was told the outcome privately
)

const (
	// rootPostBudget bounds one attempt at posting a root message, waits for
	// Slack's rate limit included; the work is then deferred and tried again.
	rootPostBudget = 20 * time.Second
	// queuedNotice is how long a root message may wait for Slack before the
	// person is told privately that the job is queued.
	queuedNotice = 4 * time.Second
	// retryOfferTTL is how long "reply retry" works after a start whose
	// outcome is unknown.
	retryOfferTTL = 24 * time.Hour
	// wordRetry is the thread reply that starts a job again after a start
	// whose outcome is unknown.
	wordRetry = "retry"
)

// startRequest is what a job start carries through the inbox.
type startRequest struct {
	Team    string `json:"team"`
	Channel string `json:"channel"`
	User    string `json:"user"`
	// Prompt is the instruction as the person typed it.
	Prompt string `json:"prompt"`
	// ResponseURL answers the person privately (slash commands).
	ResponseURL string `json:"response_url,omitempty"`
	// Origin is the ts of the person's message that asked for the job, in
	// Channel (a mention, a DM): the job's progress reactions go on it. ""
	// when there is none (a slash command, a modal).
	Origin string `json:"origin,omitempty"`
	// Seen is the ts of the latest message of the thread that went to the
	// agent with the start: the later of Origin and the last message read
	// into Context ("" when no thread was read). Posts up to it are not
	// sent again as follow-ups (store.Job.Seen).
	Seen string `json:"seen,omitempty"`
	// Root is an existing root message to reuse (a start tried again).
	Root string `json:"root,omitempty"`
	// ThreadTS is the message whose thread the job lives in (a mention, a
	// DM, a message shortcut): the root message is posted as a reply in it
	// and the job linked to it. "" starts a new thread at the root message.
	ThreadTS string `json:"thread_ts,omitempty"`
	// Context goes to the agent after the instruction (the thread a mention
	// was made in, the message a shortcut was used on); the root message
	// shows only Prompt.
	Context string `json:"context,omitempty"`
	// ContextMarkup says Context is Slack markup (a quoted message): the
	// start turns its mentions into names and the rest into plain text.
	ContextMarkup bool `json:"context_markup,omitempty"`
	// Project is the name of the docs project the job goes to when the
	// person chose it (the modal's select, a button) or an earlier attempt
	// decided it; "" lets the start decide (projects.go). Prompt then has
	// no project=NAME word left.
	Project string `json:"project,omitempty"`
	// Remember makes Project the person's last choice (they picked it in
	// the modal).
	Remember bool `json:"remember,omitempty"`
	// ContextKept is the id of a start kept for Switch project
	// (switchID) whose Context goes with this one: the thread a job was
	// asked in, too long for a modal's private_metadata.
	ContextKept string `json:"context_kept,omitempty"`
}

// instruction is what the docs API is asked: the prompt, then its context.
func (r startRequest) instruction() string {
	if r.Context == "" {
		return r.Prompt
	}
	return r.Prompt + "\n\n" + r.Context
}

// thread is the Slack thread of the job whose root message is root.
func (r startRequest) thread(root string) store.Thread {
	return store.Thread{Team: r.Team, Channel: r.Channel, TS: cmp.Or(r.ThreadTS, root)}
}

// command is the slash command the request came from, for ReplyPrivately.
func (r startRequest) command() slack.SlashCommand {
	return slack.SlashCommand{UserID: r.User, ChannelID: r.Channel, ResponseURL: r.ResponseURL}
}

// promptHash identifies an instruction in logs and marks without its text.
func promptHash(prompt string) string {
	sum := sha256.Sum256([]byte(prompt))
	return hex.EncodeToString(sum[:8])
}

// doStart starts a job from the inbox. Each step leaves a mark, so an attempt
// after a crash resumes: the root message is posted once, and the create
// call is never made twice: an attempt that finds the create's intent but no
// link says that the job may or may not have started, and offers to retry.
func (a *agent) doStart(ctx context.Context, w *bot.Work) error {
	var req startRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding a job start: %w", err)
	}
	log := a.log.With("user", req.User, "channel", req.Channel, "team", req.Team, "work", w.Key, "attempt", w.Attempt)
	root := cmp.Or(w.Marked(markRoot), req.Root)
	proj, done, err := a.startProject(ctx, w, &req, log)
	if done || err != nil {
		return err
	}
	key := bot.ProjectKey(proj)
	if key != "" {
		log = log.With("project", key)
	}
	api, ok := a.apiFor(key)
	if !ok && root == "" {
		log.Error("no docs API is set up for the job's project; nothing started")
		a.endBeforeRoot(ctx, w, req, "docsbot is not set up to reach the docs API of the project `"+bot.Escape(proj.Name)+"`, so nothing was started. Tell whoever runs docsbot.", log)
		return nil
	}
	if req.ContextKept != "" {
		if err := a.keptContext(ctx, &req, log); err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
	}
	if req.ContextMarkup {
		req.Context, req.ContextMarkup = strings.TrimSpace(bot.Plain(a.namedMentions(ctx, req.Context))), false
	}
	view := rootView{Requester: req.User, Prompt: req.Prompt, State: stateStarting, Project: key}

	if root == "" && w.Marked(markQueued) == "" {
		// The ways in checked the role already, except when Slack could not
		// say in time (bot.EditorRefusalInAck) and for the project, which
		// only the work knows: decide before anything is posted. The answer
		// is usually cached.
		if refusal := a.core.EditorRefusal(ctx, req.User, req.Channel, key); refusal != "" {
			log.Info("job start refused: not an editor")
			a.endBeforeRoot(ctx, w, req, refusal, log)
			rec := bot.RefusalRecord(req.Team, req.Channel, req.User, viaStart, req.Prompt)
			rec.Project = key
			a.auditWork(ctx, w, rec)
			return nil
		}
		if req.Remember {
			a.remember(ctx, req.Team, req.User, req.Project, log)
		}
	}
	started := store.AuditRecord{Team: req.Team, Channel: req.Channel, User: req.User, Action: store.AuditJobStart,
		Outcome: "ok", Instruction: req.Prompt, Project: key}
	if root == "" && w.Attempt > 1 {
		ts, err := a.findRoot(ctx, req, w)
		if err != nil && bot.TransientSlack(err) {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		if err != nil {
			log.Warn("cannot read the channel for an earlier root message; posting one", "err", err)
		}
		root = ts
	}
	if raw := w.Marked(markOutcome); raw != "" {
		// An earlier attempt ended the start (and released the thread's
		// claim): only showing how it ended is left.
		var ended rootView
		if err := json.Unmarshal([]byte(raw), &ended); err != nil {
			return fmt.Errorf("decoding how a start ended: %w", err)
		}
		return a.showOutcome(ctx, w, req, root, ended, log.With("root", root))
	}
	if req.ThreadTS != "" {
		// One start per thread (startclaim.go), taken before anything
		// is posted.
		if done, err := a.claimStart(ctx, w, req, root, log); done || err != nil {
			return err
		}
	}
	if root == "" {
		ts, err := a.postRoot(ctx, w, req, view, log)
		if err != nil {
			if bot.TransientSlack(err) {
				return bot.Later(bot.RetryDelay(w.Attempt), err)
			}
			log.Warn("cannot post the job's root message; no job created", "err", err)
			a.releaseThread(ctx, w, req, log)
			a.tell(ctx, req, "", bot.Describe(err), log)
			return nil
		}
		root = ts
	}
	log = log.With("root", root)
	thread := req.thread(root)
	a.keepForSwitch(ctx, req, root, key, log)

	if w.Attempt > 1 || w.Marked(markIntent) != "" {
		job, err := a.store.JobByThread(ctx, thread)
		switch {
		case err == nil:
			log.Info("job already started by an earlier attempt", "job", job.ID)
			started.JobID = job.ID
			a.auditWork(ctx, w, started)
			a.updateRoot(ctx, req.Channel, root, jobView(job), log)
			if !docsapi.Status(job.Status).Final() {
				a.working(ctx, job, "", log) // the earlier attempt may have stopped before
			}
			return nil
		case !errors.Is(err, store.ErrNotFound):
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		if w.Marked(markIntent) != "" {
			log.Warn("an earlier attempt stopped during the create call; the job may or may not exist")
			a.releaseThread(ctx, w, req, log)
			started.Outcome = "unknown"
			a.auditWork(ctx, w, started)
			return a.startUnknown(ctx, w, req, root, view, "docsbot stopped while the docs API was starting it", log)
		}
	}

	// The create call is made only under the thread's start claim, taken
	// again here for the time the call and the link may take.
	if req.ThreadTS != "" {
		if err := a.store.ClaimStart(ctx, thread, w.Key, startClaimTTL); err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
	}
	// One write records the root message (if just posted) and the intent:
	// without it a later attempt could neither find the message nor know
	// that a create may have been made, so nothing goes on without it.
	if err := w.Mark(ctx, map[string]string{markRoot: root, markIntent: promptHash(req.instruction())}); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if api == nil {
		// The project's API went away between attempts (a restart with
		// another projects file): the create call was never made.
		log.Error("no docs API is set up for the job's project; nothing started")
		a.releaseThread(ctx, w, req, log)
		view.State, view.Problem = stateNotStarted, "docsbot is not set up to reach the docs API of the project `"+bot.Escape(proj.Name)+"`. Tell whoever runs docsbot."
		started.Outcome = "failed"
		a.auditWork(ctx, w, started)
		return a.endStart(ctx, w, req, root, view, log)
	}
	job, err := api.CreateJob(ctx, req.instruction())
	if errors.Is(err, docsapi.ErrOutcomeUnknown) {
		log.Warn("docs API did not confirm the job", "err", err)
		a.releaseThread(ctx, w, req, log)
		started.Outcome = "unknown"
		a.auditWork(ctx, w, started)
		return a.startUnknown(ctx, w, req, root, view, bot.APIAnswer(err), log)
	}
	if err != nil {
		log.Warn("docs API did not create the job", "err", err)
		a.releaseThread(ctx, w, req, log)
		view.State, view.Problem = stateNotStarted, bot.Describe(err)
		started.Outcome = "failed"
		a.auditWork(ctx, w, started)
		return a.endStart(ctx, w, req, root, view, log)
	}
	log = log.With("job", job.ID)
	started.JobID = job.ID
	rec := store.Job{
		ID:        job.ID,
		Thread:    thread,
		Requester: req.User,
		// The excerpt the root message shows, cut mark included.
		Prompt:  bot.Cut(req.Prompt, promptInRoot),
		Status:  string(job.Status),
		Origin:  req.Origin,
		Seen:    req.Seen,
		Model:   job.Model,
		Project: key,
	}
	if job.Source.Ref != nil {
		rec.Branch = *job.Source.Ref
	}
	if req.ThreadTS != "" {
		rec.Root = root
	}
	if err := a.linkJob(ctx, rec, log); err != nil {
		a.releaseThread(ctx, w, req, log)
		view.State, view.JobID = stateUntracked, job.ID
		view.Problem = "the job started, but docsbot could not save it and will not report its result. Follow it in your docs dashboard."
		started.Outcome = "untracked"
		a.auditWork(ctx, w, started)
		return a.endStart(ctx, w, req, root, view, log)
	}
	log.Info("agent job started")
	a.auditWork(ctx, w, started)
	a.metrics.JobCreated()
	view.State, view.JobID, view.Status, view.Generation = stateWorking, job.ID, job.Status, 1
	view.Model, view.Branch, view.Started = rec.Model, rec.Branch, a.cfg.Now()
	a.updateRoot(ctx, req.Channel, root, view, log)
	rec.Generation = 1
	a.working(ctx, &rec, "", log)
	a.nudgePoller()
	return nil
}

// postRoot posts a job's root message, waiting out Slack's rate limit. If
// that takes longer than queuedNotice, the person is told, once, that the job
// is queued.
func (a *agent) postRoot(ctx context.Context, w *bot.Work, req startRequest, view rootView, log *slog.Logger) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, rootPostBudget)
	defer cancel()
	if w.Marked(markQueued) == "" && req.ResponseURL != "" {
		notice := time.AfterFunc(queuedNotice, func() {
			log.Info("root message waits for Slack; telling the person the job is queued")
			a.core.ReplyPrivately(ctx, req.command(), "Your docs agent job is queued: Slack is limiting how fast docsbot may post in this channel. It starts as soon as Slack lets docsbot post; nothing more to do.")
			if err := w.Mark(ctx, map[string]string{markQueued: "1"}); err != nil {
				log.Warn("recording the queued notice failed", "err", err)
			}
		})
		defer notice.Stop()
	}
	opts := append(a.rootMessage(view), slack.MsgOptionMetadata(slack.SlackMetadata{
		EventType:    RootEvent,
		EventPayload: map[string]any{"work": w.Key},
	}))
	if req.ThreadTS != "" {
		opts = append(opts, slack.MsgOptionTS(req.ThreadTS))
	}
	return a.core.Post(ctx, req.Channel, opts...)
}

// findRoot looks in the channel (or the request's thread) for the root
// message an earlier attempt at w posted (its metadata names w) before it
// could record it: "" if there is none.
func (a *agent) findRoot(ctx context.Context, req startRequest, w *bot.Work) (string, error) {
	if req.ThreadTS != "" {
		return a.findInThread(ctx, req.Channel, req.ThreadTS, func(m slack.Message) bool {
			return m.Metadata.EventType == RootEvent && m.Metadata.EventPayload["work"] == w.Key
		})
	}
	since := w.Received.Add(-time.Minute) // Slack's clock is not Redis's
	params := &slack.GetConversationHistoryParameters{ChannelID: req.Channel, Limit: 200, IncludeAllMetadata: true,
		Oldest: fmt.Sprintf("%d.%06d", since.Unix(), since.Nanosecond()/1000)}
	for range 10 {
		res, err := a.slack.GetConversationHistoryContext(ctx, params)
		if err != nil {
			return "", err
		}
		for _, m := range res.Messages {
			if m.Metadata.EventType == RootEvent && m.Metadata.EventPayload["work"] == w.Key {
				return m.Timestamp, nil
			}
		}
		if !res.HasMore {
			break
		}
		params.Cursor = res.ResponseMetaData.NextCursor
	}
	return "", nil
}

// startUnknown ends a start whose outcome cannot be known: the root message
// and the person are told, and "retry" in the thread starts it again.
func (a *agent) startUnknown(ctx context.Context, w *bot.Work, req startRequest, root string, view rootView, why string, log *slog.Logger) error {
	req.Root = root
	payload, _ := json.Marshal(req)
	thread := req.thread(root)
	offered := a.store.OfferRetry(ctx, thread, payload, retryOfferTTL) == nil
	view.State = stateUnknown
	view.Problem = "docsbot cannot tell whether the agent started: " + why + ". Check the agent jobs in your docs dashboard"
	if offered {
		view.Problem += ", or reply `" + wordRetry + "` in this thread to start it again"
	}
	view.Problem += "."
	return a.endStart(ctx, w, req, root, view, log)
}

// endStart ends a start that leaves no job to follow (view says how: not
// started, not linked, outcome unknown). The outcome is recorded first, so
// that an attempt after a failure or a crash shows it instead of starting
// again; then it is shown (showOutcome).
func (a *agent) endStart(ctx context.Context, w *bot.Work, req startRequest, root string, view rootView, log *slog.Logger) error {
	raw, err := json.Marshal(view)
	if err == nil {
		err = w.Mark(ctx, map[string]string{markOutcome: string(raw)})
	}
	if err != nil {
		// Shown all the same; an attempt after a failed edit then finds the
		// create's intent and says the outcome is unknown, which is safe.
		log.Warn("recording how the start ended failed", "err", err)
	}
	return a.showOutcome(ctx, w, req, root, view, log)
}

// showOutcome tells the person privately, once, how their start ended, and
// shows it on the root message. The edit is part of the work: while Slack
// fails for a passing reason the work is tried again later (from the
// recorded outcome), so the root message never stays at "Starting".
func (a *agent) showOutcome(ctx context.Context, w *bot.Work, req startRequest, root string, view rootView, log *slog.Logger) error {
	if w.Marked(markTold) == "" {
		a.tell(ctx, req, root, view.note(), log)
		if err := w.Mark(ctx, map[string]string{markTold: "1"}); err != nil {
			log.Warn("recording that the person was told failed; they may be told again", "err", err)
		}
	}
	view.Now = a.cfg.Now()
	ectx, cancel := context.WithTimeout(ctx, rootPostBudget)
	defer cancel()
	err := a.core.EditNow(ectx, req.Channel, root, a.rootMessage(view)...)
	if err != nil && bot.TransientSlack(err) {
		return bot.Later(bot.RetryDelay(w.Attempt), fmt.Errorf("showing how the start ended on its root message: %w", err))
	}
	if err != nil {
		log.Warn("cannot show how the start ended on its root message; the person was told privately", "err", err)
	}
	return nil
}

// tell answers the person who asked for a job, privately: through the slash
// command's response_url; else in the channel (the job's thread when there
// is one), visible to them only; else, when the bot cannot write in the
// channel at all (removed from it, archived), in a direct message. What
// cannot reach them by any of these is logged as an error.
func (a *agent) tell(ctx context.Context, req startRequest, root, text string, log *slog.Logger) {
	a.tellBlocks(ctx, req, root, text, nil, "", log)
}

// tellBlocks is tell with blocks (buttons) shown instead of text, which
// stays the message's fallback; dmText, when set, is what a direct message
// says instead (bot.Private.DMText).
func (a *agent) tellBlocks(ctx context.Context, req startRequest, root, text string, blocks []slack.Block, dmText string, log *slog.Logger) {
	p := bot.Private{User: req.User, Channel: req.Channel, ThreadTS: cmp.Or(req.ThreadTS, root), ResponseURL: req.ResponseURL,
		Text: text, Blocks: blocks, DMText: dmText}
	if err := a.core.TellPrivately(ctx, p); err != nil {
		log.Error("could not tell the person privately", "err", err)
	}
}
