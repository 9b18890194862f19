package bot

import "testing"

// TestLinkStateFollowsConnectionCounts feeds lifecycle events in the orders
// slack-go's handler goroutines can deliver them.
func TestLinkStateFollowsConnectionCounts(t *testing.T) {
	t.Parallel()
	type ev struct {
		connecting bool
		n          int
	}
	tests := []struct {
		name   string
		events []ev
		stop   bool
		want   bool
	}{
		{"nothing yet", nil, false, false},
		{"connecting only", []ev{{true, 0}}, false, false},
		{"in order", []ev{{true, 0}, {false, 0}}, false, true},
		{"connected seen before its connecting", []ev{{false, 0}, {true, 0}}, false, true},
		{"reconnecting", []ev{{true, 0}, {false, 0}, {true, 1}}, false, false},
		{"reconnected", []ev{{true, 0}, {false, 0}, {true, 1}, {false, 1}}, false, true},
		{"old connected arrives after the new connecting", []ev{{true, 0}, {true, 1}, {false, 0}}, false, false},
		{"stopped", []ev{{true, 0}, {false, 0}}, true, false},
	}
	for _, tt := range tests {
		var l linkState
		for _, e := range tt.events {
			if e.connecting {
				l.connecting(e.n)
			} else {
				l.connected(e.n)
			}
		}
		if tt.stop {
			l.stop()
		}
		if got := l.up(); got != tt.want {
			t.Errorf("%s: up() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
