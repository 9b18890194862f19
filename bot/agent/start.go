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
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// workStart is the kind of inbox work of a job's start.
const workStart = "agent.start"

// The marks a start leaves on its work for its later attempts; what each
// phase does with them is the table in doc.go.
const (
	markRoot    = "root"    // the root message's ts
	markIntent  = "intent"  // the create call is about to be made (instruction hash)
	markQueued  = "queued"  // the person was told the job waits for Slack
	markOutcome = "outcome" // how a start that follows no job ended: its root view, in JSON
	markTold    = "told"    // the person was told the outcome privately
)

const (
	// rootPostBudget bounds one attempt at posting a root message, waits for
	// Slack's rate limit included; the work is then deferred and tried again.
	rootPostBudget = 20 * time.Second
	// queuedNotice is how long after the command a root message may wait
	// for Slack before the person is told privately that the job is queued.
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
	// RetriedBy is who typed "retry" to start it again after an unknown
	// outcome, when it is tried again: the audit trail names them.
	RetriedBy string `json:"retried_by,omitempty"`
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

// How a start that follows no job ended after its root message: the
// Outcome of its audit record ("ok" for a job started and linked).
const (
	outcomeFailed    = "failed"    // not started
	outcomeUnknown   = "unknown"   // may or may not have started
	outcomeUntracked = "untracked" // started, not linked
)

// start is one attempt at a job start: what its phases share. A phase
// reports whether the start ended in it, its error then being the attempt's.
type start struct {
	a    *agent
	w    *bot.Work
	req  startRequest
	log  *slog.Logger
	proj project.Project
	key  string  // bot.ProjectKey(proj)
	api  JobsAPI // nil when no docs API serves the project
	root string  // the root message's ts, "" until found or posted
	view rootView
	// started is the start's audit record, appended once (auditWork).
	started store.AuditRecord
	job     *docsapi.Job // the created job
	// late: the root message is posted after the create call, showing the
	// job (lateroot.go); root stays "" until then.
	late bool
	// rootJob is the job a late root found in the channel names (its
	// metadata): the create call of an earlier attempt made it.
	rootJob string
}

// doStart starts a job from the inbox in phases (decide, ensureRoot,
// resume, create, link), each of which reads the marks earlier attempts
// left: a root message is posted once and the create call made at most
// once. The table in doc.go says what each phase does with each mark.
func (a *agent) doStart(ctx context.Context, w *bot.Work) error {
	var req startRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding a job start: %w", err)
	}
	s := &start{a: a, w: w, req: req, root: cmp.Or(w.Marked(markRoot), req.Root),
		log: a.log.With("user", req.User, "channel", req.Channel, "team", req.Team, "work", w.Key, "attempt", w.Attempt)}
	for _, phase := range []func(context.Context) (bool, error){s.decide, s.ensureRoot, s.resume, s.create} {
		if done, err := phase(ctx); done || err != nil {
			return err
		}
	}
	return s.link(ctx)
}

