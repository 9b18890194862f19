package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store/redistest"
)

// fleet keeps replicas of the bot running: each slot restarts its process
// whenever it exits (killed by the scenario, or stopped because Redis was
// down when it started), as a process supervisor would, until stopAll. A
// slot's process may also be replaced, as a rolling update does (replace).
type fleet struct {
	r        *rig
	settings []string
	// logs, if set, receives every replica's output.
	logs io.Writer
	// front, in HTTP mode, is the load balancer Slack reaches the replicas
	// by: each replica listens on an address of its own and is put behind
	// it once it is ready, as a readiness probe would, and taken out when
	// it exits. nil: Socket Mode, each replica connects to Slack.
	front    *slacktest.Balancer
	slots    []*fleetSlot
	wg       sync.WaitGroup
	stopping chan struct{}
	once     sync.Once

	mu       sync.Mutex
	restarts int
}

type fleetSlot struct {
	mu   sync.Mutex
	proc *botProcess
	// swapped wakes the slot's supervisor when replace put a new process in
	// the slot, so that it watches that one.
	swapped chan struct{}
}

func (s *fleetSlot) current() *botProcess {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proc
}

func newFleet(r *rig, n int, settings []string) *fleet {
	f := &fleet{r: r, settings: settings, stopping: make(chan struct{})}
	for range n {
		f.slots = append(f.slots, &fleetSlot{swapped: make(chan struct{}, 1)})
	}
	return f
}

// startAll starts every slot and waits until every replica is connected.
func (f *fleet) startAll(ctx context.Context) error {
	for _, s := range f.slots {
		f.wg.Go(func() { f.supervise(s) })
	}
	return f.ensureAll(ctx)
}

// ensureAll waits until every replica has a Socket Mode connection, or in
// HTTP mode is behind the balancer.
func (f *fleet) ensureAll(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if f.front != nil {
		for f.front.Replicas() < len(f.slots) {
			if !sleep(cctx, 50*time.Millisecond) {
				return fmt.Errorf("chaos: %d replicas did not all get ready: %w", len(f.slots), cctx.Err())
			}
		}
		return nil
	}
	if err := f.r.slack.WaitConnections(cctx, len(f.slots)); err != nil {
		return fmt.Errorf("chaos: %d replicas did not all connect: %w", len(f.slots), err)
	}
	return nil
}

// start starts a replica; in HTTP mode on an address of its own, put
// behind the balancer once ready (join).
func (f *fleet) start() (*botProcess, error) {
	if f.front == nil {
		return startBot(f.r.bin, f.r.dir, f.r.botEnv(f.settings), f.logs)
	}
	addr := redistest.FreeAddr()
	p, err := startBot(f.r.bin, f.r.dir, f.r.botEnv(append(slices.Clip(f.settings), "DOCSBOT_HTTP_ADDR="+addr)), f.logs)
	if err != nil {
		return nil, err
	}
	f.wg.Go(func() { f.join(p, "http://"+addr) })
	return p, nil
}

// join puts replica p, serving at base, behind the balancer once its
// /readyz answers 200, and takes it out when it exits.
func (f *fleet) join(p *botProcess, base string) {
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-p.done:
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
	f.front.Add(base)
	<-p.done
	f.front.Remove(base)
}

// supervise runs the slot's process again each time it exits by itself; a
// process replace took out of the slot is no longer the slot's.
func (f *fleet) supervise(s *fleetSlot) {
	first := true
	for {
		select {
		case <-f.stopping:
			return
		default:
		}
		p := s.current()
		if p == nil || p.alive() != nil {
			np, err := f.start()
			if err != nil {
				f.r.log.Error("chaos: starting a replica", "err", err)
				if !waitOrStop(f.stopping, time.Second) {
					return
				}
				continue
			}
			s.mu.Lock()
			if s.proc != p {
				// replaced meanwhile: the slot has its process.
				s.mu.Unlock()
				np.kill()
				continue
			}
			s.proc = np
			s.mu.Unlock()
			if !first {
				f.mu.Lock()
				f.restarts++
				f.mu.Unlock()
			}
			first = false
			p = np
		}
		select {
		case <-p.done:
			if s.current() == p {
				waitOrStop(f.stopping, 300*time.Millisecond)
			}
		case <-s.swapped:
		case <-f.stopping:
			if err := s.current().stop(); err != nil {
				f.r.log.Warn("chaos: a replica did not stop cleanly", "err", err)
			}
			return
		}
	}
}

// replace starts a new process for slot i and waits until it has its Socket
// Mode connection; then the new process is the slot's, and the old one is
// returned for the caller to stop. Connections are told apart by the fake
// Slack's count of connections opened: a scenario that replaces replicas
// drops no sockets, so a new connection is the new replica's.
func (f *fleet) replace(ctx context.Context, i int) (*botProcess, error) {
	s := f.slots[i]
	before := f.r.slack.Connects()
	np, err := startBot(f.r.bin, f.r.dir, f.r.botEnv(f.settings), f.logs)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	go func() {
		select {
		case <-np.done:
			cancel()
		case <-cctx.Done():
		}
	}()
	err = f.r.slack.WaitFor(cctx, func() bool { return f.r.slack.Connects() > before })
	if err != nil {
		if aerr := np.alive(); aerr != nil {
			return nil, fmt.Errorf("chaos: the new replica exited before it connected: %w", aerr)
		}
		np.kill()
		return nil, fmt.Errorf("chaos: the new replica did not connect: %w", err)
	}
	s.mu.Lock()
	old := s.proc
	s.proc = np
	s.mu.Unlock()
	select {
	case s.swapped <- struct{}{}:
	default:
	}
	return old, nil
}

// killOne SIGKILLs the process of slot i, if it runs; its slot starts a new
// one. It reports whether a process was killed.
func (f *fleet) killOne(ctx context.Context, i int) bool {
	s := f.slots[i]
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil || p.alive() != nil || ctx.Err() != nil {
		return false
	}
	p.kill()
	return true
}

// stopAll stops every replica with SIGTERM and waits for them.
func (f *fleet) stopAll() {
	f.once.Do(func() { close(f.stopping) })
	f.wg.Wait()
}

// waitOrStop waits d and reports false if the fleet is stopping.
func waitOrStop(stopping <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-stopping:
		return false
	case <-t.C:
		return true
	}
}
