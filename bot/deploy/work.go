package deploy

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
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/secret"
	"github.com/docsbot/docsbot/store"
)

// Marks of a deployment's start (doc.go, "A deployment's lifecycle").
const (
	markProject = "project" // the project decided (its key, "" the implicit one)
	markMessage = "message" // the ts of the live message
	markCalling = "calling" // the API is being asked: never ask again
	markStarted = "started" // the API's status id (and preview URL): it started
	markDone    = "done"
	// markShare: the person's share of the hour is being taken ("taking"),
	// was (its token) or was spent (shareSpent): never taken twice for one
	// command, and a command told that nothing was deployed never deploys.
	markShare = "share"
	// shareSpent is markShare's value once the share was found spent,
	// written before the person is told so.
	shareSpent = "spent"
	// markLogsTold (on the follow work): the failed deployment's logs were
	// told privately.
	markLogsTold = "logs_told"
)

// Audit actions.
const (
	AuditDeploy  = "docs.deploy"
	AuditPreview = "docs.preview"
)

// follow is a deployment being followed, as its follow work carries it.
type follow struct {
	request
	Key        string    `json:"key"` // the project's key
	Record     string    `json:"record"`
	TS         string    `json:"ts"`
	StatusID   string    `json:"status_id"`
	PreviewURL string    `json:"preview_url,omitempty"`
	Started    time.Time `json:"started"`
	// Gen counts the follow works of one deployment: each lasts less than
	// bot.WorkMaxAge, then queues the next.
	Gen int `json:"gen"`
}

// doStart deploys, or builds a preview, or lists the status, once per
// command (doc.go's table).
func (d *deploys) doStart(ctx context.Context, w *bot.Work) error {
	var req request
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding a deploy command: %w", err)
	}
	log := d.log.With("user", req.User, "channel", req.Channel, "work", w.Key)
	if w.Marked(markDone) != "" {
		return nil
	}
	if req.Status {
		return d.doStatus(ctx, w, req, log)
	}
	served, ok := d.projectOf(ctx, w, req, log)
	if !ok {
		return d.done(ctx, w)
	}
	key, api := served.Key, DeployAPI(served.API)
	// dep is the deployment started: by this attempt, or read from its
	// mark.
	var dep docsapi.Deployment
	_ = json.Unmarshal([]byte(w.Marked(markStarted)), &dep)
	if w.Marked(markStarted) == "" && w.Marked(markCalling) != "" {
		return d.uncertain(ctx, w, req, key, log)
	}
	if w.Marked(markStarted) == "" {
		if refusal := d.core.Editors().Refusal(ctx, req.User, req.Channel, key); refusal != "" {
			d.answer(ctx, req, refusal, log)
			rec := bot.RefusalRecord(req.Team, req.Channel, req.User, Command, "")
			rec.Project = key
			d.core.Audit().Work(ctx, w, "audited", rec)
			return d.done(ctx, w)
		}
		share, ok, err := d.takeShare(ctx, w, req, key, log)
		if err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		if !ok {
			return d.done(ctx, w)
		}
		if ok, err := d.take(ctx, req, key, log); err != nil || !ok {
			if err != nil {
				return bot.Later(bot.RetryDelay(w.Attempt), err)
			}
			d.returnShare(ctx, req, share, log)
			return d.done(ctx, w)
		}
		ts, err := d.message(ctx, w, req, key)
		if err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		// The message's ts and calling in one mark: nothing is done
		// between them.
		if err := w.Mark(ctx, map[string]string{markMessage: ts, markCalling: "1"}); err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		var got *docsapi.Deployment
		if req.Preview {
			got, err = api.Preview(ctx, req.Branch)
		} else {
			got, err = api.Deploy(ctx)
		}
		if errors.Is(err, docsapi.ErrOutcomeUnknown) {
			log.Warn("the docs API did not confirm the deployment; it may have started", "err", err)
			return d.uncertain(ctx, w, req, key, log)
		}
		if err != nil {
			log.Warn("the docs API refused the deployment", "err", redactErr(err))
			_ = d.core.Rich().EditNow(ctx, req.Channel, ts, live(refusedView(req, key, err), planOf(req, key, stage{refused: true})))
			d.audit(ctx, w, req, key, "failed")
			return d.done(ctx, w)
		}
		if got != nil {
			dep = *got
		}
		// Not recorded, it is still followed from here; an attempt
		// after this one (its end lost) would find calling alone and
		// say the outcome is unknown.
		started, _ := json.Marshal(dep)
		if err := w.Mark(ctx, map[string]string{markStarted: string(started)}); err != nil {
			log.Warn("recording the started deployment failed", "err", err)
		}
		d.audit(ctx, w, req, key, "ok")
	}
	f := follow{request: req, Key: key, Record: w.Key, TS: w.Marked(markMessage), StatusID: dep.StatusID, PreviewURL: dep.PreviewURL,
		Started: w.Received, Gen: 1}
	// Listed with its first state; an attempt after a lost end keeps what
	// the follow work recorded since.
	if err := d.store.Deploys.AddDeploy(ctx, f.Team, record(f, string(docsapi.DeployQueued), time.Time{})); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if err := d.queueFollow(ctx, f); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	// No done mark: an attempt after a lost end finds started, keeps the
	// record (AddDeploy), and its follow work is not queued again (the
	// inbox keeps the key for an hour), so it repeats nothing.
	return nil
}

