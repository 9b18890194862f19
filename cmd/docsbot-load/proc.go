package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of the CPU times in /proc/PID/stat. It is
// 100 on every Linux architecture Go supports; reading it with sysconf would
// need cgo.
const clockTicks = 100

// procStats is one reading of a process's CPU time and memory from /proc.
type procStats struct {
	At time.Time `json:"-"`
	// CPU is the time the process ran on a CPU, user and system: the sum of
	// its threads' run times in /proc/PID/task/*/schedstat (nanoseconds). A
	// thread that has exited no longer counts; Go rarely ends threads. Where
	// schedstat is missing it is utime+stime from /proc/PID/stat, in 10 ms
	// ticks.
	CPU time.Duration `json:"-"`
	// RSS and HWM are VmRSS and VmHWM (peak RSS) from /proc/PID/status, in bytes.
	RSS int64 `json:"rss_bytes"`
	HWM int64 `json:"peak_rss_bytes"`
}

// readProc reads the CPU time and memory of process pid.
func readProc(pid int) (procStats, error) {
	s := procStats{At: time.Now()}
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	raw, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return s, fmt.Errorf("read process stat: %w", err)
	}
	// The command name in parentheses may hold spaces: fields start after
	// the last ')'. utime and stime are fields 14 and 15, that is 11 and 12
	// counting from the state (field 3) at 0.
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
	if len(f) < 13 {
		return s, fmt.Errorf("process stat has %d fields", len(f))
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return s, fmt.Errorf("process stat: bad utime/stime %q %q", f[11], f[12])
	}
	s.CPU = time.Duration(ut+st) * time.Second / clockTicks
	if ns, ok := threadRunTime(dir); ok {
		s.CPU = ns
	}
	if s.RSS, s.HWM, err = readMemory(filepath.Join(dir, "status")); err != nil {
		return s, err
	}
	return s, nil
}

// threadRunTime sums the first field of every thread's schedstat: the time
// it spent on a CPU, in nanoseconds.
func threadRunTime(dir string) (time.Duration, bool) {
	tasks, err := os.ReadDir(filepath.Join(dir, "task"))
	if err != nil {
		return 0, false
	}
	var sum int64
	for _, t := range tasks {
		raw, err := os.ReadFile(filepath.Join(dir, "task", t.Name(), "schedstat"))
		if err != nil {
			continue // the thread just ended
		}
		first, _, _ := strings.Cut(strings.TrimSpace(string(raw)), " ")
		ns, err := strconv.ParseInt(first, 10, 64)
		if err != nil {
			return 0, false
		}
		sum += ns
	}
	return time.Duration(sum), sum > 0
}

// readMemory returns VmRSS and VmHWM from a /proc status file, in bytes.
func readMemory(path string) (rss, hwm int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("read process status: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(val), " kB"), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("process status: bad %s %q", name, val)
		}
		if name == "VmRSS" {
			rss = kb << 10
		} else {
			hwm = kb << 10
		}
	}
	if err := sc.Err(); err != nil {
		return 0, 0, fmt.Errorf("read process status: %w", err)
	}
	return rss, hwm, nil
}

// loadAvg returns the 1, 5 and 15 minute load averages, such as
// "0.52 0.61 0.70", or "unknown".
func loadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// machine describes the computer the figures come from.
type machine struct {
	CPUs      int    `json:"cpus"`
	Model     string `json:"cpu_model"`
	GoVersion string `json:"go_version"`
}

// thisMachine describes the computer this runs on.
func thisMachine() machine {
	m := machine{CPUs: runtime.NumCPU(), Model: "unknown", GoVersion: runtime.Version()}
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(raw), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.Model = strings.TrimSpace(v)
				break
			}
		}
	}
	return m
}
