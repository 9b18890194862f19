//go:build unix

package redistest

import (
	"errors"
	"fmt"
	"syscall"
)

// Freeze stops the server process with SIGSTOP until Thaw: it keeps its
// connections but answers nothing, reads nothing and, as a replica,
// acknowledges nothing, as a machine that hangs would. A frozen primary or
// replica looks down to sentinels after their down-after time.
func (s *Server) Freeze() error { return s.signal(syscall.SIGSTOP) }

// Thaw lets a frozen server run again (SIGCONT).
func (s *Server) Thaw() error { return s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig syscall.Signal) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil {
		return errors.New("redistest: server not running")
	}
	if err := s.proc.cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("redistest: %v: %w", sig, err)
	}
	return nil
}
