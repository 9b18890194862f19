package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
)

// envHelpScreenshot names a file the help channel's browser test also
// writes its screenshot to, such as docs/help.png.
const envHelpScreenshot = "DOCSBOT_HELP_SCREENSHOT"

// TestSandboxHelpInBrowser drives #help in headless Chromium as a person
// would: a question typed without a mention is answered in its thread with
// its sources and Ask an expert, which calls @docs-team by its handle and
// then says so in its place; /docs-ask here shows the channel's mode.
func TestSandboxHelpInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	shots := os.Getenv(envScreenshots)
	if shots == "" {
		shots = t.TempDir()
	}
	_, b, waitJS := openSandboxPage(t, browser)
	b.ClickJS("open #help", `#channel-list .channel-btn[data-channel="`+helpChannel+`"]`, sandboxWait)
	waitJS("#help open", `document.getElementById('channel-title').innerText.includes('help')`)
	const question = "How do I rotate an API key?"
	b.Step("ask in #help, no mention", chromedp.SendKeys(chromedp.ID("composer-input"), question+kb.Enter))
	ts := waitJS("the question", `(() => {
		const m = [...document.querySelectorAll('#messages .msg')].find((m) => m.innerText.includes(`+strconv.Quote(question)+`));
		return m ? m.dataset.ts : '';
	})()`)
	msg := `#messages .msg[data-ts="` + ts + `"]`
	b.ClickJS("open the question's thread", msg+` .thread-summary`, sandboxWait)
	step := b.Step
	step("the thread open", chromedp.WaitVisible(chromedp.ID("thread-input")))
	waitJS("the answer with its sources and Ask an expert", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes('Sources') && m.querySelector('button[data-action-id="docs_ask_expert"]'))`)
	// Ask an expert: the call names the docs team by its handle and says
	// it came after an answer; the button says in its place that it did.
	b.ClickJS("press Ask an expert", `#thread-messages .msg-bot button[data-action-id="docs_ask_expert"]`, sandboxWait)
	waitJS("the call naming @docs-team after the answer", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes('@docs-team') && m.innerText.includes('asked for an expert after docsbot answered'))`)
	waitJS("the answer saying the expert was asked", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes('Sources') && m.innerText.includes('✓ Expert asked by @alice') && !m.querySelector('button[data-action-id="docs_ask_expert"]'))`)
	step("type /docs-ask here", chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-ask here"+kb.Enter))
	waitJS("the mode shown privately", `[...document.querySelectorAll('#messages .msg-ephemeral')].some((m) => m.innerText.includes('the mode is auto'))`)
	b.Step("the pointer away", chromedp.MouseClickXY(130, 24))
	png := b.Screenshot()
	out := filepath.Join(shots, "help.png")
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", out)
	if path := os.Getenv(envHelpScreenshot); path != "" {
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatalf("%s: %v", envHelpScreenshot, err)
		}
	}
}
