package main

import "testing"

func TestParseMonitorLine(t *testing.T) {
	for _, tc := range []struct {
		line   string
		name   string
		script bool
		ok     bool
	}{
		{`1795827173.809647 [0 unix:/tmp/r/redis.sock] "evalsha" "350a" "2" "k"`, "evalsha", false, true},
		{`1795827173.809701 [0 lua] "EXISTS" "docsbot:{s4}:in:cmd:1"`, "exists", true, true},
		{`1795827173.809701 [0 127.0.0.1:5000] "ZADD" "a" "1" "b"`, "zadd", false, true},
		{`OK`, "", false, false},
		{`1795827173.809701 [0 lua] ""`, "", false, false},
	} {
		name, script, ok := parseMonitorLine(tc.line)
		if name != tc.name || script != tc.script || ok != tc.ok {
			t.Errorf("parseMonitorLine(%q) = %q, %v, %v; want %q, %v, %v", tc.line, name, script, ok, tc.name, tc.script, tc.ok)
		}
	}
}