// decide decides the start's project, its docs API and the agent's
// context, and whether the person may start a job there. It ends the start
// before any root message (endBeforeRoot); past the root or queued mark
// the person was let through already (doc.go).
func (s *start) decide(ctx context.Context) (bool, error) {
	a, w := s.a, s.w
	proj, done, err := a.startProject(ctx, w, &s.req, s.log)
	if done || err != nil {
		return true, err
	}
	s.proj, s.key = proj, bot.ProjectKey(proj)
	if s.key != "" {
		s.log = s.log.With("project", s.key)
	}
	served, ok := a.core.Project(s.key)
	if !ok && s.root == "" {
		s.log.Error("no docs API is set up for the job's project; nothing started")
		a.endBeforeRoot(ctx, w, s.req, "docsbot is not set up to reach the docs API of the project `"+mrkdwn.Escape(proj.Name)+"`, so nothing was started. Tell whoever runs docsbot.", s.log)
		return true, nil
	}
	if ok {
		s.api = served.API
	}
	if s.req.ContextKept != "" {
		if err := a.keptContext(ctx, &s.req, s.log); err != nil {
			return true, bot.Later(bot.RetryDelay(w.Attempt), err)
		}
	}
	if s.req.ContextMarkup {
		s.req.Context, s.req.ContextMarkup = strings.TrimSpace(mrkdwn.Plain(a.namedMentions(ctx, s.req.Context))), false
	}
	req := s.req
	s.view = rootView{Requester: req.User, Prompt: req.Prompt, State: stateStarting, Project: s.key}
	if s.root == "" && w.Marked(markQueued) == "" && w.Marked(markIntent) == "" {
		// The ways in checked the role, except when Slack could not say in
		// time (bot.Editors.RefusalInAck) and for the project.
		if refusal := a.core.Editors().Refusal(ctx, req.User, req.Channel, s.key); refusal != "" {
			s.log.Info("job start refused: not an editor")
			a.endBeforeRoot(ctx, w, req, refusal, s.log)
			rec := bot.RefusalRecord(req.Team, req.Channel, req.User, viaStart, req.Prompt)
			rec.Project = s.key
			a.auditWork(ctx, w, rec)
			return true, nil
		}
		if req.Remember {
			a.remember(ctx, req.Team, req.User, req.Project, s.log)
		}
	}
	s.started = store.AuditRecord{Team: req.Team, Channel: req.Channel, User: cmp.Or(req.RetriedBy, req.User), Action: store.AuditJobStart,
		Outcome: "ok", Instruction: req.Prompt, Project: s.key}
	if req.RetriedBy != "" && req.RetriedBy != req.User {
		s.started.Detail = "retry of a start by " + req.User
	}
	return false, nil
}

