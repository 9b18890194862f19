package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// rollingUpdates replaces the fleet's replicas again and again, as a
// Kubernetes rolling update of a Deployment does (maxSurge 1,
// maxUnavailable 0): for each old replica in turn, a new one is started and,
// once it is connected to Slack, the old one gets SIGTERM and the grace to
// exit, then SIGKILL. The next replacement does not wait for the old
// replica to exit, as Kubernetes does not wait for a terminating pod. The
// bot's own shutdown grace (bot.Config.ShutdownGrace: 20 s, which no setting
// changes) is below the 30 s that Kubernetes gives by default, as it should
// be.
type rollingUpdates struct {
	f     *fleet
	grace time.Duration
	// fault is called at each SIGTERM and each exit that followed one.
	fault func()
	// reached is closed once atLeast rolling updates are complete.
	reached chan struct{}
	atLeast int
	// stopping tracks the replicas given SIGTERM, until they exit.
	stopping sync.WaitGroup

	mu       sync.Mutex
	rollouts int
	sigterms int
	killed   int
	slowest  time.Duration
	issues   []string
}

func newRollingUpdates(f *fleet, grace time.Duration, atLeast int, fault func()) *rollingUpdates {
	u := &rollingUpdates{f: f, grace: grace, fault: fault, atLeast: atLeast, reached: make(chan struct{})}
	if atLeast <= 0 {
		close(u.reached)
	}
	return u
}

// run does rolling updates until stop ends, pausing up to pause (drawn from
// rng) between two. A rolling update under way when stop ends is left after
// the replacement in progress; every replacement begun uses ctx, the run's.
func (u *rollingUpdates) run(ctx, stop context.Context, rng *rand.Rand, pause time.Duration) {
	for stop.Err() == nil {
		complete := true
		for _, i := range rng.Perm(len(u.f.slots)) {
			if stop.Err() != nil {
				complete = false
				break
			}
			if err := u.replace(ctx, i); err != nil {
				u.issue("rolling update: %v", err)
				complete = false
				break
			}
		}
		if complete {
			u.mu.Lock()
			u.rollouts++
			if u.rollouts == u.atLeast {
				close(u.reached)
			}
			n := u.rollouts
			u.mu.Unlock()
			u.f.r.log.Info("chaos: rolling update complete", "rollouts", n)
		}
		if !sleep(stop, time.Duration(rng.Int64N(int64(pause)+1))) {
			return
		}
	}
}

// replace replaces the replica of slot i: the new one first, then SIGTERM
// for the old one, whose exit is waited for in the background (wait).
func (u *rollingUpdates) replace(ctx context.Context, i int) error {
	old, err := u.f.replace(ctx, i)
	if err != nil {
		return fmt.Errorf("replica %d: %w", i, err)
	}
	if old == nil || old.alive() != nil {
		// It had exited by itself: the fleet counts that as a restart.
		return nil
	}
	u.mu.Lock()
	u.sigterms++
	u.mu.Unlock()
	u.fault()
	u.stopping.Go(func() {
		t, err := old.terminate(u.grace)
		u.fault()
		u.mu.Lock()
		defer u.mu.Unlock()
		u.slowest = max(u.slowest, t.Took)
		if t.Killed {
			u.killed++
		}
		if err != nil && !t.Killed {
			u.issues = append(u.issues, fmt.Sprintf("a replica given SIGTERM did not exit cleanly: %v", err))
		}
	})
	return nil
}

// wait waits until every replica given SIGTERM has exited.
func (u *rollingUpdates) wait() { u.stopping.Wait() }

func (u *rollingUpdates) issue(format string, args ...any) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.issues = append(u.issues, fmt.Sprintf(format, args...))
}

// record copies the counts into res; call it after wait.
func (u *rollingUpdates) record(res *chaosResult) {
	u.mu.Lock()
	defer u.mu.Unlock()
	res.Rollouts, res.SIGTERMs, res.GraceKills, res.SlowestStop = u.rollouts, u.sigterms, u.killed, u.slowest
	res.issues = append(res.issues, u.issues...)
}
