package bot_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// otherHost stands for a host that is not Slack's: it records every
// request it gets and whether one carried an Authorization header.
type otherHost struct {
	requests, withAuth atomic.Int32
	url                string
}

func newOtherHost(t *testing.T) *otherHost {
	o := &otherHost{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.requests.Add(1)
		if r.Header.Get("Authorization") != "" {
			o.withAuth.Add(1)
		}
		_, _ = w.Write([]byte("\x89PNG\r\n\x1a\nnot the file"))
	}))
	t.Cleanup(srv.Close)
	// The same address under another name: Go would carry the token
	// to a redirect there on its own (it compares host names, not ports),
	// so only docsbot's redirect policy keeps it.
	o.url = strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/file.png"
	return o
}

// TestReadFile: a file a person attached is read with the bot token only
// from Slack's file host, as its bytes say it is, within the limits; the
// sign-in page, a redirect elsewhere, an endless body, an oversize file
// and a file on another host are each an error of their own.
func TestReadFile(t *testing.T) {
	t.Parallel()
	const maxBytes = 64 << 10
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR rest of the image")
	other := newOtherHost(t)
	h := bottest.New(t, redisURL)
	h.Slack.AddWorkspace(slacktest.Workspace{Team: "T0OTHER"})
	h.Slack.AddChannel(slacktest.Channel{ID: "C0FILES", Name: "files"})
	h.Slack.AddChannel(slacktest.Channel{ID: "C0THEIRS", Name: "theirs", Team: "T0OTHER"})
	cfg := bottest.Config{}
	cfg.Bot.Files = bot.FileLimits{MaxBytes: maxBytes, MaxCount: 4}
	b := h.StartBot(cfg).Bot
	ctx := t.Context()

	tests := []struct {
		name     string
		channel  string
		attach   slacktest.Attachment
		file     func(slack.File) slack.File // changes what Slack said, nil keeps it
		wantErr  error
		wantType string
		wantData []byte
	}{
		{"a log", "C0FILES", slacktest.Attachment{Name: "build.log", Mimetype: "text/plain", Content: []byte("error: page not found\n")}, nil, nil, "text/plain; charset=utf-8", []byte("error: page not found\n")},
		{"an image by its bytes, not its name", "C0FILES", slacktest.Attachment{Name: "notes.txt", Mimetype: "text/plain", Content: png}, nil, nil, "image/png", png},
		{"sign-in page", "C0FILES", slacktest.Attachment{Name: "shot.png", Mimetype: "image/png", Content: png, Fault: slacktest.FileSignInPage}, nil, bot.ErrFilesScope, "", nil},
		{"another workspace's file", "C0THEIRS", slacktest.Attachment{Name: "build.log", Content: []byte("ok")}, nil, bot.ErrFilesScope, "", nil},
		{"redirect to another host", "C0FILES", slacktest.Attachment{Name: "shot.png", Mimetype: "image/png", Fault: slacktest.FileRedirect, RedirectTo: other.url}, nil, bot.ErrFileRedirect, "", nil},
		{"endless body", "C0FILES", slacktest.Attachment{Name: "build.log", Fault: slacktest.FileEndless}, nil, bot.ErrFileTooLarge, "", nil},
		{"oversize by Slack's size", "C0FILES", slacktest.Attachment{Name: "big.log", Content: bytes.Repeat([]byte("x"), maxBytes+1)}, nil, bot.ErrFileTooLarge, "", nil},
		{"oversize, size unsaid", "C0FILES", slacktest.Attachment{Name: "big.log", Content: bytes.Repeat([]byte("x"), maxBytes+1)}, func(f slack.File) slack.File { f.Size = 0; return f }, bot.ErrFileTooLarge, "", nil},
		{"not on Slack's file host", "C0FILES", slacktest.Attachment{Name: "build.log", Content: []byte("ok")}, func(f slack.File) slack.File { f.URLPrivateDownload = other.url; return f }, bot.ErrFileHost, "", nil},
	}
	for _, tc := range tests {
		ts, _, err := h.Slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: tc.channel, UserID: alice, Text: "look", Attach: []slacktest.Attachment{tc.attach}})
		if err != nil {
			t.Fatal(err)
		}
		f := h.Slack.MessageFiles(tc.channel, ts)[0]
		if tc.file != nil {
			f = tc.file(f)
		}
		got, err := b.ReadFile(ctx, f)
		if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.wantErr)
			continue
		}
		if got.Type != tc.wantType || !bytes.Equal(got.Data, tc.wantData) {
			t.Errorf("%s: read %s %q, want %s %q", tc.name, got.Type, got.Data, tc.wantType, tc.wantData)
		}
		// Memory stays flat on a body of any length: no more is read
		// than the limit and one read's buffer.
		var tl *bot.FileTooLargeError
		if errors.As(err, &tl) && (tl.Max != maxBytes || tl.Read > maxBytes+32<<10) {
			t.Errorf("%s: read %d bytes of a file over the limit of %d (%d)", tc.name, tl.Read, maxBytes, tl.Max)
		}
		if d, _ := h.Slack.SharedFile(f.ID); tc.name == "oversize by Slack's size" && d.Downloads != 0 {
			t.Errorf("%s: downloaded %d times, want never", tc.name, d.Downloads)
		}
	}
	if other.requests.Load() != 0 || other.withAuth.Load() != 0 {
		t.Errorf("the other host got %d requests, %d with a token; want none", other.requests.Load(), other.withAuth.Load())
	}
	if !strings.Contains(bot.ErrFilesScope.Error(), "files:read scope (reinstall)") {
		t.Errorf("ErrFilesScope says %q", bot.ErrFilesScope)
	}
}