// ensureRoot finds the start's root message or posts it, under the
// thread's start claim. A start an earlier attempt ended (outcome mark) is
// only shown: nothing is claimed or posted (doc.go).
func (s *start) ensureRoot(ctx context.Context) (bool, error) {
	a, w := s.a, s.w
	if s.root == "" && w.Attempt > 1 {
		ts, job, err := a.findRoot(ctx, s.req, w)
		if err != nil && bot.TransientSlack(err) {
			return true, bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		if err != nil {
			s.log.Warn("cannot read the channel for an earlier root message; posting one", "err", err)
		}
		s.root, s.rootJob = ts, job
	}
	if raw := w.Marked(markOutcome); raw != "" {
		var ended rootView
		if err := json.Unmarshal([]byte(raw), &ended); err != nil {
			return true, fmt.Errorf("decoding how a start ended: %w", err)
		}
		return true, a.showOutcome(ctx, w, s.req, s.root, ended, s.log.With("root", s.root))
	}
	if s.req.ThreadTS != "" {
		if done, err := a.claimStart(ctx, w, s.req, s.root, s.log); done || err != nil {
			return true, err
		}
	}
	if s.root == "" && s.rootAfterCreate(ctx) {
		s.late = true
		return false, nil
	}
	if s.root == "" {
		ts, err := a.postRoot(ctx, w, s.req, s.view, s.log)
		if err != nil {
			if bot.TransientSlack(err) {
				return true, bot.Later(bot.RetryDelay(w.Attempt), err)
			}
			s.log.Warn("cannot post the job's root message; no job created", "err", err)
			a.endBeforeRoot(ctx, w, s.req, bot.Describe(err), s.log)
			return true, nil
		}
		s.root = ts
	}
	s.log = s.log.With("root", s.root)
	a.keepForSwitch(ctx, s.req, s.root, s.key, s.log)
	return false, nil
}

// resume reads, on an attempt after the first or after an intent mark, what
// earlier attempts did: a job linked to the thread was started by one of
// them; an intent without a link leaves the outcome unknown (doc.go).
func (s *start) resume(ctx context.Context) (bool, error) {
	a, w := s.a, s.w
	_, err := w.Outcome(createCall)
	begun := errors.Is(err, bot.ErrUnfinished)
	if w.Attempt <= 1 && !begun {
		return false, nil
	}
	job, err := a.store.JobByThread(ctx, s.req.thread(s.root))
	switch {
	case err == nil:
		s.log.Info("job already started by an earlier attempt", "job", job.ID)
		s.started.JobID = job.ID
		a.auditWork(ctx, w, s.started)
		a.updateRoot(ctx, s.req.Channel, s.root, jobView(job), s.log)
		if !docsapi.Status(job.Status).Final() {
			a.working(ctx, job, "", s.log) // the earlier attempt may have stopped before
		}
		return true, nil
	case !errors.Is(err, store.ErrNotFound):
		return true, bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if !begun {
		return false, nil
	}
	if s.rootJob != "" {
		return s.resumeLate(ctx)
	}
	return true, s.unfinished(ctx)
}

// unfinished ends a start whose create call an earlier attempt began and
// did not finish (bot.ErrUnfinished): the job may or may not exist.
func (s *start) unfinished(ctx context.Context) error {
	s.log.Warn("an earlier attempt stopped during the create call; the job may or may not exist")
	return s.end(ctx, outcomeUnknown, "docsbot stopped while the docs API was starting it")
}

// createCall is the create call's marks (bot.Work.Paid): the intent (the
// instruction's hash) before it, written with the root (create); none
// after it, whose outcome is the thread's link to the job (store.Jobs) or
// the outcome mark (endStart). An attempt that finds the intent and no
// link finds the outcome unknown (resume).
var createCall = bot.Call{Begun: markIntent}

// errNoAPI is why a create call is not made: the project's docs API went
// away between attempts (a restart with another projects file).
var errNoAPI = errors.New("agent: no docs API is set up for the job's project")

// create makes the create call, once: only under the thread's start claim,
// taken again for the call and the link, and only after the root and the
// intent are marked in one write (doc.go).
func (s *start) create(ctx context.Context) (bool, error) {
	a, w := s.a, s.w
	if s.job != nil {
		return false, nil // an earlier attempt's, named by its late root (resumeLate)
	}
	if s.req.ThreadTS != "" {
		if err := a.store.ClaimStart(ctx, s.req.thread(s.root), w.Key, startClaimTTL); err != nil {
			return true, bot.Later(bot.RetryDelay(w.Attempt), err)
		}
	}
	call := createCall
	call.With = map[string]string{markIntent: promptHash(s.req.instruction())}
	if s.root != "" {
		call.With[markRoot] = s.root
	}
	if s.late {
		defer a.tellIfSlow(ctx, w, s.req, slowCreateNotice, "the docs API is slow to create the job; telling the person it is starting", s.log)()
	}
	called := false
	_, err := w.Paid(ctx, call, func(ctx context.Context) (string, error) {
		called = true
		if s.api == nil {
			return "", errNoAPI
		}
		job, err := s.api.CreateJob(ctx, s.req.instruction())
		if err != nil {
			return "", err
		}
		s.job = job
		return job.ID, nil
	})
	switch {
	case errors.Is(err, bot.ErrUnfinished):
		return true, s.unfinished(ctx)
	case err != nil && !called:
		return true, bot.Later(bot.RetryDelay(w.Attempt), err)
	case errors.Is(err, errNoAPI):
		// The create call was never made.
		s.log.Error("no docs API is set up for the job's project; nothing started")
		return true, s.end(ctx, outcomeFailed, "docsbot is not set up to reach the docs API of the project `"+mrkdwn.Escape(s.proj.Name)+"`. Tell whoever runs docsbot.")
	case errors.Is(err, docsapi.ErrOutcomeUnknown):
		s.log.Warn("docs API did not confirm the job", "err", err)
		return true, s.end(ctx, outcomeUnknown, bot.APIAnswer(err))
	case err != nil:
		s.log.Warn("docs API did not create the job", "err", err)
		return true, s.end(ctx, outcomeFailed, bot.Describe(err))
	}
	s.log = s.log.With("job", s.job.ID)
	s.started.JobID = s.job.ID
	return false, nil
}

// link links the created job to its thread (which ends the thread's start
// claim), audits the start and shows the job working; a job it cannot link
// ends untracked.
func (s *start) link(ctx context.Context) error {
	a, req, job := s.a, s.req, s.job
	view := s.view
	view.State, view.JobID, view.Status, view.Generation = stateWorking, job.ID, job.Status, 1
	view.Model, view.Started = job.Model, a.cfg.Now()
	if job.Source.Ref != nil {
		view.Branch = *job.Source.Ref
	}
	if s.late {
		if done, err := s.postLateRoot(ctx, view); done {
			return err
		}
	}
	rec := store.Job{
		ID:        job.ID,
		Thread:    req.thread(s.root),
		Requester: req.User,
		// The excerpt the root message shows, cut mark included.
		Prompt:  mrkdwn.Cut(req.Prompt, promptInRoot),
		Status:  string(job.Status),
		Origin:  req.Origin,
		Seen:    req.Seen,
		Model:   view.Model,
		Branch:  view.Branch,
		Project: s.key,
		// The thread's team is the request's; its organisation, the work's.
		Enterprise: bot.WorkspaceOf(ctx).Enterprise,
	}
	if req.ThreadTS != "" {
		rec.Root = s.root
	}
	if err := a.linkJob(ctx, rec, s.log); err != nil {
		return s.end(ctx, outcomeUntracked, "the job started, but docsbot could not save it and will not report its result. Follow it in your docs dashboard.")
	}
	s.log.Info("agent job started")
	if req.ThreadTS != "" {
		a.handedOff(ctx, store.OutcomeRef{Team: req.Team, Channel: req.Channel, TS: req.ThreadTS}, s.log)
	}
	a.auditWork(ctx, s.w, s.started)
	a.metrics.JobCreated()
	if !s.late {
		a.updateRoot(ctx, req.Channel, s.root, view, s.log)
	}
	rec.Generation = 1
	a.working(ctx, &rec, "", s.log)
	a.nudgePoller()
	return nil
}

// end ends a start after its root message with outcome and no job to
// follow, why saying what went wrong: the thread's start claim is released,
// the start audited with outcome, and its end recorded and shown on the
// root message (endStart); an unknown outcome offers "retry" in the thread.
func (s *start) end(ctx context.Context, outcome, why string) error {
	a, w := s.a, s.w
	if s.late && s.root == "" && outcome != outcomeUntracked {
		s.postEndRoot(ctx)
	}
	a.releaseThread(ctx, w, s.req, s.log)
	s.started.Outcome = outcome
	a.auditWork(ctx, w, s.started)
	view := s.view
	switch outcome {
	case outcomeUnknown:
		view.State, view.Problem = stateUnknown, a.offerRetry(ctx, s.req, s.root, why)
	case outcomeUntracked:
		view.State, view.JobID, view.Problem = stateUntracked, s.started.JobID, why
	default:
		view.State, view.Problem = stateNotStarted, why
	}
	return a.endStart(ctx, w, s.req, s.root, view, s.log)
}

// postRoot posts a job's root message, waiting out Slack's rate limit. If
// that takes longer than queuedNotice, the person is told, once, that the job
// is queued, or, for a late root (a view of a created job), that it started.
func (a *agent) postRoot(ctx context.Context, w *bot.Work, req startRequest, view rootView, log *slog.Logger) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, rootPostBudget)
	defer cancel()
	notice, why := queuedRootNotice, "root message waits for Slack; telling the person the job is queued"
	if view.JobID != "" {
		notice, why = queuedLateRootNotice, "the started job's root message waits for Slack; telling the person"
	}
	defer a.tellIfSlow(ctx, w, req, notice, why, log)()
	opts := []slack.MsgOption{rootMetadata(w, view.JobID)}
	if req.ThreadTS != "" {
		opts = append(opts, slack.MsgOptionTS(req.ThreadTS))
	}
	// The person waits for it: it goes before the channel's other posts
	// waiting for Slack's limit (bot.FirstPost).
	return a.core.Post(bot.FirstPost(ctx), req.Channel, a.rootMessage(view), opts...)
}

