package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// doStart deploys, or builds a preview, or lists the status, once per
// command, by doc.go's table: an attempt that finds the docs API called
// (the Paid call of starting.call) follows what started, or says the
// outcome is unknown; otherwise the start's phases run in order (check,
// share, budget, post, call), each ending the start when it must, and the
// deployment started is followed.
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
	s := &starting{d: d, w: w, req: req, key: served.Key, api: DeployAPI(served.API), log: log}
	started, err := w.Outcome(s.call())
	switch {
	case errors.Is(err, bot.ErrUnfinished):
		return d.uncertain(ctx, w, req, s.key, log)
	case started != "":
		_ = json.Unmarshal([]byte(started), &s.dep)
		return s.follow(ctx)
	}
	for _, phase := range []func(context.Context) (bool, error){s.check, s.share, s.budget, s.post, s.callAPI} {
		if end, err := phase(ctx); end || err != nil {
			return err
		}
	}
	return s.follow(ctx)
}

// starting is one attempt at a deployment's start (doStart): what its
// phases decided and did. Each phase reports whether the start ends there
// (the person was told why, the work marked done) or with err (Later).
type starting struct {
	d   *deploys
	w   *bot.Work
	req request
	key string // the project's
	api DeployAPI
	log *slog.Logger
	// token is the person's share taken, "" when none is to be given back.
	token string
	// ts is the live message's.
	ts string
	// dep is the deployment started: by this attempt, or read from its
	// mark.
	dep docsapi.Deployment
}

// call is the docs API's call, a paid one: calling (with the live
// message's ts, nothing done between them) before, the deployment started
// after.
func (s *starting) call() bot.Call {
	return bot.Call{Begun: markCalling, Done: markStarted, With: map[string]string{markMessage: s.ts}}
}

// check refuses a person who may not deploy the project (bot.Editors).
func (s *starting) check(ctx context.Context) (bool, error) {
	d, req := s.d, s.req
	refusal := d.core.Editors().For(roles.ActDeploys).Refusal(ctx, req.User, req.Channel, s.key)
	if refusal == "" {
		return false, nil
	}
	d.answer(ctx, req, refusal, s.log)
	rec := bot.RefusalRecord(req.Team, req.Channel, req.User, Command, "")
	rec.Project = s.key
	d.core.Audit().Work(ctx, s.w, "audited", rec)
	return true, d.done(ctx, s.w)
}

// share takes the person's share of the hour, once (takeShare); spent,
// the start ends.
func (s *starting) share(ctx context.Context) (bool, error) {
	token, ok, err := s.d.takeShare(ctx, s.w, s.req, s.key, s.log)
	if err != nil {
		return true, bot.Later(bot.RetryDelay(s.w.Attempt), err)
	}
	if !ok {
		return true, s.d.done(ctx, s.w)
	}
	s.token = token
	return false, nil
}

// budget takes a call of the organisation's budget (take); spent, the
// person's share is given back and the start ends. It is not marked: an
// attempt that finds the call begun or done never comes here.
func (s *starting) budget(ctx context.Context) (bool, error) {
	ok, err := s.d.take(ctx, s.req, s.key, s.log)
	if err != nil {
		return true, bot.Later(bot.RetryDelay(s.w.Attempt), err)
	}
	if !ok {
		s.d.returnShare(ctx, s.req, s.token, s.log)
		return true, s.d.done(ctx, s.w)
	}
	return false, nil
}

// post posts the live message, once (message).
func (s *starting) post(ctx context.Context) (bool, error) {
	ts, err := s.d.message(ctx, s.req, s.key)
	if err != nil {
		return true, bot.Later(bot.RetryDelay(s.w.Attempt), err)
	}
	s.ts = ts
	return false, nil
}

// callAPI asks the docs API to deploy, at most once (bot.Work.Paid on
// call): a call that may have started is uncertain, one refused is shown
// refused and ends the start; one started is audited and goes on to be
// followed, its mark or not (an attempt after this one, its end lost,
// would find calling alone and say the outcome is unknown).
func (s *starting) callAPI(ctx context.Context) (bool, error) {
	d, w, req := s.d, s.w, s.req
	called := false
	_, err := w.Paid(ctx, s.call(), func(ctx context.Context) (string, error) {
		called = true
		var got *docsapi.Deployment
		var err error
		if req.Preview {
			got, err = s.api.Preview(ctx, req.Branch)
		} else {
			got, err = s.api.Deploy(ctx)
		}
		if err != nil {
			return "", err
		}
		if got != nil {
			s.dep = *got
		}
		started, _ := json.Marshal(s.dep)
		return string(started), nil
	})
	switch {
	case errors.Is(err, bot.ErrUnfinished):
		return true, d.uncertain(ctx, w, req, s.key, s.log)
	case err != nil && !called:
		return true, bot.Later(bot.RetryDelay(w.Attempt), err)
	case errors.Is(err, docsapi.ErrOutcomeUnknown):
		s.log.Warn("the docs API did not confirm the deployment; it may have started", "err", err)
		return true, d.uncertain(ctx, w, req, s.key, s.log)
	case errors.Is(err, bot.ErrUnmarked):
		s.log.Warn("recording the started deployment failed", "err", err)
	case err != nil:
		s.log.Warn("the docs API refused the deployment", "err", redactErr(err))
		_ = d.core.EditNow(ctx, req.Channel, s.ts, live(refusedView(req, s.key, err), planOf(req, s.key, stage{refused: true})))
		d.audit(ctx, w, req, s.key, "failed")
		return true, d.done(ctx, w)
	}
	d.audit(ctx, w, req, s.key, "ok")
	return false, nil
}

