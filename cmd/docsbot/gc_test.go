package main

import (
	"runtime/debug"
	"testing"
)

// TestGCTarget: the GC target is defaultGOGC unless GOGC is set, whatever
// its value.
func TestGCTarget(t *testing.T) {
	const before = 100
	for _, tc := range []struct {
		name string
		env  map[string]string
		want int
	}{
		{"GOGC unset", nil, defaultGOGC},
		{"GOGC set", map[string]string{"GOGC": "200"}, before},
		{"GOGC set empty", map[string]string{"GOGC": ""}, before},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := debug.SetGCPercent(before)
			setGCTarget(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if got := debug.SetGCPercent(orig); got != tc.want {
				t.Errorf("GC target %d, want %d", got, tc.want)
			}
		})
	}
}
