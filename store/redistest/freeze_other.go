//go:build !unix

package redistest

import "errors"

// Freeze needs SIGSTOP, which this system does not have.
func (s *Server) Freeze() error { return errors.New("redistest: Freeze needs a unix system") }

// Thaw needs SIGCONT, which this system does not have.
func (s *Server) Thaw() error { return errors.New("redistest: Thaw needs a unix system") }
