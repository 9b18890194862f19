package install_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/install"
)

// TestInstallStatesRefused: an install that comes back with a state that is
// missing, forged, another browser's or used already is refused (400) before
// Slack is asked anything, and a cancelled one stores nothing.
func TestInstallStatesRefused(t *testing.T) {
	t.Parallel()
	h, f := installWorld(t)
	installBot(h, f)
	exchanges := func() int { return len(h.Slack.Calls("oauth.v2.access")) }

	// A browser that stopped before docsbot's redirect: its address holds
	// Slack's code and docsbot's state, its cookie the state.
	b, at := stopAtRedirect(h, f, other, olive)
	u, err := url.Parse(at)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	with := func(change func(url.Values)) string {
		v := url.Values{}
		for k, vs := range q {
			v[k] = append([]string(nil), vs...)
		}
		change(v)
		return f.srv.URL + install.PathRedirect + "?" + v.Encode()
	}
	stranger := newBrowser(t)
	cases := []struct {
		name string
		by   *browser
		url  string
	}{
		{"no state", b, with(func(v url.Values) { v.Del("state") })},
		{"a forged state", b, with(func(v url.Values) { v.Set("state", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.forged") })},
		{"a state signed for another", b, with(func(v url.Values) { v.Set("state", otherChar(v.Get("state"))) })},
		{"another browser", stranger, with(func(url.Values) {})},
	}
	for _, c := range cases {
		status, page := c.by.get(c.url)
		if status != http.StatusBadRequest || !strings.Contains(page, "cannot be used") {
			t.Errorf("%s: %d %q, want 400 and the page saying so", c.name, status, page)
		}
	}
	if n := exchanges(); n != 0 {
		t.Fatalf("Slack was asked to exchange %d codes for states refused, want none", n)
	}
	if status, page := b.get(at); status != http.StatusOK || !strings.Contains(page, "docsbot was added to") {
		t.Fatalf("the install's own browser: %d %q", status, page)
	}
	if status, _ := b.get(at); status != http.StatusBadRequest {
		t.Errorf("the state used again: %d, want 400", status)
	}
	if n := exchanges(); n != 1 {
		t.Errorf("%d code exchanges, want exactly one", n)
	}

	// A person who cancels on Slack's consent screen.
	h.Slack.DenyNextInstall()
	status, page, _ := installAs(h, f, "T0TEST", alice)
	if status != http.StatusOK || !strings.Contains(page, "The install was cancelled") {
		t.Errorf("cancelled install: %d %q", status, page)
	}
	if n := len(installations(t, h)); n != 1 {
		t.Errorf("%d installations after a cancelled install, want the one before", n)
	}
}

// otherChar is state with its first character changed: to "x", or to "y"
// when it was an "x" already.
func otherChar(state string) string {
	if strings.HasPrefix(state, "x") {
		return "y" + state[1:]
	}
	return "x" + state[1:]
}
