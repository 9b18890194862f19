package agent

import "testing"

func TestTSBefore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want bool
	}{
		{"1700000000.000100", "1700000000.000200", true},
		{"1700000000.000200", "1700000000.000100", false},
		{"1700000000.000100", "1700000000.000100", false},
		{"1700000000.999999", "1700000001.000000", true},
		{"999999999.000001", "1000000000.000000", true}, // fewer digits of seconds: earlier, though it sorts later as a string
		{"1000000000.000000", "999999999.000001", false},
		{"1700000000.1", "1700000000.000200", false}, // .1 is .100000
		{"1700000000.000200", "1700000000.1", true},
		{"1700000000", "1700000000.000001", true},
		{"", "1700000000.000001", false},
		{"1700000000.000001", "", false},
		{"x.000001", "1700000000.000002", false},
		{"1700000000.0000001", "1700000000.000002", false},
		{"1700000000.-1", "1700000000.000002", false},
		{"+1700000000.000001", "1700000000.000002", false},
		{"1700000000.", "1700000000.000002", false},
	}
	for _, tt := range tests {
		if got := tsBefore(tt.a, tt.b); got != tt.want {
			t.Errorf("tsBefore(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
