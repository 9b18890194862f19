//go:build !linux

package main

import "syscall"

// botProcAttr returns the default attributes: only Linux can tie the child's
// life to the parent's. (The CPU and memory figures need Linux's /proc too.)
func botProcAttr() *syscall.SysProcAttr {
	return nil
}
