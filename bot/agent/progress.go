package agent

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// The live status of a job. Its root message shows the elapsed time, its
// thread Slack's working status, and the person's message a reaction: ⏳
// while the agent works, then ✅, ❌ or 🗄. Only the replica whose poller
// holds a job's claim refreshes them, at the pace of its polls, so adding
// replicas adds no edits; and the refreshes that only move time forward
// share a budget across every replica (Redis), so that many jobs at once stay
// inside Slack's tier-3 limits (about 50 calls a minute per workspace for
// chat.update) with room left for the edits that change a job's state.
const (
	// statusEvery is the least time between two edits of a root message
	// that only move its elapsed time (which changes once a minute).
	statusEvery = 45 * time.Second
	// threadStatusEvery is how often the thread's working status is set
	// again while the agent works: before Slack's two minutes run out.
	threadStatusEvery = 90 * time.Second
	// workingStatus is the thread status while the agent works.
	workingStatus = "is working on your docs…"
	// progressForget is how long a job's refresh times are kept after its
	// last poll here: a job whose claim moved to another replica is
	// forgotten.
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

// progress remembers, per job this replica polls, what its live status
// showed last and when.
type progress struct {
	mu     sync.Mutex
	jobs   map[string]*shown
	pruned time.Time
}

// shown is the last refresh of one job's run.
type shown struct {
	gen      int64
	edited   time.Time // the root message's last edit
	elapsed  string    // the elapsed time it showed
	statusAt time.Time // the thread status's last setting
	seen     time.Time
}

// getLocked returns the record of job id's run gen, new when the run changed.
// Call with p.mu held.
func (p *progress) getLocked(id string, gen int64, now time.Time) *shown {
	if p.jobs == nil {
		p.jobs = map[string]*shown{}
	}
	if now.Sub(p.pruned) > progressForget {
		p.pruned = now
		for k, s := range p.jobs {
			if now.Sub(s.seen) > progressForget {
				delete(p.jobs, k)
			}
		}
	}
	s := p.jobs[id]
	if s == nil || s.gen != gen {
		s = &shown{gen: gen}
		p.jobs[id] = s
	}
	s.seen = now
	return s
}

// edited records a root message edit showing elapsed.
func (p *progress) edited(id string, gen int64, now time.Time, elapsed string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.getLocked(id, gen, now)
	s.edited, s.elapsed = now, elapsed
}

// statusSet records a thread status set.
func (p *progress) statusSet(id string, gen int64, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.getLocked(id, gen, now).statusAt = now
}

// due says which refreshes of a job's run are due: an edit when the elapsed
// time shown would change and statusEvery has passed, the thread status when
// threadStatusEvery has.
func (p *progress) due(id string, gen int64, now time.Time, elapsed string) (edit, status bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.getLocked(id, gen, now)
	edit = s.elapsed != elapsed && now.Sub(s.edited) >= statusEvery
	status = now.Sub(s.statusAt) >= threadStatusEvery
	return edit, status
}

// forget drops a job whose run ended.
func (p *progress) forget(id string) {
	p.mu.Lock()
	delete(p.jobs, id)
	p.mu.Unlock()
}

// working shows that the agent works on a job's run: ⏳ on the person's
// message (taking off the outcome of the run before, if any) and the
// thread's working status.
func (a *agent) working(ctx context.Context, j *store.Job, before docsapi.Status, log *slog.Logger) {
	var remove []string
	if r := outcomeReaction(before); r != "" {
		remove = append(remove, r)
	}
	a.core.React(ctx, j.Thread.Channel, j.Origin, reactionWorking, remove, log)
	a.core.SetThreadStatus(ctx, j.Thread.Channel, j.Thread.TS, workingStatus, log)
	a.prog.statusSet(j.ID, j.Generation, a.cfg.Now())
}

// ended shows how a job's run ended on the person's message. The result
// posted in the thread clears the thread's working status.
func (a *agent) ended(ctx context.Context, j *store.Job, status docsapi.Status, log *slog.Logger) {
	a.core.React(ctx, j.Thread.Channel, j.Origin, outcomeReaction(status), []string{reactionWorking}, log)
	a.prog.forget(j.ID)
}

// refresh brings a polled, still active job's live status up to date: the
// root message when the API's status changed or the elapsed time moved (at
// most every statusEvery, within the shared budget), and the thread status
// before it expires. Called by the poller that holds the job's claim.
func (a *agent) refresh(ctx context.Context, c store.Claim, job *docsapi.Job, log *slog.Logger) {
	now := a.cfg.Now()
	v := jobView(&c.Job)
	v.Status, v.Now = job.Status, now
	if v.Model == "" {
		v.Model = job.Model
	}
	if v.Branch == "" && job.Source.Ref != nil {
		v.Branch = *job.Source.Ref
	}
	elapsed := v.elapsed()
	edit, status := a.prog.due(c.JobID, c.Job.Generation, now, elapsed)
	changed := string(job.Status) != c.Job.Status
	if changed || (edit && a.budget(ctx, progressEditBudget(), log)) {
		a.updateRoot(ctx, c.Job.Thread.Channel, c.Job.Thread.TS, v, log)
		a.prog.edited(c.JobID, c.Job.Generation, now, elapsed)
	}
	if status && a.budget(ctx, threadStatusBudget(), log) {
		a.core.SetThreadStatus(ctx, c.Job.Thread.Channel, c.Job.Thread.TS, workingStatus, log)
		a.prog.statusSet(c.JobID, c.Job.Generation, now)
	}
}

// budget takes one call from a shared budget of cosmetic Slack calls. A
// refusal, or Redis failing to answer, means the refresh waits for a later
// poll.
func (a *agent) budget(ctx context.Context, b store.Budget, log *slog.Logger) bool {
	g, err := a.store.TakeBudget(ctx, b, 1)
	if err != nil {
		log.Debug("no budget for a live status refresh", "budget", b.Name, "err", err)
		return false
	}
	return g.OK()
}
