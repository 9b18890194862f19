package project

import (
	"net"
	"net/url"
	"strings"
)

// SecureURL reports whether raw is a URL docsbot may send a key to, or link
// people to: https, or http to this machine alone (a host of 127.0.0.0/8,
// ::1 or localhost), where the tests, the sandbox and docsapitest run. The
// docs API's and the discovery API's URLs (and the docs site's) must be
// such, whether from the settings or the projects file.
func SecureURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return true
	case "http":
		return Loopback(u.Hostname())
	}
	return false
}

// Loopback reports whether host names this machine: localhost, or a
// loopback address (127.0.0.0/8, ::1).
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
