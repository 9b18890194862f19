package slacktest

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestSharedFileDownload: a file a person attached is served like
// files.slack.com serves it: its bytes only to a bot token of its
// workspace with files:read, the sign-in page to anyone else, and the
// faults a test asks for; AttachedFiles lists it where it was shared.
func TestSharedFileDownload(t *testing.T) {
	t.Parallel()
	noRead := slices.DeleteFunc(DefaultScopes(), func(s string) bool { return s == "files:read" })
	servers := map[string]*Server{"default": newTestServer(t), "no files:read": newTestServer(t, WithScopes(noRead...))}
	for _, s := range servers {
		s.AddWorkspace(Workspace{Team: "T0OTHER"})
		s.AddChannel(Channel{ID: "C0FILES", Name: "files"})
		s.AddChannel(Channel{ID: "C0THEIRS", Name: "theirs", Team: "T0OTHER"})
	}
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	tests := []struct {
		name     string
		server   string
		channel  string
		attach   Attachment
		token    string // "bot" is the server's bot token
		status   int
		body     string // a prefix of the body
		location string // a prefix of the Location
	}{
		{"its bot token", "default", "C0FILES", Attachment{Name: "build.log", Content: []byte("ok\n")}, "bot", 200, "ok\n", ""},
		{"no token", "default", "C0FILES", Attachment{Name: "build.log", Content: []byte("ok\n")}, "", 302, "", "/files-signin?redir="},
		{"an unknown token", "default", "C0FILES", Attachment{Name: "build.log", Content: []byte("ok\n")}, "xoxb-nobody", 302, "", "/files-signin?redir="},
		{"another workspace's file", "default", "C0THEIRS", Attachment{Name: "build.log", Content: []byte("ok\n")}, "bot", 302, "", "/files-signin?redir="},
		{"no files:read", "no files:read", "C0FILES", Attachment{Name: "build.log", Content: []byte("ok\n")}, "bot", 302, "", "/files-signin?redir="},
		{"sign-in page", "default", "C0FILES", Attachment{Name: "shot.png", Content: []byte(pngHeader), Fault: FileSignInPage}, "bot", 200, "<!doctype html>", ""},
		{"redirect", "default", "C0FILES", Attachment{Name: "shot.png", Fault: FileRedirect, RedirectTo: "http://elsewhere.example/x"}, "bot", 302, "", "http://elsewhere.example/x"},
		{"endless", "default", "C0FILES", Attachment{Name: "build.log", Fault: FileEndless}, "bot", 200, "an endless log line\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := servers[tc.server]
			ctx := testContext(t)
			ts, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: tc.channel, UserID: "U0ALICE", Text: "look", Attach: []Attachment{tc.attach}})
			if err != nil {
				t.Fatal(err)
			}
			files := s.MessageFiles(tc.channel, ts)
			if len(files) != 1 || files[0].Name != tc.attach.Name || !strings.HasPrefix(files[0].URLPrivateDownload, s.URL()+"/files-pri/") || files[0].Permalink == "" {
				t.Fatalf("files of the message: %+v", files)
			}
			if !slices.ContainsFunc(s.AttachedFiles(), func(f File) bool {
				return f.ID == files[0].ID && f.Channel == tc.channel && f.MessageTS == ts && f.ThreadTS == "" && bytes.Equal(f.Content, tc.attach.Content)
			}) {
				t.Errorf("the attached files %+v lack the message's", s.AttachedFiles())
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, files[0].URLPrivateDownload, nil)
			if tc.token == "bot" {
				req.Header.Set("Authorization", "Bearer "+s.BotToken())
			} else if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			resp, err := noRedirects.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status || !bytes.HasPrefix(body, []byte(tc.body)) || !strings.HasPrefix(resp.Header.Get("Location"), tc.location) {
				t.Errorf("%d %q (Location %q), want %d %q (Location %q…)", resp.StatusCode, body[:min(len(body), 40)], resp.Header.Get("Location"), tc.status, tc.body, tc.location)
			}
			if tc.attach.Fault == FileEndless && len(body) != 1<<20 {
				t.Errorf("endless body ended after %d bytes", len(body))
			}
			got, _ := s.SharedFile(files[0].ID)
			if want := btoi(tc.status == 200 && tc.attach.Fault != FileSignInPage); got.Downloads != want {
				t.Errorf("%d downloads answered with the file, want %d", got.Downloads, want)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
