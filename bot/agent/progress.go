package agent

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// The live status of a job. Its root message shows the elapsed time, its
// thread Slack's working status (threadStatusShown), and the person's
// message a reaction: ⏳ while the agent works, then ✅, ❌ or 🗄.
//
// Only the poller that holds a job's claim refreshes them, as it polls: the
// root message when the elapsed time it shows changes (once a minute), the
// thread status before Slack lets it expire. Each refresh is done once
// across every replica (store.Limits.Once, named by the job, its run and what is
// shown), so adding replicas adds no edits; and the refreshes share a
// budget across replicas, so that many jobs at once stay inside Slack's
// tier-3 limits (about 50 chat.update calls a minute per workspace) with
// room left for the edits that change a job's state, which are always made.
// A replica that was refused a budget asks Redis about neither again until
// the refusal said one call fits (Grant.RetryAfter): with many jobs, most
// polls then make no refresh and send Redis nothing for it.
const (
	// threadStatusEvery is how often the thread's working status is set
	// again while the agent works: with polls at most a minute apart
	// (DefaultPollMaxInterval), before Slack's two minutes run out.
	threadStatusEvery = time.Minute
	// workingStatus is the thread status while the agent works.
	workingStatus = "is working on your docs…"
	// shownKeep is how long a refresh is remembered across replicas.
	shownKeep = 10 * time.Minute
	// progressForget is how long this replica remembers what it last saw
	// of a job after polling it: a job polled elsewhere since is forgotten.
	progressForget = 10 * time.Minute
)

// The reactions on the person's message that asked for a job.
const (
	reactionWorking  = "hourglass_flowing_sand"
	reactionDone     = "white_check_mark"
	reactionFailed   = "x"
	reactionArchived = "file_cabinet"
)

// progressEditBudget is the shared budget of the root-message edits that
// only move the elapsed time: 30 a minute across replicas, leaving Slack's
// other 20 chat.update calls a minute to state changes.
func progressEditBudget() store.Budget {
	return store.Budget{Name: "slack.progress_edits", Limit: 30, Window: time.Minute}
}

// threadStatusBudget is the shared budget of thread status refreshes.
func threadStatusBudget() store.Budget {
	return store.Budget{Name: "slack.thread_status", Limit: 40, Window: time.Minute}
}

// outcomeReaction is the reaction that says how a run ended.
func outcomeReaction(s docsapi.Status) string {
	switch s {
	case docsapi.StatusCompleted:
		return reactionDone
	case docsapi.StatusFailed:
		return reactionFailed
	case docsapi.StatusArchived:
		return reactionArchived
	}
	return ""
}

// progress remembers what this replica last saw of the jobs it polls, so
// that a poll asks Redis about a refresh only when one may be due.
type progress struct {
	mu     sync.Mutex
	jobs   map[string]seen
	pruned time.Time
	// spent holds, by budget name, until when the budget refuses by its
	// last refusal here: no call fits before, whoever takes from it.
	spent map[string]time.Time
}

// seen is the live status of one job's run as this replica last saw it.
type seen struct {
	gen     int64
	elapsed string // the elapsed time shown
	round   int64  // the thread status's refresh round
	at      time.Time
}

// changed records what a poll shows of job id's run gen and reports whether
// its elapsed time or thread status round differ from the last poll here.
func (p *progress) changed(id string, gen int64, elapsed string, round int64, now time.Time) (edit, status bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.jobs == nil {
		p.jobs = map[string]seen{}
	}
	if now.Sub(p.pruned) > progressForget {
		p.pruned = now
		for k, s := range p.jobs {
			if now.Sub(s.at) > progressForget {
				delete(p.jobs, k)
			}
		}
	}
	last, ok := p.jobs[id]
	p.jobs[id] = seen{gen: gen, elapsed: elapsed, round: round, at: now}
	if !ok || last.gen != gen {
		return true, true
	}
	return last.elapsed != elapsed, last.round != round
}

// refusing reports whether budget name is known to refuse at now.
func (p *progress) refusing(name string, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return now.Before(p.spent[name])
}

// refused records that budget name refused at now, for retry (0: never
// fits, recorded as nothing known).
func (p *progress) refused(name string, now time.Time, retry time.Duration) {
	if retry <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.spent == nil {
		p.spent = map[string]time.Time{}
	}
	p.spent[name] = now.Add(retry)
}

// forget drops a job whose run ended.
func (p *progress) forget(id string) {
	p.mu.Lock()
	delete(p.jobs, id)
	p.mu.Unlock()
}

// threadStatusShown reports whether job j's thread shows Slack's working
// status while the agent works: when the job was asked in a thread (a
// mention, a DM, the pane: its root message is a reply there) or runs
// again in its thread (a follow-up), where the root message may be out of
// sight. The first run of a job whose root message starts its own thread
// (a slash command, the modal) shows its state on that root message, which
// is all its thread holds: a status there is a Slack call that shows
// nothing more (BENCHMARKS.md, "Frames read once").
func threadStatusShown(j *store.Job) bool { return j.Root != "" || j.Generation > 1 }