// TestReadFiles: no more files are read of a message than the count, the
// others are skipped, in order; without files:read every file is
// ErrFilesScope.
func TestReadFiles(t *testing.T) {
	t.Parallel()
	noRead := slices.DeleteFunc(slacktest.DefaultScopes(), func(s string) bool { return s == "files:read" })
	tests := []struct {
		name    string
		scopes  []string
		files   int
		read    int
		skipped []error
	}{
		{"four of five", slacktest.DefaultScopes(), 5, 4, []error{bot.ErrFileCount}},
		{"two", slacktest.DefaultScopes(), 2, 2, nil},
		{"no files:read", noRead, 2, 0, []error{bot.ErrFilesScope, bot.ErrFilesScope}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := bottest.NewWith(t, redisURL, []slacktest.Option{slacktest.WithScopes(tc.scopes...)})
			h.Slack.AddChannel(slacktest.Channel{ID: "C0FILES", Name: "files"})
			b := h.StartBot(bottest.Config{}).Bot
			ctx := t.Context()
			var attach []slacktest.Attachment
			for i := range tc.files {
				attach = append(attach, slacktest.Attachment{Name: string(rune('a'+i)) + ".log", Content: []byte("line\n")})
			}
			ts, _, err := h.Slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: "C0FILES", UserID: alice, Text: "logs", Attach: attach})
			if err != nil {
				t.Fatal(err)
			}
			files := h.Slack.MessageFiles("C0FILES", ts)
			read, skipped := b.ReadFiles(ctx, files)
			if len(read) != tc.read || len(skipped) != len(tc.skipped) {
				t.Fatalf("read %d, skipped %d; want %d and %d", len(read), len(skipped), tc.read, len(tc.skipped))
			}
			for i, s := range skipped {
				if !errors.Is(s.Err, tc.skipped[i]) || s.File.ID != files[tc.read+i].ID {
					t.Errorf("skipped %s: %v, want %s: %v", s.File.Name, s.Err, files[tc.read+i].Name, tc.skipped[i])
				}
			}
		})
	}
}