// follow records the deployment started, listed with its first state (an
// attempt after a lost end keeps what the follow work recorded since), and
// queues its follow work. No done mark: an attempt after a lost end finds
// started, keeps the record (AddDeploy), and its follow work is not queued
// again (the inbox keeps the key for an hour), so it repeats nothing.
func (s *starting) follow(ctx context.Context) error {
	d, w, req := s.d, s.w, s.req
	f := follow{request: req, Key: s.key, Record: w.Key, TS: w.Marked(markMessage), StatusID: s.dep.StatusID, PreviewURL: s.dep.PreviewURL,
		Started: w.Received, Gen: 1}
	if err := d.store.Deploys.AddDeploy(ctx, f.Team, record(ctx, f, string(docsapi.DeployQueued), time.Time{})); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if err := d.queueFollow(ctx, f); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return nil
}

// projectOf decides the project of req: the one named, the channel's, the
// person's last choice; with several and none of those, the person is told
// to name one, as when docsbot no longer serves it. The decision is marked
// (markProject) with the share's "taking" (takeShare), the first step not
// to repeat: an attempt before it decides again, from the same request; one
// after it reads the decision (a value, not a step).
func (d *deploys) projectOf(ctx context.Context, w *bot.Work, req request, log *slog.Logger) (bot.Served, bool) {
	if v := w.Marked(markProject); v != "" {
		key := v[1:] // "=" then the key, which is "" for the implicit project
		p, ok := d.core.Project(key)
		if !ok {
			d.answer(ctx, req, project.NotServed(key), log)
		}
		return p, ok
	}
	p, tell := d.core.ProjectsIn(ctx).Choose(ctx, project.Request{Team: req.Team, Channel: req.Channel, User: req.User,
		Text: projectToken(req.Project)}, "command")
	if tell != "" {
		d.answer(ctx, req, tell, log)
		return bot.Served{}, false
	}
	return p, true
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

// message posts the deployment's live message. Its ts is marked
// (markMessage) with calling, in one write, by the caller (starting.call):
// an attempt that finds it marked finds calling too and never comes here,
// and one that stopped before the write posts again.
func (d *deploys) message(ctx context.Context, req request, key string) (string, error) {
	ts, err := d.core.Post(ctx, req.Channel, live(startingView(req, key), planOf(req, key, stage{})))
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
	if err := d.store.Deploys.SaveDeploy(ctx, f.Team, record(ctx, f, "unknown", time.Time{})); err != nil {
		log.Warn("recording the uncertain deployment failed", "err", err)
	}
	text := uncertainView(req, key)
	if ts := w.Marked(markMessage); ts != "" {
		if err := d.core.EditNow(ctx, req.Channel, ts, live(text, planOf(req, key, stage{uncertain: true}))); err != nil {
			log.Warn("showing the uncertain deployment failed", "err", err)
		}
	}
	d.answer(ctx, req, text, log)
	d.audit(ctx, w, req, key, "unknown")
	return d.done(ctx, w)
}

// shareOf is the person's share of deployments and previews an hour, in
// Redis across replicas.
func shareOf(req request, perUser int) store.Budget {
	return store.Budget{Name: "deploy:" + req.Team + ":" + req.User, Limit: perUser, Window: time.Hour}
}

// takeShare takes one of the person's deployments and previews of the hour,
// once per command (a bot.Work.Paid call on markShare): marked "taking"
// (with the project, key) before and with its token after, so that a later
// attempt never takes it again; an attempt that stopped in between
// (bot.ErrUnfinished) goes on with no token, which costs the person
// nothing. When the share is spent, shareSpent is marked before the person
// is told when to try again, so that a command told nothing was deployed
// never deploys; ok is then false and the docs API has not been asked.
func (d *deploys) takeShare(ctx context.Context, w *bot.Work, req request, key string, log *slog.Logger) (token string, ok bool, err error) {
	// again is when the person may try again: when the share says, else
	// (an earlier attempt found it spent) later.
	again := "try again later"
	call := bot.Call{Begun: markShare, Done: markShare, With: map[string]string{markShare: shareTaking, markProject: "=" + key}}
	v, err := w.Paid(ctx, call, func(ctx context.Context) (string, error) {
		g, err := d.store.Limits.TakeBudget(ctx, shareOf(req, d.cfg.PerUser), 1)
		if err != nil {
			return "", err
		}
		if !g.OK() {
			log.Info("deployment refused: the person's share of the hour is spent")
			again = "you can try again " + humanize.In(g.RetryAfter, d.cfg.Now())
			return shareSpent, nil
		}
		return g.Tokens[0], nil
	})
	switch {
	case errors.Is(err, bot.ErrUnfinished):
		return "", true, nil
	case v == shareSpent && err != nil:
		return "", false, err // not marked: not told
	case v == shareSpent:
		// Told again by an attempt after one that found it spent (at
		// least once), nothing deployed.
		d.answer(ctx, req, fmt.Sprintf("You started %d deployments and previews in the last hour, as many as docsbot starts for one person. "+
			"Nothing was deployed; %s.", d.cfg.PerUser, again), log)
		return "", false, nil
	case errors.Is(err, bot.ErrUnmarked):
		log.Warn("recording the share taken failed", "err", err)
	case err != nil:
		return "", false, err
	}
	return v, true, nil
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
