package ask_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestAskWithImages: a question by mention reaches the assistant with its
// image as a file part, the exact bytes with their media type and name,
// and its answer says it looked at it; an oversize image, an HTML "image"
// (no files:read), a text file and a fifth file past the count of four are
// each told privately and never passed on. A reply in the answer's thread
// with two images goes on with the conversation, both sent.
func TestAskWithImages(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Bot: bot.Config{Files: bot.FileLimits{MaxBytes: 1 << 10, MaxCount: 4}}}})
	screen := bottest.Image("image/png", "screen")
	ts := h.Post(slacktest.UserMessage{ChannelID: general, UserID: alice, Text: "Why does the dashboard look like this?", Attach: []slacktest.Attachment{
		{Name: "screen.png", Mimetype: "image/png", Content: screen},
		{Name: "huge.png", Mimetype: "image/png", Content: append(bottest.Image("image/png", "huge"), make([]byte, 2<<10)...)},
		{Name: "page.png", Mimetype: "image/png", Content: screen, Fault: slacktest.FileSignInPage},
		{Name: "notes.txt", Mimetype: "text/plain", Content: []byte("some notes")},
		{Name: "fifth.gif", Mimetype: "image/gif", Content: bottest.Image("image/gif", "fifth")},
	}}, true)
	answer := h.answered(ts)
	bottest.WantContains(t, "the answer", answer.Text, "Looking at screen.png (image/png)", "The docs assistant looked at the image `screen.png`.")
	note := h.WaitPrivate(alice, "Not sent to the docs assistant")
	if note.ThreadTS != ts {
		t.Errorf("the note is in thread %q, want the question's %q", note.ThreadTS, ts)
	}
	bottest.WantContains(t, "the note", note.Text, "looks at images only (PNG, JPEG, GIF, WebP): <", "|notes.txt>.",
		"|huge.png> (larger than 1,024 bytes)", "|page.png> (docsbot cannot read files: the app needs the files:read scope (reinstall))",
		"|fifth.gif> (docsbot reads 4 files of a message)")

	photo, anim := bottest.Image("image/jpeg", "photo"), bottest.Image("image/gif", "anim")
	h.Post(slacktest.UserMessage{ChannelID: general, UserID: alice, ThreadTS: ts, Text: "And these two?", Attach: []slacktest.Attachment{
		{Name: "photo.jpg", Mimetype: "image/jpeg", Content: photo}, {Name: "anim.gif", Mimetype: "image/gif", Content: anim}}}, false)
	second := h.answeredAgain(ts)
	bottest.WantContains(t, "the second answer", second.Text, "looked at the images `photo.jpg` and `anim.gif`.")
	ids := h.API.ThreadIDs()
	if len(ids) != 1 {
		t.Fatalf("%d conversations with the assistant, want 1", len(ids))
	}
	th, _ := h.API.Thread(ids[0])
	want := []docsapitest.AssistantFile{{Question: 0, MediaType: "image/png", Filename: "screen.png", Data: screen},
		{Question: 1, MediaType: "image/jpeg", Filename: "photo.jpg", Data: photo}, {Question: 1, MediaType: "image/gif", Filename: "anim.gif", Data: anim}}
	if len(th.Files) != len(want) {
		t.Fatalf("the assistant received %d files, want %d: %+v", len(th.Files), len(want), th.Files)
	}
	for i, f := range th.Files {
		if f.Question != want[i].Question || f.MediaType != want[i].MediaType || f.Filename != want[i].Filename || !bytes.Equal(f.Data, want[i].Data) || f.URL != "" {
			t.Errorf("file %d: %+v, want %+v", i, f, want[i])
		}
	}
}

// TestAskImagesRefused: an assistant that refuses a question's images (413)
// is asked again without them, once, and the answer says so.
func TestAskImagesRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Times: 1, Status: http.StatusRequestEntityTooLarge})
	h.StartBot(bottest.Config{Answers: true})
	dm, err := h.Slack.OpenDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	ts := h.Post(slacktest.UserMessage{ChannelID: dm, UserID: alice, Text: "What does this error mean?", Attach: []slacktest.Attachment{
		{Name: "error.webp", Mimetype: "image/webp", Content: bottest.Image("image/webp", "error")}}}, false)
	bottest.WantContains(t, "the answer", h.answeredIn(dm, ts).Text, "The docs assistant did not take the image `error.webp`, so this answer is from your words alone.")
	if n, asked := h.API.Count(docsapitest.EndpointAssistant), h.API.Questions(); n != 2 || asked != 1 {
		t.Errorf("%d requests to the assistant and %d questions answered, want 2 and 1", n, asked)
	}
	if strings.Contains(h.API.Requests()[1].Body, `"type":"file"`) {
		t.Errorf("the question asked again carries the image: %.300s", h.API.Requests()[1].Body)
	}
}

// TestAskImagesOfAnotherOrganisation: a person of another organisation may
// ask in a channel shared with theirs (Slack Connect), as today: their
// question's image reaches the assistant with it, read with the
// workspace's token.
func TestAskImagesOfAnotherOrganisation(t *testing.T) {
	t.Parallel()
	const outsider, connect = "U0OUTSIDER", "C0CONNECT"
	h := newHarness(t)
	h.Slack.AddExternalUser(outsider, "eve", "T0OTHER")
	h.Slack.AddChannel(slacktest.Channel{ID: connect, Name: "partner-connect", BotMember: true, Shared: true})
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	shot := bottest.Image("image/gif", "eve")
	ts := h.Post(slacktest.UserMessage{ChannelID: connect, UserID: outsider, Text: "Why do I get this error?",
		Attach: []slacktest.Attachment{{Name: "error.gif", Mimetype: "image/gif", Content: shot}}}, true)
	bottest.WantContains(t, "the answer", h.answeredIn(connect, ts).Text, "looked at the image `error.gif`")
	if th, _ := h.API.Thread(h.API.ThreadIDs()[0]); len(th.Files) != 1 || !bytes.Equal(th.Files[0].Data, shot) {
		t.Errorf("the assistant received %+v, want error.gif", th.Files)
	}
}