// heldLooks is how many of a follow work's first waits between looks (the
// inbox's backoff, bot.RetryDelay: 1 s, then 2 s) are waited out in the
// handler, the work still claimed (its heartbeat keeps the lease), instead
// of deferring it and claiming it again: each spares a deferral and a claim
// (4 and 6 Redis commands). A replica that stops while it waits hands the
// work back, as it does mid-look; one that dies leaves it to another when
// the lease runs out (bot.Work) rather than at the next look.
const heldLooks = 2

// doFollow reads a deployment's status and shows it in its message; until
// it ends, it looks again after a while (the inbox's backoff: 1 s, doubling
// to 30 s; the first heldLooks waits in the handler), as a new piece of work
// once it nears bot.WorkMaxAge.
func (d *deploys) doFollow(ctx context.Context, w *bot.Work) error {
	var f follow
	if err := json.Unmarshal(w.Payload, &f); err != nil {
		return fmt.Errorf("decoding a deployment to follow: %w", err)
	}
	log := d.log.With("status_id", f.StatusID, "work", w.Key)
	served, ok := d.core.Project(f.Key)
	if !ok || f.StatusID == "" {
		log.Warn("a deployment to follow with no project or status id; dropped")
		return nil
	}
	// look counts the looks of this piece of work, for the backoff: the
	// first attempt made heldLooks more than its own.
	look := w.Attempt
	if look > 1 {
		look += heldLooks
	}
	for {
		running, err := d.lookOnce(ctx, w, f, DeployAPI(served.API), look, log)
		if !running {
			return err
		}
		after := bot.RetryDelay(look)
		if w.Attempt > 1 || look > heldLooks {
			return bot.Later(after, errStillRunning)
		}
		t := time.NewTimer(after)
		select {
		case <-ctx.Done():
			t.Stop()
			return bot.Later(after, ctx.Err())
		case <-t.C:
		}
		look++
	}
}

