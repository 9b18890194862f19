package sandbox

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
)

// TestSandboxReactionInBrowser: a message's Add reaction menu on the page
// offers :question:, which reacts as the person through the fake Slack:
// docsbot gets reaction_added and answers the message from the docs in its
// thread.
func TestSandboxReactionInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	_, b, waitJS := openSandboxPage(t, browser)
	const text = "we should document how to rotate an API key"
	b.Step("write in #general", chromedp.SendKeys(chromedp.ID("composer-input"), text+kb.Enter))
	ts := waitJS("the message", `(() => {
		const m = [...document.querySelectorAll('#messages .msg')].find((m) => m.innerText.includes(`+strconv.Quote(text)+`));
		return m ? m.dataset.ts : '';
	})()`)
	msg := `#messages .msg[data-ts="` + ts + `"]`
	b.ClickJS("open its Add reaction menu", msg+` .msg-react`, sandboxWait)
	waitJS("the menu offering :question: and :memo:", `(() => {
		const items = [...document.querySelectorAll('#menu .menu-item')].map((i) => i.innerText);
		return items.some((i) => i.includes(':question:')) && items.some((i) => i.includes(':memo:'));
	})()`)
	b.Step("choose :question:", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('#menu .menu-item')].find((i) => i.innerText.includes(':question:')).click()`))
	waitJS("the reaction on the message", `!!document.querySelector('`+msg+` .reaction[data-name="question"]')`)
	b.ClickJS("open the message's thread", msg+` .thread-summary`, sandboxWait)
	waitJS("the answer from the docs in its thread", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes('According to Authentication'))`)
}
