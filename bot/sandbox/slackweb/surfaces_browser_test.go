package slackweb_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
)

// envScreenshots names a directory the browser test of the app's surfaces
// writes its screenshots to (blocks.png, modal.png, home.png, dm.png), to
// look at the page; by default they go to the test's temporary directory.
const envScreenshots = "SLACKWEB_SCREENSHOTS"

// noInjection counts elements an HTML injection would have made.
const noInjection = `document.querySelectorAll('img[src="x"], [onerror], #app script, #modal-root script').length === 0`

// browserSession is a browser tab with the test's screenshot directory.
type browserSession struct {
	*slackwebtest.Session
	t     *testing.T
	shots string
}

func newBrowserSession(t *testing.T, browser []chromedp.ExecAllocatorOption) *browserSession {
	t.Helper()
	shots := os.Getenv(envScreenshots)
	if shots == "" {
		shots = t.TempDir()
	}
	return &browserSession{Session: slackwebtest.NewSession(t, browser, 1360, 860, 90*time.Second), t: t, shots: shots}
}

func (b *browserSession) step(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	b.Step(what, actions...)
}

func (b *browserSession) waitJS(what, expr string) string {
	b.t.Helper()
	return b.WaitJS(what, expr, testWait)
}

func (b *browserSession) screenshot(name string) {
	b.t.Helper()
	out := filepath.Join(b.shots, name)
	if err := os.WriteFile(out, b.Screenshot(), 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", out)
}

// TestSurfacesInBrowser drives, in headless Chromium against a Socket Mode
// test app, every surface the page offers: a mention completed from "@docs",
// Block Kit buttons (URL, primary, danger), an overflow menu and feedback
// buttons, the thread's status, a reaction, a modal opened by a button and
// by the message shortcut (errors shown inline, submitted, closed), the Home
// tab and the app's Messages tab with uploaded files. Nothing the app sends
// becomes markup of the page.
func TestSurfacesInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	w := newWorld(t, slackweb.WithShortcuts(docsShortcut))
	app := w.startApp(t)
	b := newBrowserSession(t, browser)

	b.step("open the page", chromedp.Navigate(w.page.URL), chromedp.WaitVisible(chromedp.CSS("#messages .intro")))

	// A mention, completed from "@docs".
	b.step("type @docs", chromedp.SendKeys(chromedp.ID("composer-input"), "@docs"))
	if got := b.waitJS("the mention suggestion", `!document.getElementById('suggest').hidden && document.querySelector('#suggest .active .suggest-name').textContent`); got != "@docsbot" {
		t.Errorf("suggested %q, want @docsbot", got)
	}
	b.step("complete and send", chromedp.SendKeys(chromedp.ID("composer-input"), kb.Tab+"update the quickstart"+kb.Enter))
	app.wait(t, "the app_mention", func(it seenItem) bool { return it.Kind == "app_mention" && it.Text == "<@U0BOT> update the quickstart" })
	b.waitJS("the mention shown", `[...document.querySelectorAll('#messages .msg .mention')].some((m) => m.textContent === '@docsbot')`)
	b.waitJS("the status under the thread", `(document.querySelector('#messages .thread-status') || {}).textContent === 'docsbot is working…'`)

	// The app's blocks in the thread.
	b.step("open the thread", chromedp.Click(chromedp.CSS("#messages .thread-summary")),
		chromedp.WaitVisible(chromedp.CSS("#thread-messages .block-actions")))
	b.waitJS("the status in the thread", `document.querySelector('#thread-messages > .thread-status')`)
	got := b.waitJS("the buttons", `JSON.stringify((() => {
		const q = (s) => document.querySelector('#thread-messages ' + s);
		const pr = q('a.bk-link');
		return [pr && pr.href, pr && pr.target, pr && pr.rel, pr && pr.classList.contains('primary'),
			!!q('button.bk-button.danger[data-action-id=cancel]'), !!q('.bk-overflow button'),
			document.querySelectorAll('#thread-messages .bk-feedback button').length,
			q('.block-section .section-text').textContent];
	})())`)
	if want := `["https://example.com/pr/1","_blank","noopener noreferrer",true,true,true,2,"Job started <img src=x onerror=alert(1)>"]`; got != want {
		t.Errorf("the blocks show %s, want %s", got, want)
	}
	b.step("choose in the overflow menu", chromedp.Click(chromedp.CSS("#thread-messages .bk-overflow button")),
		chromedp.WaitVisible(chromedp.ID("menu")), chromedp.Click(chromedp.CSS("#menu .menu-item")))
	app.wait(t, "the overflow choice", func(it seenItem) bool { return it.ID == overflowID && it.Value == "retry" })
	b.step("thumbs up", chromedp.Click(chromedp.CSS("#thread-messages .bk-feedback button")))
	app.wait(t, "the feedback", func(it seenItem) bool { return it.ID == feedbackID && it.Value == "good" })
	// The URL button opens its link in a new tab and tells the app; the
	// test keeps the browser from leaving for example.com.
	b.step("click View PR", chromedp.Evaluate[chromedp.Void](`(() => {
		const a = document.querySelector('#thread-messages a.bk-link');
		a.addEventListener('click', (e) => e.preventDefault());
		a.click();
	})()`))
	app.wait(t, "the URL button's action", func(it seenItem) bool { return it.ID == viewPRID && it.Value == "pr" })

	// A button opens a modal; errors show inline; the submission closes it.
	b.step("click Follow up", chromedp.Click(chromedp.CSS(`#thread-messages button[data-action-id="follow_up"]`)),
		chromedp.WaitVisible(chromedp.CSS("#modal-root .modal textarea")))
	got = b.waitJS("the modal", `JSON.stringify([...document.querySelectorAll('#modal-root .modal-title, #modal-root .input-label, #modal-root .modal-close, #modal-root .modal-submit')].map((e) => e.textContent))`)
	if want := `["Follow up","Instruction <img src=x onerror=alert(1)>","Priority (optional)","Cancel","Send"]`; got != want {
		t.Errorf("the modal shows %s, want %s", got, want)
	}
	b.waitJS("no markup injected", noInjection)
	b.step("submit nothing", chromedp.Click(chromedp.CSS("#modal-root .modal-submit")))
	b.waitJS("the required field marked", `document.querySelector('#modal-root .input-error').textContent === 'Please complete this required field.'`)
	b.step("submit a bad instruction", chromedp.SendKeys(chromedp.CSS("#modal-root textarea"), badFollowUp),
		chromedp.Click(chromedp.CSS("#modal-root .modal-submit")))
	b.waitJS("the app's error inline", `document.querySelector('#modal-root .input-error').textContent === `+strconv.Quote(followUpError))
	b.step("scroll the channel to the job", chromedp.Evaluate[chromedp.Void](`document.querySelector('#messages .msg').scrollIntoView({block: 'start'})`))
	b.screenshot("modal.png")
	b.step("submit a good one", chromedp.Evaluate[chromedp.Void](`document.querySelector('#modal-root textarea').value = ''`),
		chromedp.SendKeys(chromedp.CSS("#modal-root textarea"), "add an <example>"),
		chromedp.SetValue(chromedp.CSS("#modal-root select"), "high"),
		chromedp.Click(chromedp.CSS("#modal-root .modal-submit")))
	app.wait(t, "the submission", func(it seenItem) bool {
		return it.Kind == "view_submission" && it.Text == "add an <example>" && it.Value == "high"
	})
	b.waitJS("the modal closed", `document.getElementById('modal-root').hidden`)
	b.waitJS("the app's post", `[...document.querySelectorAll('#messages .msg-bot .msg-text')].some((m) => m.textContent === 'Follow-up: add an <example>')`)

	// Cancel: the app reacts and posts in the thread, which ends its status.
	b.step("click Cancel", chromedp.Click(chromedp.CSS(`#thread-messages button[data-action-id="cancel"]`)))
	b.waitJS("the reaction", `document.querySelector('#thread-messages .msg-bot .reaction [title=":x:"]')`)
	b.waitJS("the status gone", `!document.querySelector('.thread-status')`)
	b.screenshot("blocks.png")

	// A mention in the thread, completed there too.
	b.step("type @d in the thread", chromedp.SendKeys(chromedp.ID("thread-input"), "more for @d"))
	if got := b.waitJS("the mention suggestion in the thread", `!document.getElementById('thread-suggest').hidden && document.querySelector('#thread-suggest .active .suggest-name').textContent`); got != "@docsbot" {
		t.Errorf("suggested %q in the thread, want @docsbot", got)
	}
	b.step("complete and send in the thread", chromedp.SendKeys(chromedp.ID("thread-input"), kb.Tab+"please"+kb.Enter))
	app.wait(t, "the app_mention in the thread", func(it seenItem) bool { return it.Kind == "app_mention" && it.Text == "more for <@U0BOT> please" })
	b.waitJS("the app's answer and status in the thread", `document.querySelectorAll('#thread-messages button[data-action-id="follow_up"]').length === 2 && document.querySelector('#messages .thread-status')`)

	// The message shortcut, from the message's "More actions" menu.
	b.step("open the message's menu", chromedp.Click(chromedp.CSS(`#messages .msg[data-user="U0ALICE"] .msg-more`)),
		chromedp.WaitVisible(chromedp.ID("menu")))
	if got := b.waitJS("the shortcut", `document.querySelector('#menu .menu-label').textContent`); got != "Send to docs agent" {
		t.Errorf("the menu lists %q", got)
	}
	b.step("run the shortcut", chromedp.Click(chromedp.CSS("#menu .menu-item")),
		chromedp.WaitVisible(chromedp.CSS("#modal-root .modal")))
	app.wait(t, "the message shortcut", func(it seenItem) bool {
		return it.Kind == "message_action" && it.ID == shortcutID && it.Text == "<@U0BOT> update the quickstart"
	})
	b.step("close the modal", chromedp.Click(chromedp.CSS("#modal-root .modal-close")))
	app.wait(t, "view_closed", func(it seenItem) bool { return it.Kind == "view_closed" })
	b.waitJS("the modal gone", `document.getElementById('modal-root').hidden`)

	// The Home tab: opening it makes the app publish; its button acts.
	b.step("open the app", chromedp.Click(chromedp.ID("app-btn")))
	app.wait(t, "app_home_opened", func(it seenItem) bool { return it.Kind == "app_home_opened" })
	if got := b.waitJS("the Home tab", `(document.querySelector('#home .block-header') || {}).textContent`); got != "Welcome, "+injection {
		t.Errorf("the Home tab's header is %q", got)
	}
	b.step("refresh the Home tab", chromedp.Click(chromedp.CSS(`#home button[data-action-id="refresh"]`)))
	b.waitJS("the refreshed Home tab", `document.querySelector('#home .block-header').textContent.startsWith('Refreshed')`)
	b.waitJS("no markup injected", noInjection)
	b.screenshot("home.png")

	// The Messages tab: the DM, with the app's answer and files.
	b.step("open Messages", chromedp.Click(chromedp.ID("tab-messages")), chromedp.WaitVisible(chromedp.ID("composer-input")))
	b.waitJS("the DM opened", `document.querySelector('#messages .intro-title').textContent === 'docsbot'`)
	b.step("write to the app", chromedp.SendKeys(chromedp.ID("composer-input"), "hello <b>"+kb.Enter))
	app.wait(t, "the DM", func(it seenItem) bool { return it.Kind == "message.im" && it.Text == "hello &lt;b&gt;" })
	b.waitJS("the answer", `[...document.querySelectorAll('#messages .msg-bot')].some((m) => m.innerText.includes('You said: hello <b>'))`)
	b.waitJS("the image loaded", `(() => { const i = document.querySelector('#messages .file-image img'); return i && i.complete && i.naturalWidth === 120; })()`)
	b.waitJS("the image block by file id loaded", `(() => { const i = document.querySelector('#messages .block-image img'); return i && i.complete && i.naturalWidth === 120 && i.alt === 'the chart in a block'; })()`)
	got = b.waitJS("the CSV link", `(() => { const a = document.querySelector('#messages a.file-download'); return a && JSON.stringify([a.getAttribute('download'), new URL(a.href).pathname.startsWith('/api/files/F')]); })()`)
	if got != `["visitors.csv",true]` {
		t.Errorf("the CSV link: %s", got)
	}
	b.screenshot("dm.png")
	if !strings.HasPrefix(w.state(t).DM, "D") {
		t.Errorf("the state has no DM")
	}
}
