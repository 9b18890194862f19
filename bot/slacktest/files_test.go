package slacktest

import (
	"bytes"
	"errors"
	"testing"

	"github.com/slack-go/slack"
)

// pngHeader is the start of a PNG file: enough for a test to recognise it.
const pngHeader = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

func TestUploadFile(t *testing.T) {
	t.Parallel()
	s, api := connectedServer(t, WithEchoBotMessages(false))
	ctx := testContext(t)
	pngBytes := []byte(pngHeader)
	parent, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "/docs-visitors 7d"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		params   slack.UploadFileParameters
		content  []byte
		wantTS   string
		wantName string
	}{
		{"PNG in a thread", slack.UploadFileParameters{Filename: "visitors.png", Title: "Visitors, last 7 days", Channel: "C0GENERAL", ThreadTimestamp: parent, Reader: bytes.NewReader(pngBytes), FileSize: len(pngBytes)}, pngBytes, parent, "visitors.png"},
		{"CSV at the top", slack.UploadFileParameters{Filename: "visitors.csv", Channel: "C0GENERAL", Content: "day,visitors\n1,10\n", FileSize: 18}, []byte("day,visitors\n1,10\n"), "", "visitors.csv"},
	}
	for i, tc := range tests {
		sum, err := api.UploadFileContext(ctx, tc.params)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		f := s.Files()[i]
		if f.ID != sum.ID || f.Name != tc.wantName || !bytes.Equal(f.Content, tc.content) || f.Channel != "C0GENERAL" || f.ThreadTS != tc.wantTS || !f.Completed || f.MessageTS == "" {
			t.Errorf("%s: stored file = %+v (summary %+v)", tc.name, f, sum)
		}
		if tc.params.Title != "" && f.Title != tc.params.Title {
			t.Errorf("%s: title %q, want %q", tc.name, f.Title, tc.params.Title)
		}
	}
	if th := s.Thread("C0GENERAL", parent); len(th) != 2 {
		t.Errorf("thread holds %d messages, want the question and the file", len(th))
	}

	noFiles := newTestServer(t, WithScopes("chat:write", "commands"))
	_, err = botAPI(noFiles).UploadFileContext(ctx, tests[1].params)
	var se slack.SlackErrorResponse
	if !errors.As(err, &se) || se.Err != "missing_scope" || se.Needed != "files:write" || se.Provided != "chat:write,commands" {
		t.Errorf("upload without files:write: %v (%+v)", err, se)
	}
}
