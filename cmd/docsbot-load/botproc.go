package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// stopGrace is how long the bot may take to stop after SIGTERM before it is
// killed.
const stopGrace = 25 * time.Second

// buildBot compiles the docsbot command into dir. With release set it builds
// the way `make build` does (static, stripped), so the figures are those of
// the shipped binary; without, it builds as the tests do, reusing their
// build cache.
func buildBot(ctx context.Context, dir string, release bool) (string, error) {
	bin := filepath.Join(dir, "docsbot")
	args := []string{"build", "-o", bin}
	if release {
		args = append(args, "-trimpath", "-tags=nosandbox", "-ldflags=-s -w")
	}
	cmd := exec.CommandContext(ctx, "go", append(args, "github.com/docsbot/docsbot/cmd/docsbot")...)
	if release {
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/docsbot: %w\n%s", err, out.String())
	}
	return bin, nil
}

// botBinary returns the binary to measure: --bin, or one built as `make
// build` does into a new temporary directory that cleanup removes.
func botBinary(ctx context.Context, e env) (bin string, cleanup func(), err error) {
	return botBinaryAs(ctx, e, true)
}

// botBinaryAs is botBinary building, without --bin, as buildBot does with
// release.
func botBinaryAs(ctx context.Context, e env, release bool) (bin string, cleanup func(), err error) {
	if e.bin != "" {
		return e.bin, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "docsbot-load-bin-")
	if err != nil {
		return "", nil, fmt.Errorf("temp dir: %w", err)
	}
	e.log.Info("building ./cmd/docsbot")
	if bin, err = buildBot(ctx, dir, release); err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, err
	}
	return bin, func() { _ = os.RemoveAll(dir) }, nil
}

// botProcess is a running `docsbot serve`.
type botProcess struct {
	cmd  *exec.Cmd
	pid  int
	logs *tail
	done chan struct{}
	err  error // the exit status, set before done closes
	// secrets are the secret values of the bot's environment, masked in
	// its output wherever the output is shown.
	secrets []string
}

// startBot runs `bin serve` in dir with exactly env as its environment. Its
// output also goes to copyTo, if not nil.
func startBot(bin, dir string, env []string, copyTo io.Writer) (*botProcess, error) {
	return startProcess(bin, []string{"serve"}, dir, env, copyTo)
}

// startProcess runs bin with args in dir, with exactly env as its
// environment, as startBot runs the bot: the bare slack-go bot of the acks
// scenario is run this way too, so that its CPU time and memory are read
// from /proc as the bot's are.
func startProcess(bin string, args []string, dir string, env []string, copyTo io.Writer) (*botProcess, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = botProcAttr()
	logs := &tail{max: 64 << 10}
	var out io.Writer = logs
	if copyTo != nil {
		out = io.MultiWriter(logs, copyTo)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s %s: %w", bin, strings.Join(args, " "), err)
	}
	p := &botProcess{cmd: cmd, pid: cmd.Process.Pid, logs: logs, done: make(chan struct{}), secrets: secretValues(env)}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// stats reads the bot's CPU time and memory.
func (p *botProcess) stats() (procStats, error) {
	select {
	case <-p.done:
		return procStats{}, fmt.Errorf("the bot exited (%v); its last output:\n%s", p.err, p.output())
	default:
	}
	return readProc(p.pid)
}

// alive reports an error once the bot has exited.
func (p *botProcess) alive() error {
	select {
	case <-p.done:
		return fmt.Errorf("the bot exited (%v); its last output:\n%s", p.err, p.output())
	default:
		return nil
	}
}

// stop sends SIGTERM and waits for the bot to exit, killing it after
// stopGrace. It returns an error if the bot did not exit cleanly.
func (p *botProcess) stop() error {
	_, err := p.terminate(stopGrace)
	return err
}

// termination is how a bot ended after its SIGTERM.
type termination struct {
	// Took is the time from the SIGTERM to the exit (or to the SIGKILL).
	Took time.Duration
	// Killed: the bot was still running grace after its SIGTERM, and was
	// SIGKILLed.
	Killed bool
}

// terminate sends SIGTERM and waits up to grace for the bot to exit, then
// SIGKILLs it, as Kubernetes does with a pod's terminationGracePeriodSeconds.
// The error says how the bot did not exit cleanly (a SIGKILL, or an exit
// status other than 0); a bot already gone is not signalled again.
func (p *botProcess) terminate(grace time.Duration) (termination, error) {
	select {
	case <-p.done:
		return termination{}, p.exitErr()
	default:
	}
	began := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return termination{}, fmt.Errorf("stop the bot: %w", err)
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
		return termination{Took: time.Since(began)}, p.exitErr()
	case <-t.C:
		_ = p.cmd.Process.Kill()
		<-p.done
		return termination{Took: time.Since(began), Killed: true}, fmt.Errorf("the bot did not stop within %s of SIGTERM and was killed", grace)
	}
}

// kill ends the bot with SIGKILL, as a crash would, and waits for it.
func (p *botProcess) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// exitErr describes an unclean exit, with the bot's last output.
func (p *botProcess) exitErr() error {
	if p.err != nil {
		return fmt.Errorf("the bot exited with %v; its last output:\n%s", p.err, p.output())
	}
	return nil
}

// output is the bot's last output, its secrets masked: for errors.
func (p *botProcess) output() string { return scrub(p.logs.String(), p.secrets) }

// secretValues returns the secrets in env: the values of settings named like
// a token, key, secret or password, and the password of a URL.
func secretValues(env []string) []string {
	var out []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		k = strings.ToUpper(k)
		for _, word := range []string{"TOKEN", "KEY", "SECRET", "PASSWORD"} {
			if strings.Contains(k, word) {
				out = append(out, v)
				break
			}
		}
		if u, err := url.Parse(v); err == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok {
				out = append(out, pw)
			}
		}
	}
	return out
}

// minSecret is the shortest value scrub masks: shorter ones would mask
// ordinary text.
const minSecret = 6

// scrub masks in s each of secrets, and whatever has the shape of a Slack
// token or a docs API key (xoxb-…, xapp-…, mint_…).
func scrub(s string, secrets []string) string {
	secrets = slices.Clone(secrets)
	slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) }) // a longer one first: no piece of it survives
	for _, sec := range secrets {
		if len(sec) >= minSecret {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	return regexp.MustCompile(`\b(xox[a-z]-|xapp-|mint_)[^\s"'<>]+`).ReplaceAllString(s, "${1}[redacted]")
}

// tail keeps the last max bytes written to it and counts the lines.
type tail struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	lines int
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines += bytes.Count(b, []byte{'\n'})
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// Lines is the number of lines written so far.
func (t *tail) Lines() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lines
}