// lookOnce reads the deployment's status once, shows it and records it. It
// reports running when the deployment is to be looked at again; otherwise
// err is what the work ends with (nil, or Later).
func (d *deploys) lookOnce(ctx context.Context, w *bot.Work, f follow, api DeployAPI, look int, log *slog.Logger) (running bool, err error) {
	st, err := api.DeployStatus(ctx, f.StatusID)
	if err != nil {
		log.Info("reading the deployment's status failed; trying again", "err", redactErr(err))
		return false, bot.Later(bot.RetryDelay(look), redacted{err})
	}
	private := st.Status == docsapi.DeployFailure && d.logsPrivately(ctx, f.Channel)
	d.core.Rich().Edit(ctx, f.Channel, f.TS, live(statusView(f, st, d.cfg.Now(), d.site(f.Key), private), planOf(f.request, f.Key, statusStage(f, st, d.cfg.Now(), d.site(f.Key)))), log)
	if private && w.Marked(markLogsTold) == "" {
		d.tell(ctx, f.request, privateLogsView(f, st), log)
		if err := w.Mark(ctx, map[string]string{markLogsTold: "1"}); err != nil {
			log.Warn("recording that the logs were told failed", "err", err)
		}
	}
	ended := st.EndedAt
	if st.Status.Done() && ended.IsZero() {
		ended = d.cfg.Now()
	}
	// The record is listed by the start, as queued: a later state
	// replaces the record alone.
	if st.Status != docsapi.DeployQueued {
		if err := d.store.Deploys.UpdateDeploy(ctx, f.Team, record(f, string(st.Status), ended)); err != nil {
			log.Warn("recording the deployment's state failed", "err", err)
		}
	}
	switch {
	case st.Status.Done():
		log.Info("deployment ended", "state", st.Status)
		return false, nil
	case d.cfg.Now().Sub(f.Started) > d.cfg.FollowFor:
		d.core.Rich().Edit(ctx, f.Channel, f.TS, live(statusView(f, st, d.cfg.Now(), d.site(f.Key), false)+
			"\n_Still not finished after "+humanize.Duration(d.cfg.FollowFor)+": docsbot stopped following it. `"+Command+" status` shows it._",
			planOf(f.request, f.Key, statusStage(f, st, d.cfg.Now(), d.site(f.Key)))), log)
		return false, nil
	case w.Age() > bot.WorkMaxAge*3/4:
		f.Gen++
		if err := d.queueFollow(ctx, f); err != nil {
			return false, bot.Later(bot.RetryDelay(look), err)
		}
		return false, nil
	}
	return true, nil
}

// errStillRunning is why a deployment is looked at again.
var errStillRunning = errors.New("the deployment is still running")

// queueFollow queues the follow work of f (its generation in the key).
func (d *deploys) queueFollow(ctx context.Context, f follow) error {
	payload, _ := json.Marshal(f)
	_, err := d.core.QueueFromWork(ctx, store.Work{Key: fmt.Sprintf("follow:%s:%d", f.Record, f.Gen), Kind: workFollow, Payload: payload})
	return err
}

// projectOf decides the project of req: the one named, the channel's, the
// person's last choice; with several and none of those, the person is told
// to name one, as when docsbot no longer serves it. The decision is marked
// (markProject) with the share's "taking" (takeShare), the first step not
// to repeat: an attempt before it decides again, from the same request.
func (d *deploys) projectOf(ctx context.Context, w *bot.Work, req request, log *slog.Logger) (bot.Served, bool) {
	if v := w.Marked(markProject); v != "" {
		key := v[1:] // "=" then the key, which is "" for the implicit project
		p, ok := d.core.Project(key)
		if !ok {
			d.answer(ctx, req, bot.NotServed(key), log)
		}
		return p, ok
	}
	p, tell := d.core.Projects().Choose(ctx, project.Request{Team: req.Team, Channel: req.Channel, User: req.User,
		Text: projectToken(req.Project)}, "command")
	if tell != "" {
		d.answer(ctx, req, tell, log)
		return bot.Served{}, false
	}
	return p, true
}

// projectToken is "project=NAME" for a project named, "" for none.
func projectToken(name string) string {
	if name == "" {
		return ""
	}
	return "project=" + name
}

// take spends one call of the organisation's budget of deployments (or of
// previews), kept in Redis across replicas; when spent, the person is told
// when to try again and it reports false.
func (d *deploys) take(ctx context.Context, req request, key string, log *slog.Logger) (bool, error) {
	l, what := deployLimit, "deployments"
	if req.Preview {
		l, what = previewLimit, "previews"
	}
	name := what + ":" + key
	if p, ok := d.core.Project(key); ok && p.VisitorsBudget != "" {
		name = what + ":" + p.VisitorsBudget // projects of one organisation share its limits
	}
	g, err := d.store.Limits.TakeBudget(ctx, store.Budget{Name: name, Limit: l.n, Window: l.window}, 1)
	if err != nil {
		return false, err
	}
	if !g.OK() {
		log.Info("deployment refused: the organisation's budget is spent", "what", what)
		d.answer(ctx, req, fmt.Sprintf("The docs platform allows %d %s every %s for the whole organisation, and they are used. Try again %s.",
			l.n, what, humanize.Duration(l.window), humanize.In(g.RetryAfter, d.cfg.Now())), log)
		return false, nil
	}
	return true, nil
}