// working shows that the agent works on a job's run: ⏳ on the person's
// message (taking off the outcome of the run before, if any) and, where it
// is shown, the thread's working status. The root message says so already.
func (a *agent) working(ctx context.Context, j *store.Job, before docsapi.Status, log *slog.Logger) {
	var remove []string
	if r := outcomeReaction(before); r != "" {
		remove = append(remove, r)
	}
	a.core.Decorations().React(ctx, j.Thread.Channel, j.Origin, reactionWorking, remove, log)
	if threadStatusShown(j) {
		a.core.Decorations().SetThreadStatus(ctx, j.Thread.Channel, j.Thread.TS, workingStatus, log)
	}
	a.core.Decorations().SetPaneSession(ctx, j.Thread.Channel, j.Thread.TS, j.Requester, true, log)
}

// ended shows how a job's run ended on the person's message. The result
// posted in the thread clears the thread's working status on Slack; it is
// cleared again after any refresh still on its way (a 429 waited out), so
// that none lands after the result.
func (a *agent) ended(ctx context.Context, j *store.Job, status docsapi.Status, log *slog.Logger) {
	a.core.Decorations().React(ctx, j.Thread.Channel, j.Origin, outcomeReaction(status), []string{reactionWorking}, log)
	if a.core.Decorations().ThreadStatusPending(j.Thread.Channel, j.Thread.TS) {
		a.core.Decorations().SetThreadStatus(ctx, j.Thread.Channel, j.Thread.TS, "", log)
	}
	a.core.Decorations().SetPaneSession(ctx, j.Thread.Channel, j.Thread.TS, j.Requester, false, log)
	a.prog.forget(j.ID)
}

// refresh brings a polled, still active job's live status up to date: the
// root message when the API's status changed or the elapsed time moved,
// and the thread status every threadStatusEvery. Called by the poller that
// holds the job's claim. A run no longer followed (Stop in the pane,
// store.Jobs.StopFollowing) is left as it is: the mark is read with
// the claim, so a poll whose claim was taken before the mark landed is the
// only one that may still refresh it (none does once Stop was answered in
// the thread: the pane marks first).
func (a *agent) refresh(ctx context.Context, c store.Claim, job *docsapi.Job, log *slog.Logger) {
	if !c.Job.Followed() {
		return
	}
	v := jobView(&c.Job)
	v.Status, v.Now = job.Status, a.cfg.Now()
	if v.Model == "" {
		v.Model = job.Model
	}
	if v.Branch == "" && job.Source.Ref != nil {
		v.Branch = *job.Source.Ref
	}
	run := v.Now.Sub(v.Started)
	elapsed, round := v.elapsed(), int64(run/threadStatusEvery)
	edit, status := a.prog.changed(c.JobID, c.Job.Generation, elapsed, round, v.Now)
	// The start (or follow-up) showed the first minute and set the status.
	edit = edit && run >= time.Minute
	status = status && round > 0 && threadStatusShown(&c.Job)
	name := fmt.Sprintf("%s:%d", c.JobID, c.Job.Generation)
	switch {
	case string(job.Status) != c.Job.Status:
		a.updateRoot(ctx, c.Job.Thread.Channel, rootTS(&c.Job), v, log)
	case edit && a.mayRefresh(ctx, "shown:"+name+":"+elapsed, progressEditBudget(), v.Now, log):
		a.updateRoot(ctx, c.Job.Thread.Channel, rootTS(&c.Job), v, log)
	}
	if status && a.mayRefresh(ctx, fmt.Sprintf("status:%s:%d", name, round), threadStatusBudget(), v.Now, log) {
		a.core.Decorations().SetThreadStatus(ctx, c.Job.Thread.Channel, c.Job.Thread.TS, workingStatus, log)
	}
}

// mayRefresh reports whether this replica makes the refresh called name:
// the first across replicas (once) with a call of budget b. A budget known
// to refuse at now skips it without asking Redis.
func (a *agent) mayRefresh(ctx context.Context, name string, b store.Budget, now time.Time, log *slog.Logger) bool {
	if a.prog.refusing(b.Name, now) {
		return false
	}
	return a.once(ctx, name, log) && a.budget(ctx, b, now, log)
}

// once reports whether this replica is the first to make the refresh
// called name; a Redis failure skips it.
func (a *agent) once(ctx context.Context, name string, log *slog.Logger) bool {
	first, err := a.store.Once(ctx, name, shownKeep)
	if err != nil {
		log.Debug("live status refresh skipped", "refresh", name, "err", err)
	}
	return first
}

// budget takes one call from a shared budget of cosmetic Slack calls. A
// refusal, or Redis failing to answer, means the refresh is skipped; a
// refusal is remembered until one call fits (progress.refusing).
func (a *agent) budget(ctx context.Context, b store.Budget, now time.Time, log *slog.Logger) bool {
	g, err := a.store.TakeBudget(ctx, b, 1)
	if err != nil {
		log.Debug("no budget for a live status refresh", "budget", b.Name, "err", err)
		return false
	}
	if !g.OK() {
		a.prog.refused(b.Name, now, g.RetryAfter)
	}
	return g.OK()
}
