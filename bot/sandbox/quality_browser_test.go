package sandbox

import (
	"os"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
)

// envQualityScreenshot names a file the quality report's browser test
// also writes its screenshot to, such as docs/quality.png.
const envQualityScreenshot = "DOCSBOT_QUALITY_SCREENSHOT"

// TestSandboxQualityInBrowser drives /docs-health quality in headless
// Chromium as a person would: three questions asked with /docs-ask (one
// answered from the docs and rated 👍, two the docs do not cover, asking
// the same thing), then the report: its figures, and the two uncovered
// questions grouped as one, with Make this a docs job.
func TestSandboxQualityInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	_, b, waitJS := openSandboxPage(t, browser)
	b.ClickJS("open #general", `#channel-list .channel-btn[data-channel="C0GENERAL"]`, sandboxWait)
	ask := func(question string) {
		t.Helper()
		b.Step("ask "+question, chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-ask "+question+kb.Enter))
		ts := waitJS("the question shown", `(() => {
			const m = [...document.querySelectorAll('#messages .msg-bot')].find((m) => m.innerText.includes(`+strconv.Quote(question)+`));
			return m ? m.dataset.ts : '';
		})()`)
		b.ClickJS("open the answer's thread", `#messages .msg[data-ts="`+ts+`"] .thread-summary`, sandboxWait)
		waitJS("the answer whole", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => !m.querySelector('.streaming') && m.querySelector('.bk-feedback'))`)
	}
	ask("How do I rotate an API key?")
	b.ClickJS("press 👍", `#thread-messages .bk-feedback button`, sandboxWait)
	waitJS("thanked", `[...document.querySelectorAll('.msg-ephemeral, #thread-messages .msg-ephemeral')].some((m) => m.innerText.includes('Thanks'))`)
	ask("Why is the office coffee machine always broken?")
	ask("why is the office coffee machine always broken")
	b.Step("type /docs-health quality", chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-health quality"+kb.Enter))
	report := waitJS("the report with its figures and the grouped question", `(() => {
		const m = [...document.querySelectorAll('#messages .msg-bot')].find((m) => m.innerText.includes('Answers from the docs'));
		return m && m.innerText.includes('Questions: 3') && m.innerText.includes('Helpful: 1 of 1 rated') &&
			m.innerText.includes('2 questions (2 uncertain)') &&
			m.querySelector('button[data-action-id=`+strconv.Quote(jobdraft.ActionFixDocs)+`]') ? m.innerText : '';
	})()`)
	t.Logf("report:\n%s", report)
	b.Step("scroll to the report", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('#messages .msg-bot')].find((m) => m.innerText.includes('Answers from the docs')).scrollIntoView({block: 'end'})`),
		chromedp.MouseClickXY(130, 24))
	shoot(t, b, "quality.png")
	if path := os.Getenv(envQualityScreenshot); path != "" {
		if err := os.WriteFile(path, b.Screenshot(), 0o644); err != nil {
			t.Fatalf("%s: %v", envQualityScreenshot, err)
		}
	}
}
