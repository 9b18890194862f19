package settings

import (
	"strconv"
	"testing"
)

func TestChecks(t *testing.T) {
	t.Parallel()
	isU := func(id string) bool { return len(id) > 1 && id[0] == 'U' }
	tests := []struct {
		name  string
		check Check
		v     string
		want  string
	}{
		{"duration", Duration, "10s", ""},
		{"not a duration", Duration, "soon", ` "soon" is not a positive duration such as 10s or 1m`},
		{"negative duration", Duration, "-1s", ` "-1s" is not a positive duration such as 10s or 1m`},
		{"bool", Bool, "TRUE", ""},
		{"not a bool", Bool, "yes", ` "yes" must be true or false`},
		{"listen address", ListenAddr, ":8080", ""},
		{"not a listen address", ListenAddr, "8080", ` "8080" is not a listen address such as :8080 or 127.0.0.1:8080 (empty disables it)`},
		{"loopback IPv4", LoopbackAddr, "127.0.0.1:6060", ""},
		{"loopback IPv6", LoopbackAddr, "[::1]:6060", ""},
		{"localhost", LoopbackAddr, "LocalHost:6060", ""},
		{"no host", LoopbackAddr, ":6060", ` ":6060" listens on every network interface, where other machines reach it: it serves docsbot's internals and must listen on this machine only; write 127.0.0.1:6060 (or [::1]:6060, localhost:6060)`},
		{"every IPv4 interface", LoopbackAddr, "0.0.0.0:6060", ` "0.0.0.0:6060" listens on every network interface, where other machines reach it: it serves docsbot's internals and must listen on this machine only; write 127.0.0.1:6060 (or [::1]:6060, localhost:6060)`},
		{"every IPv6 interface", LoopbackAddr, "[::]:7000", ` "[::]:7000" listens on every network interface, where other machines reach it: it serves docsbot's internals and must listen on this machine only; write 127.0.0.1:7000 (or [::1]:7000, localhost:7000)`},
		{"another host", LoopbackAddr, "10.0.0.5:6060", ` "10.0.0.5:6060" is not a loopback address, so other machines may reach it: it serves docsbot's internals and must listen on this machine only; write 127.0.0.1:6060 (or [::1]:6060, localhost:6060)`},
		{"a host name", LoopbackAddr, "docsbot.internal:6060", ` "docsbot.internal:6060" is not a loopback address, so other machines may reach it: it serves docsbot's internals and must listen on this machine only; write 127.0.0.1:6060 (or [::1]:6060, localhost:6060)`},
		{"no port", LoopbackAddr, "127.0.0.1", ` "127.0.0.1" is not a listen address such as 127.0.0.1:6060`},
		{"log level", LogLevel, "warn", ""},
		{"not a log level", LogLevel, "loud", ` "loud" must be debug, info, warn or error`},
		{"one of, any case", OneOf("socket", "http"), "HTTP", ""},
		{"none of", OneOf("a", "b", "c"), "d", ` "d" must be a, b or c`},
		{"prefixed", Prefixed("xoxb-", " is not a bot token"), "xapp-1", " is not a bot token"},
		{"http URL", HTTPURL(" has credentials"), "https://slack.example/api/", ""},
		{"URL with credentials", HTTPURL(" has credentials"), "https://u:p@slack.example/", " has credentials"},
		{"not an http URL", HTTPURL(" has credentials"), "slack.example", ` "slack.example" is not an http(s) URL`},
		{"ids", IDs("USERS", "U0123ABCD", isU), "U1, U2", ""},
		{"bad ids", IDs("USERS", "U0123ABCD", isU), "U1,alice, #bob", `: "alice" is not a Slack id (ids look like U0123ABCD; copy them from the profile or channel details); USERS: "#bob" is not a Slack id (ids look like U0123ABCD; copy them from the profile or channel details)`},
		{"must", Must(func(v string) bool { _, err := strconv.Atoi(v); return err == nil }, "is no number"), "x", ` "x" is no number`},
	}
	for _, tt := range tests {
		if got := tt.check(tt.v, strconv.Quote); got != tt.want {
			t.Errorf("%s: %q gives %q, want %q", tt.name, tt.v, got, tt.want)
		}
	}
	if got := List(" U1, x ,,U2", isU, true); len(got) != 2 || got[0] != "U1" || got[1] != "U2" {
		t.Errorf("List = %q", got)
	}
	if URLPassword("redis://:pw@h:1/0") != "pw" || URLPassword("redis://h:1") != "" {
		t.Error("URLPassword")
	}
}
