package redistest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// Timeouts for starting and stopping the server.
const (
	readyTimeout = 10 * time.Second
	stopTimeout  = 5 * time.Second
	pollInterval = 5 * time.Millisecond
)

// errNotInstalled is the message given when no redis-server can be found.
const errNotInstalled = "redis-server not found on PATH: install it (sudo apt-get install -y redis-server)"

// Server is a redis-server process listening on a unix socket.
type Server struct {
	// Socket is the path of the unix socket the server listens on.
	Socket string
	// URL is the unix:// URL of the socket, usable with store.Open.
	URL string

	bin string // path of the redis-server binary
	dir string // temporary directory holding the socket and the log
	aof bool   // keep an append-only file, synced on every write
	// Addr is 127.0.0.1:port when the server also listens on TCP (WithTCP).
	Addr string
	port int
	args []string // more redis-server arguments (WithArgs)

	mu   sync.Mutex
	proc *process // nil while stopped

	dbMu    sync.Mutex
	dbTaken [dbCount]bool // databases handed out by TakeDB
}

// process is one run of redis-server.
type process struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // exit status, valid after done is closed
}

// Option configures a Server.
type Option func(*Server)

// WithAppendOnly keeps an append-only file synced on every write, as a
// production Redis with appendfsync always would: the data survives Kill and
// Restart.
func WithAppendOnly() Option { return func(s *Server) { s.aof = true } }

// WithTCP makes the server listen on a free TCP port of 127.0.0.1 too (Addr),
// as replicas and sentinels need.
func WithTCP() Option {
	return func(s *Server) {
		s.port = freePort()
		s.Addr = fmt.Sprintf("127.0.0.1:%d", s.port)
	}
}

// WithArgs passes more arguments to redis-server, such as "--replicaof",
// "127.0.0.1", "6390".
func WithArgs(args ...string) Option { return func(s *Server) { s.args = append(s.args, args...) } }

// Start runs a new redis-server on a unix socket in a fresh temporary directory,
// without a TCP port and (unless WithAppendOnly) without persistence, and
// waits until it answers PING.
func Start(opts ...Option) (*Server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errors.New(errNotInstalled)
	}
	dir, err := os.MkdirTemp("", "redistest-")
	if err != nil {
		return nil, fmt.Errorf("redistest: create temp dir: %w", err)
	}
	sock := filepath.Join(dir, "redis.sock")
	// A unix socket path is limited to about 100 bytes; fall back to /tmp
	// when TMPDIR is deeply nested.
	if len(sock) > 100 {
		os.RemoveAll(dir)
		if dir, err = os.MkdirTemp("/tmp", "redistest-"); err != nil {
			return nil, fmt.Errorf("redistest: create temp dir: %w", err)
		}
		sock = filepath.Join(dir, "redis.sock")
	}
	s := &Server{Socket: sock, URL: "unix://" + sock, bin: bin, dir: dir}
	for _, o := range opts {
		o(s)
	}
	if err := s.start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// Client returns a new client connected to the server, for direct inspection.
// The caller closes it.
func (s *Server) Client() *redis.Client {
	return redis.NewClient(&redis.Options{Network: "unix", Addr: s.Socket})
}

// ClientOf returns a new client of the Redis at url (redis://, unix://), for
// a peer of docsbot that talks to Redis without the store (docsbot-load's
// same-work bot). The caller closes it.
func ClientOf(url string) (*redis.Client, error) {
	o, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redistest: %w", err)
	}
	return redis.NewClient(o), nil
}

// Stop stops the server process; its socket is gone afterwards. Stopping a
// stopped server does nothing.
func (s *Server) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopLocked()
}

// Kill stops the server process with SIGKILL, as a crash would: nothing is
// flushed. Killing a stopped server does nothing.
func (s *Server) Kill() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != nil {
		_ = s.proc.cmd.Process.Kill()
	}
	return s.stopLocked()
}

// Start starts a stopped server again on the same socket path and waits
// until it answers PING. With WithAppendOnly it loads what it had.
func (s *Server) Start() error { return s.start() }

// Restart stops the server if it runs and starts it again on the same socket
// path, waiting until it answers PING. Data may be lost.
func (s *Server) Restart() error {
	if err := s.Stop(); err != nil {
		return err
	}
	return s.start()
}

// Close stops the server and removes its temporary directory.
func (s *Server) Close() error {
	err := s.Stop()
	if rmErr := os.RemoveAll(s.dir); rmErr != nil && err == nil {
		err = fmt.Errorf("redistest: remove %s: %w", s.dir, rmErr)
	}
	return err
}

// start launches redis-server and waits for it to answer PING.
func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != nil {
		return errors.New("redistest: server already running")
	}
	logPath := filepath.Join(s.dir, "redis.log")
	appendOnly := "no"
	if s.aof {
		appendOnly = "yes"
	}
	port := strconv.Itoa(s.port)
	args := []string{
		"--port", port, "--bind", "127.0.0.1",
		"--unixsocket", s.Socket,
		"--unixsocketperm", "700",
		"--save", "",
		"--appendonly", appendOnly,
		"--appendfsync", "always",
		"--dir", s.dir,
		"--logfile", logPath,
		"--loglevel", "warning",
		"--daemonize", "no",
	}
	cmd := exec.Command(s.bin, append(args, s.args...)...)
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("redistest: start %s: %w", s.bin, err)
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	s.proc = p
	if err := s.waitReady(p, logPath); err != nil {
		_ = s.stopLocked()
		return err
	}
	return nil
}

// waitReady polls PING on the socket until it answers, the process exits or
// the deadline passes.
func (s *Server) waitReady(p *process, logPath string) error {
	rdb := redis.NewClient(&redis.Options{
		Network:     "unix",
		Addr:        s.Socket,
		MaxRetries:  -1,
		DialTimeout: time.Second,
	})
	defer rdb.Close()
	deadline := time.Now().Add(readyTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("redistest: redis-server exited (%v): %s", p.err, logTail(logPath))
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redistest: redis-server did not answer PING within %v: %w; log: %s", readyTimeout, err, logTail(logPath))
		}
		time.Sleep(pollInterval)
	}
}

// stopLocked terminates the running process, if any, and removes a socket it
// may have left behind. s.mu is held.
func (s *Server) stopLocked() error {
	p := s.proc
	if p == nil {
		return nil
	}
	s.proc = nil
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(stopTimeout):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	if err := os.Remove(s.Socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("redistest: remove socket: %w", err)
	}
	return nil
}

// logTail returns the last lines of the server log, for error messages.
func logTail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil || len(bytes.TrimSpace(b)) == 0 {
		return "(empty log)"
	}
	const max = 2000
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return string(bytes.TrimSpace(b))
}

// The ports freePort picks from: below Linux's ephemeral range (32768 and
// up), which the kernel hands out as the local ports of outgoing
// connections, so that none of the tests' many connections takes a port
// between its pick and the server's bind.
const (
	portLow  = 20000
	portHigh = 32000
)

// FreeAddr returns a loopback address (127.0.0.1:port) whose port was free
// a moment ago, picked as the servers' are (below the ephemeral range), for
// tests that start a listener of their own on a port they choose first.
func FreeAddr() string { return "127.0.0.1:" + strconv.Itoa(freePort()) }

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago, out
// of the ephemeral range when one is free there.
func freePort() int {
	for range 50 {
		p := portLow + rand.IntN(portHigh-portLow)
		if ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p)); err == nil {
			ln.Close()
			return p
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
