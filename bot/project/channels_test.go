package project_test

import "testing"

// TestChannelDefaultsOverTheFile: the defaults a workspace set in Slack go
// over the file's channels; a name the set does not hold leaves the
// file's default; the channels neither names have none.
func TestChannelDefaultsOverTheFile(t *testing.T) {
	set, _, err := load(t, threeProjects)
	if err != nil {
		t.Fatal(err)
	}
	if same := set.WithChannelDefaults(nil); same != set {
		t.Errorf("no defaults made another set")
	}
	got := set.WithChannelDefaults(map[string]string{"C0DOCS": "Blog", "C0API": "wiki", "C0NEW": "api"})
	for _, c := range []struct{ channel, want string }{
		{"C0DOCS", "blog"}, // over the file's
		{"C0API", "api"},   // a name not served: the file's stays
		{"C0NEW", "api"},   // a channel the file does not name
		{"C0OTHER", ""},
	} {
		p, ok := got.ForChannel(c.channel)
		if p.Name != c.want || ok != (c.want != "") {
			t.Errorf("ForChannel(%s) = %q, %t; want %q", c.channel, p.Name, ok, c.want)
		}
	}
	if p, _ := set.ForChannel("C0DOCS"); p.Name != "docs" {
		t.Errorf("the file's set changed: C0DOCS is %q", p.Name)
	}
}
