package docsapitest

import (
	"strings"
	"time"
)

// Outcome is how an agent job ends.
type Outcome string

// The outcomes a [Lifecycle] can end with.
const (
	// OutcomePR completes the job with a new pull request link. The zero
	// Outcome "" means the same.
	OutcomePR Outcome = "pr"
	// OutcomeNoChange completes the job with prLink null.
	OutcomeNoChange Outcome = "no_change"
	// OutcomeFailed fails the job.
	OutcomeFailed Outcome = "failed"
	// OutcomeArchived archives the job: archivedAt is set and prLink kept.
	OutcomeArchived Outcome = "archived"
)

// Lifecycle says how long a job stays active and how it ends. The job stays
// active until it has been fetched (GET) ActivePolls times and ActiveFor has
// passed on the server clock since it was started or restarted by a follow-up;
// the next GET finds it finished with Outcome.
//
// Any Outcome other than the four constants and "" becomes the job's status
// verbatim with prLink null, so a test can serve a status the client does not
// know, such as Outcome("queued").
type Lifecycle struct {
	// ActivePolls is the number of GETs that still answer active; with 0
	// the first GET (once ActiveFor has passed) shows the outcome.
	ActivePolls int
	// ActiveFor is the least time, on the server clock, the job stays active.
	ActiveFor time.Duration
	// Outcome is how the job ends.
	Outcome Outcome
}

// Prompt keywords understood by [DefaultLifecycle].
const (
	KeywordFail     = "[fail]"
	KeywordNoChange = "[no-change]"
	KeywordArchive  = "[archive]"
)

// DefaultLifecycle keeps a job active for two GETs and then ends it according
// to keywords in the prompt, matched without regard to case and checked in this order:
// "[fail]" fails it, "[no-change]" completes it with prLink null, "[archive]"
// archives it, and any other prompt completes it with a pull request link.
func DefaultLifecycle(prompt string) Lifecycle {
	return Lifecycle{ActivePolls: 2, Outcome: outcomeFor(prompt)}
}

// TimedLifecycle returns a lifecycle function like [DefaultLifecycle] whose
// jobs also stay active for at least d, which suits a sandbox polled in real
// time.
func TimedLifecycle(d time.Duration) func(prompt string) Lifecycle {
	return func(prompt string) Lifecycle {
		lc := DefaultLifecycle(prompt)
		lc.ActiveFor = d
		return lc
	}
}

func outcomeFor(prompt string) Outcome {
	p := strings.ToLower(prompt)
	switch {
	case strings.Contains(p, KeywordFail):
		return OutcomeFailed
	case strings.Contains(p, KeywordNoChange):
		return OutcomeNoChange
	case strings.Contains(p, KeywordArchive):
		return OutcomeArchived
	}
	return OutcomePR
}

// SetLifecycle replaces the lifecycle function for jobs created and messages
// sent from now on; running jobs keep the lifecycle they have. A nil f
// restores [DefaultLifecycle].
func (s *Server) SetLifecycle(f func(prompt string) Lifecycle) {
	if f == nil {
		f = DefaultLifecycle
	}
	s.mu.Lock()
	s.lifecycle = f
	s.mu.Unlock()
}

// lifecycleFor asks the current lifecycle function about prompt without
// holding the lock.
func (s *Server) lifecycleFor(prompt string) Lifecycle {
	s.mu.Lock()
	f := s.lifecycle
	s.mu.Unlock()
	lc := f(prompt)
	if lc.ActivePolls < 0 {
		lc.ActivePolls = 0
	}
	return lc
}
