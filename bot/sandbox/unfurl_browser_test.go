package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
)

// TestSandboxUnfurlInBrowser drives a docs link in headless Chromium as a
// person would: typed in #general with markup around it, the message shows
// that markup as text and the app's unfurl under it, with the page's path,
// its figures and Improve this page, which opens the job form.
func TestSandboxUnfurlInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	_, b, waitJS := openSandboxPage(t, browser)
	b.ClickJS("open #general", `#channel-list .channel-btn[data-channel="C0GENERAL"]`, sandboxWait)
	link := "https://" + sandboxSiteHost + "/quickstart"
	text := "<b>read</b> " + link
	b.Step("post the link", chromedp.SendKeys(chromedp.ID("composer-input"), text+kb.Enter))
	ts := waitJS("the message with the link", `(() => {
		const m = [...document.querySelectorAll('#messages .msg')].find((m) => m.innerText.includes(`+strconv.Quote(link)+`));
		return m ? m.dataset.ts : '';
	})()`)
	msg := `#messages .msg[data-ts="` + ts + `"]`
	waitJS("the markup shown as text", `(() => {
		const m = document.querySelector(`+strconv.Quote(msg)+`);
		return m.innerText.includes('<b>read</b>') && !m.querySelector('.msg-content b');
	})()`)
	unfurl := msg + ` .unfurl[data-url=` + strconv.Quote(link) + `]`
	card := waitJS("the unfurl with its path, figures and button", `(() => {
		const u = document.querySelector(`+strconv.Quote(unfurl)+`);
		return u && u.innerText.includes('/quickstart') && u.innerText.includes('over the last 30 days') &&
			u.querySelector('.unfurl-source a[href=`+strconv.Quote(link)+`]') &&
			u.querySelector('button[data-action-id^=`+strconv.Quote(jobdraft.ActionImprovePage)+`]') ? u.innerText : '';
	})()`)
	t.Logf("unfurl:\n%s", card)
	b.Step("the pointer away", chromedp.MouseClickXY(130, 24))
	shoot(t, b, "unfurl.png")
	b.ClickJS("press Improve this page", unfurl+` button[data-action-id^=`+strconv.Quote(jobdraft.ActionImprovePage)+`]`, sandboxWait)
	b.Step("the job form open", chromedp.WaitVisible(chromedp.CSS("#modal-root .modal textarea")))
	waitJS("the form names the page", `document.getElementById('modal-root').innerText.includes('quickstart')`)
}

// shoot writes the page's screenshot as name to the directory named by
// SANDBOX_SCREENSHOTS, by default the test's temporary directory.
func shoot(t *testing.T, b *slackwebtest.Session, name string) {
	t.Helper()
	dir := os.Getenv(envScreenshots)
	if dir == "" {
		dir = t.TempDir()
	}
	out := filepath.Join(dir, name)
	if err := os.WriteFile(out, b.Screenshot(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", out)
}
