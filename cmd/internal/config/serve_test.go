package config

import "testing"

// TestSameListener: DOCSBOT_OPS_ADDR may not take the port of
// DOCSBOT_HTTP_ADDR, whichever way the two are written.
func TestSameListener(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		same bool
	}{
		{":8080", ":8080", true},
		{":8080", "0.0.0.0:8080", true},
		{"[::]:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", ":8080", true},
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"LOCALHOST:8080", "localhost:8080", true},
		{":8080", ":9090", false},
		{"127.0.0.1:8080", "10.0.0.1:8080", false},
		{"127.0.0.1:0", "127.0.0.1:0", false},
		{":0", ":0", false},
	}
	for _, tt := range tests {
		if got := SameListener(tt.a, tt.b); got != tt.same {
			t.Errorf("SameListener(%q, %q) = %t, want %t", tt.a, tt.b, got, tt.same)
		}
		if got := SameListener(tt.b, tt.a); got != tt.same {
			t.Errorf("SameListener(%q, %q) = %t, want %t", tt.b, tt.a, got, tt.same)
		}
	}
}