// rootMetadata names w on its root message, for findRoot, and, on a late
// root, its job (jobID, "" for a root posted first).
func rootMetadata(w *bot.Work, jobID string) slack.MsgOption {
	payload := map[string]any{"work": w.Key}
	if jobID != "" {
		payload["job"] = jobID
	}
	return slack.MsgOptionMetadata(slack.SlackMetadata{EventType: RootEvent, EventPayload: payload})
}

// findRoot looks in the channel (or the request's thread) for the root
// message an earlier attempt at w posted before it could record it: a
// message of docsbot's own whose metadata names w (isRoot). "" if there is
// none. A late root's metadata also names its job (rootMetadata), returned
// with it.
func (a *agent) findRoot(ctx context.Context, req startRequest, w *bot.Work) (ts, job string, err error) {
	self := a.core.Self(ctx)
	if req.ThreadTS != "" {
		ts, err := a.findInThread(ctx, req.Channel, req.ThreadTS, func(m slack.Message) bool { return isRoot(m, self, w) })
		return ts, "", err
	}
	since := w.Received.Add(-time.Minute) // Slack's clock is not Redis's
	params := &slack.GetConversationHistoryParameters{ChannelID: req.Channel, Limit: 200, IncludeAllMetadata: true,
		Oldest: fmt.Sprintf("%d.%06d", since.Unix(), since.Nanosecond()/1000)}
	for range 10 {
		res, err := a.core.SlackIn(ctx).GetConversationHistoryContext(ctx, params)
		if err != nil {
			return "", "", err
		}
		for _, m := range res.Messages {
			if isRoot(m, self, w) {
				job, _ := m.Metadata.EventPayload["job"].(string)
				return m.Timestamp, job, nil
			}
		}
		if !res.HasMore {
			break
		}
		params.Cursor = res.ResponseMetaData.NextCursor
	}
	return "", "", nil
}

