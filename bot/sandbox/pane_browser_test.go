package sandbox

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
)

// TestSandboxPaneInBrowser drives the pane in headless
// Chromium as a person would: opened from #api-docs, it shows the app's
// suggested prompts as chips; Deploy status clicked is sent in the pane's
// thread, titles it and is answered there, and the chips go once the
// person wrote; a question typed then streams its answer.
func TestSandboxPaneInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	_, b, waitJS := openSandboxPage(t, browser)
	b.ClickJS("open #api-docs", `#channel-list .channel-btn[data-channel="`+apiChannel+`"]`, sandboxWait)
	waitJS("#api-docs open", `document.getElementById('channel-title').innerText.includes('api-docs')`)
	b.ClickJS("open the pane", "#assistant-btn", sandboxWait)
	b.Step("the pane's thread open", chromedp.WaitVisible(chromedp.ID("thread-input")))
	// The pane sits beside the channel, as Slack's does: #api-docs stays shown.
	waitJS("a new chat beside #api-docs", `document.getElementById('thread-title').innerText.startsWith('New chat') && document.getElementById('channel-title').innerText.includes('api-docs') && !document.getElementById('thread').hidden`)
	chips := waitJS("the suggested prompts, none naming the project in what it posts", `(() => {
		const cs = [...document.querySelectorAll('#thread-messages .prompts .prompt-chip')];
		return cs.length >= 3 && cs.every((c) => !c.title.includes('project=')) ? cs.map((c) => c.textContent).join(' | ') : '';
	})()`)
	t.Logf("prompts: %s", chips)
	waitJS("Deploy status among them", `[...document.querySelectorAll('#thread-messages .prompt-chip')].some((c) => c.textContent === 'Deploy status')`)
	b.Step("click Deploy status", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('#thread-messages .prompt-chip')].find((c) => c.textContent === 'Deploy status').click()`))
	waitJS("the prompt sent in the thread", `[...document.querySelectorAll('#thread-messages .msg')].some((m) => m.dataset.user === `+strconv.Quote(sandboxUser)+` && m.innerText.includes('Deploy status'))`)
	answer := waitJS("the answer in the thread", `(() => {
		const m = [...document.querySelectorAll('#thread-messages .msg-bot')].find((m) => m.innerText.includes('/docs-deploy'));
		return m ? m.innerText : '';
	})()`)
	t.Logf("answer:\n%s", answer)
	waitJS("the chips gone", `!document.querySelector('#thread-messages .prompts')`)
	waitJS("the thread titled with the prompt", `document.getElementById('thread-title').innerText.startsWith('Deploy status')`)

	// A question typed in the pane: the app streams its answer.
	const question = "How do I rotate an API key?"
	b.Step("ask in the pane", chromedp.SendKeys(chromedp.ID("thread-input"), question+kb.Enter))
	waitJS("the answer streaming", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes('According to') && m.querySelector('.streaming'))`)
	waitJS("the answer whole, with its sources", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes('Sources') && !m.querySelector('.streaming'))`)
	b.Step("the pointer away", chromedp.MouseClickXY(130, 24))
	shoot(t, b, "pane.png")
}
