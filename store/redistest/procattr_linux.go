package redistest

import "syscall"

// sysProcAttr makes the kernel kill redis-server when the test binary dies
// without calling Close (a panic, a timeout), so no server is left behind.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