// isRoot reports whether m is the root message of w: posted by docsbot
// (self), as the poller reads a result's metadata, with metadata naming w.
// Another app's message naming w could otherwise stand for it, and name a
// job to link.
func isRoot(m slack.Message, self bot.Identity, w *bot.Work) bool {
	return m.Metadata.EventType == RootEvent && m.Metadata.EventPayload["work"] == w.Key &&
		((self.UserID != "" && m.User == self.UserID) || (self.BotID != "" && m.BotID == self.BotID))
}

// offerRetry offers "retry" in the thread of a start whose outcome cannot
// be known (store.RetryOffers.OfferRetry) and returns the problem its root message
// shows: why, and what the person can do.
func (a *agent) offerRetry(ctx context.Context, req startRequest, root, why string) string {
	req.Root = root
	payload, _ := json.Marshal(req)
	offered := root != "" && a.store.OfferRetry(ctx, req.thread(root), payload, retryOfferTTL) == nil
	problem := "docsbot cannot tell whether the agent started: " + why + ". Check the agent jobs in your docs dashboard"
	if offered {
		problem += ", or reply `" + wordRetry + "` in this thread to start it again"
	}
	return problem + "."
}

// endStart marks how a start that follows no job ended (view) before it
// shows it (showOutcome), a step (markOutcome): a later attempt only shows
// it (doc.go).
func (a *agent) endStart(ctx context.Context, w *bot.Work, req startRequest, root string, view rootView, log *slog.Logger) error {
	if _, err := w.Step(ctx, markOutcome, func(context.Context) (string, error) {
		raw, err := json.Marshal(view)
		return string(raw), err
	}); err != nil {
		// Shown all the same; a later attempt finds the intent: unknown.
		log.Warn("recording how the start ended failed", "err", err)
	}
	return a.showOutcome(ctx, w, req, root, view, log)
}

// showOutcome tells the person how their start ended, once (told mark),
// and shows it on the root message; while Slack fails for a passing reason
// the work is deferred, so the root message never stays at "Starting".
func (a *agent) showOutcome(ctx context.Context, w *bot.Work, req startRequest, root string, view rootView, log *slog.Logger) error {
	if _, err := w.Step(ctx, markTold, func(ctx context.Context) (string, error) {
		a.tell(ctx, req, root, view.note(), log)
		return "1", nil
	}); err != nil {
		log.Warn("recording that the person was told failed; they may be told again", "err", err)
	}
	if root == "" {
		return nil // a late root never posted (lateroot.go): told privately alone
	}
	view.Now = a.cfg.Now()
	ectx, cancel := context.WithTimeout(ctx, rootPostBudget)
	defer cancel()
	err := a.core.EditNow(ectx, req.Channel, root, a.rootMessage(view))
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

// handedOff records a job started in the thread of a question docsbot
// answered as that question's Handoff (bot/outcome's table): a docs job
// made from it. A thread of no recorded question costs one read; a
// failure is logged, the job goes on.
func (a *agent) handedOff(ctx context.Context, ref store.OutcomeRef, log *slog.Logger) {
	if _, err := outcome.Record(context.WithoutCancel(ctx), a.store.Outcomes, ref, nil, outcome.Event{Kind: outcome.Handoff}, a.cfg.Now()); err != nil {
		log.Warn("recording a question's handoff failed", "question", ref.String(), "err", err)
	}
}
