package main

import "syscall"

// botProcAttr makes the kernel kill the bot when this tool dies without
// stopping it (a panic, a kill -9), so no bot is left behind.
func botProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
