package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
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
	// shareTaking is markShare's value while the share is being taken
	// (bot.Call.Begun).
	shareTaking = "taking"
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
	room := ""
	if st.Status == docsapi.DeployFailure {
		room = d.logsPrivately(ctx, f.Channel)
	}
	d.core.Edit(ctx, f.Channel, f.TS, live(statusView(f, st, d.cfg.Now(), d.site(f.Key), room), planOf(f.request, f.Key, statusStage(f, st, d.cfg.Now(), d.site(f.Key)))), log)
	if room != "" {
		if _, err := w.Step(ctx, markLogsTold, func(ctx context.Context) (string, error) {
			d.tell(ctx, f.request, privateLogsView(f, st, room), log)
			return "1", nil
		}); err != nil {
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
		if err := d.store.Deploys.UpdateDeploy(ctx, f.Team, record(ctx, f, string(st.Status), ended)); err != nil {
			log.Warn("recording the deployment's state failed", "err", err)
		}
	}
	switch {
	case st.Status.Done():
		log.Info("deployment ended", "state", st.Status)
		return false, nil
	case d.cfg.Now().Sub(f.Started) > d.cfg.FollowFor:
		d.core.Edit(ctx, f.Channel, f.TS, live(statusView(f, st, d.cfg.Now(), d.site(f.Key), "")+
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
var errStillRunning = fmt.Errorf("the deployment is still running: %w", bot.ErrNotYet)

// queueFollow queues the follow work of f (its generation in the key).
func (d *deploys) queueFollow(ctx context.Context, f follow) error {
	payload, _ := json.Marshal(f)
	_, err := d.core.QueueFromWork(ctx, store.Work{Key: fmt.Sprintf("follow:%s:%d", f.Record, f.Gen), Kind: workFollow, Payload: payload})
	return err
}

// projectToken is "project=NAME" for a project named, "" for none.
func projectToken(name string) string {
	if name == "" {
		return ""
	}
	return "project=" + name
}

// record is f's record in state, for /docs-deploy status, in the
// workspace ctx names (its work's).
func record(ctx context.Context, f follow, state string, ended time.Time) store.DeployRecord {
	return store.DeployRecord{ID: f.Record, Preview: f.Preview, Branch: f.Branch, Project: f.Key,
		StatusID: f.StatusID, PreviewURL: f.PreviewURL, State: state, User: f.User, Channel: f.Channel, TS: f.TS,
		Started: f.Started, Ended: ended, Workspace: bot.WorkspaceOf(ctx)}
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

// logsPrivately says why a failed deployment's logs in channel go to the
// person alone, "" when they do not: the channel is shared with another
// organisation, has a guest or a person of another organisation in it, or
// Slack cannot say (bot.Sight.Room for a post nobody asked for).
func (d *deploys) logsPrivately(ctx context.Context, channel string) string {
	if s := d.core.Sight(ctx, "", channel); !s.Words {
		return s.Room
	}
	return ""
}

// redactErr is err's message for a log, taken out of what the docs API may
// have echoed: keys and tokens (secret.Redact).
func redactErr(err error) string { return secret.Redact(err.Error()) }

// redacted is an error whose message is redactErr's, for the inbox to log;
// errors.Is and errors.As still see the error it wraps.
type redacted struct{ err error }

func (r redacted) Error() string { return redactErr(r.err) }
func (r redacted) Unwrap() error { return r.err }
