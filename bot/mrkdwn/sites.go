package mrkdwn

import (
	"net/url"
	"regexp"
	"strings"
)

// Sites is the allow-list of the web sites that text from the docs
// assistant may link to: the docs site (Base), whose host is allowed
// exactly and against which relative docs paths resolve, and the hosts of
// DOCSBOT_LINK_DOMAINS, each allowing itself and its subdomains
// ("example.com" allows example.com and status.example.com, not
// badexample.com). Any other address is shown, never linked (Inert). The
// zero Sites allows nothing and resolves nothing.
type Sites struct {
	base    *url.URL
	domains []string // lower case, no trailing dot
}

// NewSites is the allow-list of the docs site base (nil for none) and the
// host names domains (ValidHost; others are left out).
func NewSites(base *url.URL, domains []string) Sites {
	s := Sites{base: base}
	for _, d := range domains {
		d = normalHost(d)
		if ValidHost(d) {
			s.domains = append(s.domains, d)
		}
	}
	return s
}

// validHost is a DNS host name of two labels or more: a setting of one
// label ("com") would allow a whole top-level domain.
var validHost = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// ValidHost reports whether h is a host name Sites takes: letters, digits,
// hyphens and dots, two labels or more, no scheme, port or path.
func ValidHost(h string) bool { return len(h) <= 253 && validHost.MatchString(normalHost(h)) }

func normalHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
}

// Allows reports whether raw, an absolute URL, may be a link: http or https,
// no user name or password (which could dress one host as another), a
// WebURL, and on the docs site's host or one of the domains, by a host
// name of letters, digits, hyphens and dots only: Go takes "&", ";" or "!"
// in a host, which markdown may read otherwise ("evil.example&sol;.example.org"
// is evil.example/ to a markdown reader).
func (s Sites) Allows(raw string) bool {
	if !WebURL(raw) {
		return false
	}
	u, err := url.Parse(raw)
	if err != nil || u.User != nil {
		return false
	}
	host := normalHost(u.Hostname())
	if host == "" {
		return false
	}
	if s.base != nil && host == normalHost(s.base.Hostname()) {
		return true
	}
	if strings.Trim(host, "abcdefghijklmnopqrstuvwxyz0123456789-.") != "" {
		return false
	}
	for _, d := range s.domains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// Resolve is target, a link's target in the assistant's markdown, as an
// absolute URL (a relative docs path resolved against the docs site) and
// whether it may be a link (Allows). A target it cannot resolve is
// returned as it is.
func (s Sites) Resolve(target string) (string, bool) {
	target = strings.TrimSpace(target)
	u, err := url.Parse(target)
	if err != nil {
		return target, false
	}
	if !u.IsAbs() && u.Host == "" && s.base != nil && target != "" && !strings.HasPrefix(target, "//") {
		target = s.base.ResolveReference(u).String()
	}
	return target, s.Allows(target)
}
