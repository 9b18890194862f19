package sandbox

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestSandboxAttachedImageReachesTheAnswer: in the page, a person attaches
// a screenshot to a question for docsbot with the message box's Attach
// files, sees it in their message, and the answer in its thread says the
// docs assistant looked at it; the fake assistant got the file's exact
// bytes.
func TestSandboxAttachedImageReachesTheAnswer(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	sb := startTestSandbox(t, "")
	shot := screenshotPNG(t)
	file := filepath.Join(t.TempDir(), "dashboard.png")
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	const question = "Why does the dashboard look like this?"
	b := slackwebtest.NewSession(t, browser, 1280, 800, 90*time.Second)
	b.Step("open the page", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(sb.url), chromedp.WaitVisible(chromedp.ID("composer-input")))
	b.Step("attach the screenshot", chromedp.SetUploadFiles(chromedp.ID("composer-file"), []string{file}))
	b.WaitJS("the file shown as chosen", `document.querySelector('#composer-files .attachment[data-name="dashboard.png"]') !== null`, sandboxWait)
	b.Step("mention docsbot", chromedp.SendKeys(chromedp.ID("composer-input"), "@docs"))
	b.WaitJS("the mention suggestion", `!document.getElementById('suggest').hidden`, sandboxWait)
	b.Step("ask and send", chromedp.SendKeys(chromedp.ID("composer-input"), kb.Tab+question+kb.Enter))
	ts := b.WaitJS("the question with its image, loaded", `(() => {
		const m = [...document.querySelectorAll('#messages .msg')].find((m) => m.innerText.includes(`+strconv.Quote(question)+`));
		const img = m && m.querySelector('.file-image img');
		return img && img.complete && img.naturalWidth === 8 ? m.dataset.ts : '';
	})()`, sandboxWait)
	b.WaitJS("the chosen files cleared", `document.getElementById('composer-files').hidden`, sandboxWait)
	b.ClickJS("open the answer's thread", `#messages .msg[data-ts="`+ts+`"] .thread-summary`, sandboxWait)
	b.WaitJS("the answer saying it looked at the image", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) =>
		m.innerText.includes('The docs assistant looked at the image') && m.innerText.includes('dashboard.png'))`, sandboxWait)
	var got []docsapitest.AssistantFile
	for _, api := range []*docsapitest.Server{sb.api, sb.apiDocs} {
		for _, id := range api.ThreadIDs() {
			th, _ := api.Thread(id)
			got = append(got, th.Files...)
		}
	}
	if len(got) != 1 || !bytes.Equal(got[0].Data, shot) || got[0].MediaType != "image/png" || got[0].Filename != "dashboard.png" {
		t.Errorf("the assistant received %+v, want dashboard.png's bytes", got)
	}
}

// screenshotPNG is a small PNG of 8×8 pixels.
func screenshotPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range 8 {
		img.Set(i, i, color.RGBA{R: 200, A: 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
