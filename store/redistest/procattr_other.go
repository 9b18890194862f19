//go:build !linux

package redistest

import "syscall"

// sysProcAttr returns the default attributes: only Linux can tie the child's
// life to the parent's.
func sysProcAttr() *syscall.SysProcAttr {
	return nil
}
