package docsapitest

import (
	"strings"
	"sync"
)

// LogBuffer collects the log lines a test's servers and clients write from
// many goroutines (a slog handler's writer), for the test to read back. The
// zero value is ready to use.
type LogBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write appends p.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