// message posts the deployment's live message once: its ts is marked
// (markMessage) with calling, by the caller.
func (d *deploys) message(ctx context.Context, w *bot.Work, req request, key string) (string, error) {
	if ts := w.Marked(markMessage); ts != "" {
		return ts, nil
	}
	ts, err := d.core.Rich().Post(ctx, req.Channel, live(startingView(req, key), planOf(req, key, stage{})))
	if err != nil {
		return "", err
	}
	if req.InQuestion {
		// The question's buttons go: the live message follows it.
		d.replace(ctx, asker(req), ":rocket: Deploying "+what(req, key)+": the live message in the channel follows it.")
	}
	return ts, nil
}

// uncertain ends a start whose call may or may not have reached the API:
// it is not called again; the message and the person say so.
func (d *deploys) uncertain(ctx context.Context, w *bot.Work, req request, key string, log *slog.Logger) error {
	// Recorded first, so that `/docs-deploy status`, which the person is
	// pointed to, lists it.
	f := follow{request: req, Key: key, Record: w.Key, TS: w.Marked(markMessage), Started: w.Received}
	if err := d.store.Deploys.SaveDeploy(ctx, f.Team, record(f, "unknown", time.Time{})); err != nil {
		log.Warn("recording the uncertain deployment failed", "err", err)
	}
	text := uncertainView(req, key)
	if ts := w.Marked(markMessage); ts != "" {
		if err := d.core.Rich().EditNow(ctx, req.Channel, ts, live(text, planOf(req, key, stage{uncertain: true}))); err != nil {
			log.Warn("showing the uncertain deployment failed", "err", err)
		}
	}
	d.answer(ctx, req, text, log)
	d.audit(ctx, w, req, key, "unknown")
	return d.done(ctx, w)
}

// record is f's record in state, for /docs-deploy status.
func record(f follow, state string, ended time.Time) store.DeployRecord {
	return store.DeployRecord{ID: f.Record, Preview: f.Preview, Branch: f.Branch, Project: f.Key,
		StatusID: f.StatusID, PreviewURL: f.PreviewURL, State: state, User: f.User, Channel: f.Channel, TS: f.TS,
		Started: f.Started, Ended: ended}
}

// audit records the deployment once.
func (d *deploys) audit(ctx context.Context, w *bot.Work, req request, key, outcome string) {
	action, detail := AuditDeploy, ""
	if req.Preview {
		action, detail = AuditPreview, req.Branch
	}
	d.core.Audit().Work(ctx, w, "audited", store.AuditRecord{Team: req.Team, Channel: req.Channel, User: req.User, Action: action,
		Outcome: outcome, Detail: detail, Project: key})
}

// giveUp tells the person their command waited too long.
func (d *deploys) giveUp(ctx context.Context, w *bot.Work) {
	var req request
	if json.Unmarshal(w.Payload, &req) != nil {
		return
	}
	d.answer(ctx, req, "docsbot could not act on `"+Command+"`: Slack or its storage was unavailable for too long. Nothing was deployed; try again.", d.log)
}

// done marks the work ended.
func (d *deploys) done(ctx context.Context, w *bot.Work) error {
	if err := w.Mark(context.WithoutCancel(ctx), map[string]string{markDone: "1"}); err != nil {
		d.log.Warn("marking a deploy command done failed", "work", w.Key, "err", err)
	}
	return nil
}

// answer answers the person's command privately: in place of the question
// when they pressed its Deploy button, else as tell does.
func (d *deploys) answer(ctx context.Context, req request, text string, log *slog.Logger) {
	if req.InQuestion {
		d.replace(ctx, asker(req), text)
		return
	}
	d.tell(ctx, req, text, log)
}

// asker is who asked for req and where, for the question's response_url.
func asker(req request) slack.SlashCommand {
	return slack.SlashCommand{TeamID: req.Team, ChannelID: req.Channel, UserID: req.User, ResponseURL: req.ResponseURL}
}

