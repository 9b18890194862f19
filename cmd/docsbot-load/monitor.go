package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
)

// redisMonitor counts the commands one redis-server runs while it watches
// (redis-cli MONITOR), split by who sent them: a client (a script counts
// once, as its EVALSHA) or a script (the commands a Lua script calls). INFO
// commandstats counts both together; the split tells round trips from the
// work a script does inside Redis. MONITOR costs the server a little (it
// writes every command to the watcher), never the bot.
type redisMonitor struct {
	cmd  *exec.Cmd
	done chan struct{}
	// ready is closed once the server answered MONITOR (its "OK"): from
	// then on it writes every command to the watcher.
	ready chan struct{}

	mu       sync.Mutex
	sent     map[string]int64 // by command, sent by clients
	inScript map[string]int64 // by command, called by scripts
	counting bool
}

// startMonitor starts redis-cli MONITOR on the server's unix socket and
// waits until the server watches for it; counts start with count.
func startMonitor(ctx context.Context, socket string) (*redisMonitor, error) {
	m := &redisMonitor{done: make(chan struct{}), ready: make(chan struct{}), sent: map[string]int64{}, inScript: map[string]int64{}}
	m.cmd = exec.CommandContext(ctx, "redis-cli", "-s", socket, "monitor")
	out, err := m.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("redis-cli monitor: %w", err)
	}
	if err := m.cmd.Start(); err != nil {
		return nil, fmt.Errorf("redis-cli monitor: %w", err)
	}
	go func() {
		defer close(m.done)
		m.read(out)
	}()
	select {
	case <-m.ready:
		return m, nil
	case <-m.done:
		_ = m.cmd.Wait()
		return nil, fmt.Errorf("redis-cli monitor ended before the server answered")
	case <-ctx.Done():
		m.stop()
		return nil, fmt.Errorf("redis-cli monitor: %w", ctx.Err())
	}
}

// read counts the lines of MONITOR's output until it ends.
func (m *redisMonitor) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	first := true
	for sc.Scan() {
		if first {
			first = false
			close(m.ready) // the server's "OK" to MONITOR
		}
		name, script, ok := parseMonitorLine(sc.Text())
		if !ok || name == "info" || name == "monitor" {
			continue // the tool's own INFO, and the watcher itself
		}
		m.mu.Lock()
		if m.counting {
			if script {
				m.inScript[name]++
			} else {
				m.sent[name]++
			}
		}
		m.mu.Unlock()
	}
}

// parseMonitorLine reads `1795827173.809415 [0 unix:/path] "evalsha" ...`
// (or `[0 lua] "TIME" ...` inside a script): the command's name, lower
// case, and whether a script called it.
func parseMonitorLine(line string) (name string, script, ok bool) {
	_, rest, ok := strings.Cut(line, " [")
	if !ok {
		return "", false, false
	}
	src, rest, ok := strings.Cut(rest, "] \"")
	if !ok {
		return "", false, false
	}
	name, _, ok = strings.Cut(rest, "\"")
	if !ok || name == "" {
		return "", false, false
	}
	_, client, _ := strings.Cut(src, " ")
	return strings.ToLower(name), client == "lua", true
}

// count starts (or stops) counting, so that only a window counts.
func (m *redisMonitor) count(on bool) {
	m.mu.Lock()
	m.counting = on
	m.mu.Unlock()
}

// stop ends the watcher and returns what it counted.
func (m *redisMonitor) stop() (sent, inScript map[string]int64) {
	m.count(false)
	_ = m.cmd.Process.Kill()
	<-m.done
	_ = m.cmd.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sent, m.inScript
}