// tell tells the person privately, in a message of its own.
func (d *deploys) tell(ctx context.Context, req request, text string, log *slog.Logger) {
	if err := d.core.TellPrivately(ctx, bot.Private{User: req.User, Channel: req.Channel, ResponseURL: req.ResponseURL, Text: text}); err != nil {
		log.Warn("telling the person privately failed", "err", err)
	}
}

// site is the public docs site of the project key, "" when unknown.
func (d *deploys) site(key string) string {
	if p, ok := d.core.Project(key); ok {
		return p.Assistant.SiteURL
	}
	return ""
}

// shareOf is the person's share of deployments and previews an hour, in
// Redis across replicas.
func shareOf(req request, perUser int) store.Budget {
	return store.Budget{Name: "deploy:" + req.Team + ":" + req.User, Limit: perUser, Window: time.Hour}
}

// takeShare takes one of the person's deployments and previews of the hour,
// once per command: marked "taking" (with the project, key) before and with
// its token after, so
// that a later attempt never takes it again (an attempt that stopped in
// between costs the person nothing). When the share is spent the person is
// told when to try again, and ok is false; the docs API has not been asked.
func (d *deploys) takeShare(ctx context.Context, w *bot.Work, req request, key string, log *slog.Logger) (token string, ok bool, err error) {
	switch v := w.Marked(markShare); v {
	case "":
	case shareSpent:
		// An earlier attempt found it spent and may have told the person:
		// told again (at least once), nothing deployed.
		d.answer(ctx, req, fmt.Sprintf("You started %d deployments and previews in the last hour, as many as docsbot starts for one person. "+
			"Nothing was deployed; try again later.", d.cfg.PerUser), log)
		return "", false, nil
	default:
		return strings.TrimPrefix(v, "taking"), true, nil
	}
	if err := w.Mark(ctx, map[string]string{markShare: "taking", markProject: "=" + key}); err != nil {
		return "", false, err
	}
	g, err := d.store.Limits.TakeBudget(ctx, shareOf(req, d.cfg.PerUser), 1)
	if err != nil {
		return "", false, err
	}
	if !g.OK() {
		log.Info("deployment refused: the person's share of the hour is spent")
		// Marked before the person is told, so that a later attempt never
		// deploys what they were told was not.
		if err := w.Mark(ctx, map[string]string{markShare: shareSpent}); err != nil {
			return "", false, err
		}
		d.answer(ctx, req, fmt.Sprintf("You started %d deployments and previews in the last hour, as many as docsbot starts for one person. "+
			"Nothing was deployed; you can try again %s.", d.cfg.PerUser, humanize.In(g.RetryAfter, d.cfg.Now())), log)
		return "", false, nil
	}
	if err := w.Mark(ctx, map[string]string{markShare: g.Tokens[0]}); err != nil {
		log.Warn("recording the share taken failed", "err", err)
	}
	return g.Tokens[0], true, nil
}

// returnShare gives the person's share back when nothing was deployed.
func (d *deploys) returnShare(ctx context.Context, req request, token string, log *slog.Logger) {
	if token == "" {
		return
	}
	if err := d.store.Limits.ReturnBudget(ctx, shareOf(req, d.cfg.PerUser), []string{token}); err != nil {
		log.Warn("giving the person's share back failed", "err", err)
	}
}

// logsPrivately reports whether a failed deployment's logs in channel go to
// the person alone: the channel is shared with another organisation, or
// Slack cannot say (bot.Sight for a post nobody asked for).
func (d *deploys) logsPrivately(ctx context.Context, channel string) bool {
	return !d.core.Sight(ctx, "", channel).Words
}

// redactErr is err's message for a log, taken out of what the docs API may
// have echoed: keys and tokens (secret.Redact).
func redactErr(err error) string { return secret.Redact(err.Error()) }

// redacted is an error whose message is redactErr's, for the inbox to log;
// errors.Is and errors.As still see the error it wraps.
type redacted struct{ err error }

func (r redacted) Error() string { return redactErr(r.err) }
func (r redacted) Unwrap() error { return r.err }
