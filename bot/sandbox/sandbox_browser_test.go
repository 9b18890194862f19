package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
	"github.com/docsbot/docsbot/docsapi"
)

// envScreenshot names a file the browser test also writes its screenshot to,
// such as docs/sandbox.png.
const envScreenshot = "DOCSBOT_SCREENSHOT"

// envScreenshots names a directory the browser test writes its screenshots
// to (mention.png, followup.png, sandbox.png with the chart, compare.png); by default they go
// to the test's temporary directory.
const envScreenshots = "SANDBOX_SCREENSHOTS"

// TestSandboxInBrowser drives the sandbox's page in headless Chromium as a
// person would: a job started by @mention, its live status and its result
// with buttons, a follow-up sent from the Follow up button's modal, then
// /docs-visitors 30d chart and 7d compare.
func TestSandboxInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	shots := os.Getenv(envScreenshots)
	if shots == "" {
		shots = t.TempDir()
	}
	sb := startTestSandbox(t, "")

	b := slackwebtest.NewSession(t, browser, 1280, 800, 90*time.Second)
	step := b.Step
	waitJS := func(what, expr string) string {
		t.Helper()
		return b.WaitJS(what, expr, sandboxWait)
	}
	screenshot := func(name string) []byte {
		t.Helper()
		png := b.Screenshot()
		out := filepath.Join(shots, name)
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", out)
		return png
	}

	step("open the page", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(sb.url), chromedp.WaitVisible(chromedp.CSS(".intro")))

	// A job started by mention: the live status in a reply under the
	// mention, then the result with its buttons.
	const prompt = "add a quickstart for the Python SDK"
	step("mention docsbot", chromedp.SendKeys(chromedp.ID("composer-input"), "@docs"))
	waitJS("the mention suggestion", `!document.getElementById('suggest').hidden`)
	step("complete and send", chromedp.SendKeys(chromedp.ID("composer-input"), kb.Tab+prompt+kb.Enter))
	mentionTS := waitJS("the mention", `(() => {
		const m = [...document.querySelectorAll('#messages .msg')].find((m) => m.dataset.user === `+strconv.Quote(sandboxUser)+` && m.innerText.includes(`+strconv.Quote(prompt)+`));
		return m ? m.dataset.ts : '';
	})()`)
	mention := `#messages .msg[data-ts="` + mentionTS + `"]`
	b.ClickJS("open the job's thread", mention+` .thread-summary`, sandboxWait)
	step("the thread open", chromedp.WaitVisible(chromedp.ID("thread-input")))
	waitJS("the live status in the thread", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes(`+strconv.Quote(prompt)+`))`)
	link := waitJS("the result's View pull request button", `(() => {
		const a = document.querySelector('#thread-messages a.bk-link');
		return a && a.textContent.includes('View pull request') ? a.href : '';
	})()`)
	waitJS("the result's Follow up and feedback buttons", `document.querySelector('#thread-messages button[data-action-id="agent.followup"]') && document.querySelectorAll('#thread-messages .bk-feedback button').length === 2`)
	waitJS("the live status completed", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes(`+strconv.Quote(prompt)+`) && m.innerText.includes('Completed'))`)
	waitJS("the job's plan of task cards, done", `[...document.querySelectorAll('#thread-messages .block-plan')].some((p) =>
		[...p.querySelectorAll('.plan-task')].map((c) => c.dataset.taskId + ':' + c.dataset.status).join(' ').startsWith('queued:complete started:complete working:complete pr:complete'))`)
	waitJS("the job's reaction done", `document.querySelector(`+strconv.Quote(mention+` .reaction [title=":white_check_mark:"]`)+`)`)
	job := apiJob(t, sb, prompt)
	if final, _ := sb.api.Job(job.ID); final.PR() != link {
		t.Errorf("the button links %q; the API's job has pull request %q", link, final.PR())
	}
	screenshot("mention.png")

	// A follow-up from the Follow up button's modal.
	const followUp = "Also mention the Retry-After header"
	b.ClickJS("click Follow up", `#thread-messages button[data-action-id="agent.followup"]`, sandboxWait)
	step("the Follow up modal open", chromedp.WaitVisible(chromedp.CSS("#modal-root .modal textarea")))
	step("write the follow-up", chromedp.SendKeys(chromedp.CSS("#modal-root textarea"), followUp))
	b.ClickJS("send the follow-up", "#modal-root .modal-submit", sandboxWait)
	waitJS("the modal closed", `document.getElementById('modal-root').hidden`)
	waitJS("the follow-up's result", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes('follow-up 1') && m.querySelector('a.bk-link'))`)
	if ps := sb.api.Prompts(job.ID); len(ps) != 2 || ps[1] != followUp {
		t.Errorf("the API's job got %q, want the instruction then %q", ps, followUp)
	}
	screenshot("followup.png")

	// A chart: the PNG shows in the channel.
	step("type /docs-visitors 30d chart", chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-visitors 30d chart"+kb.Enter))
	waitJS("the chart shown", `[...document.querySelectorAll('#messages .file-image img')].some((i) => i.complete && i.naturalWidth > 300)`)
	// The README's picture: the mention and the chart in the channel, the
	// job's live status and results with their buttons in the thread.
	step("dismiss the chart's cost note", chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('#messages .link-btn').forEach((b) => b.textContent === 'Dismiss message' && b.click())`))
	waitJS("the note gone", `![...document.querySelectorAll('#messages .link-btn')].some((b) => b.textContent === 'Dismiss message')`)
	step("scroll to the job", chromedp.Evaluate[chromedp.Void](`document.querySelector(`+strconv.Quote(mention)+`).scrollIntoView({block: 'start'})`),
		chromedp.MouseClickXY(130, 24)) // the pointer onto the workspace's name, off the messages it would highlight
	step("scroll the thread to the job's plan", chromedp.Evaluate[chromedp.Void](`document.querySelector('#thread-messages .block-plan').scrollIntoView({block: 'start'})`))
	waitJS("the messages' hover actions faded", `[...document.querySelectorAll('#messages .msg-actions')].every((a) => getComputedStyle(a).opacity === '0')`)
	shot := screenshot("sandbox.png")
	if path := os.Getenv(envScreenshot); path != "" {
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Fatalf("%s: %v", envScreenshot, err)
		}
		t.Logf("screenshot also written to %s", path)
	}

	// A comparison of the last 7 days with the 7 before.
	step("type /docs-visitors 7d compare", chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-visitors 7d compare"+kb.Enter))
	cmp := waitJS("the comparison", `(() => {
		const m = [...document.querySelectorAll('#messages .msg-bot')].pop();
		return m && m.innerText.includes('compared with') ? m.innerText : '';
	})()`)
	t.Logf("comparison:\n%s", cmp)
	waitJS("the comparison's bar chart", `(() => { const m = [...document.querySelectorAll('#messages .msg-bot')].pop(); return m && m.querySelectorAll('.block-chart[data-chart-type="bar"] rect.chart-bar').length === 6; })()`)
	screenshot("compare.png")

	// Slack's own chart of 7 days (the days cached by the 30-day chart), and
	// a summary whose top pages are a data table.
	step("type /docs-visitors 7d chart", chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-visitors 7d chart"+kb.Enter))
	waitJS("the line chart of 7 days", `[...document.querySelectorAll('#messages .block-chart[data-chart-type="line"]')].some((f) => f.dataset.points === '7' && f.querySelectorAll('polyline').length === 2)`)
	step("type /docs-visitors 7d", chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-visitors 7d"+kb.Enter))
	waitJS("the top pages' table", `[...document.querySelectorAll('#messages .data-table')].some((t) => t.querySelectorAll('button[data-action-id^="docs_improve_page."]').length > 0)`)
	screenshot("native.png")

	// A question answered from the docs: the answer streams into the
	// question's thread, then shows its sources and buttons.
	step("type /docs-ask", chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-ask How do I rotate an API key?"+kb.Enter))
	questionTS := waitJS("the question shown", `(() => {
		const m = [...document.querySelectorAll('#messages .msg-bot')].find((m) => m.innerText.includes('How do I rotate an API key?'));
		return m ? m.dataset.ts : '';
	})()`)
	b.ClickJS("open the answer's thread", `#messages .msg[data-ts="`+questionTS+`"] .thread-summary`, sandboxWait)
	waitJS("the answer streaming", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes('According to') && m.querySelector('.streaming'))`)
	waitJS("the answer whole, with its sources and buttons", `[...document.querySelectorAll('#thread-messages .msg-bot')].some((m) => m.innerText.includes('Sources:') && !m.querySelector('.streaming') && m.querySelector('.bk-feedback'))`)
	step("the pointer away", chromedp.MouseClickXY(130, 24))
	answer := screenshot("answer.png")
	if path := os.Getenv(envAnswerScreenshot); path != "" {
		if err := os.WriteFile(path, answer, 0o644); err != nil {
			t.Fatalf("%s: %v", envAnswerScreenshot, err)
		}
	}
}

// envAnswerScreenshot names a file the browser test also writes its
// screenshot of an answer to, such as docs/answer.png.
const envAnswerScreenshot = "DOCSBOT_ANSWER_SCREENSHOT"

// apiJob is the docs API's job whose first instruction is prompt.
func apiJob(t *testing.T, sb *Sandbox, prompt string) docsapi.Job {
	t.Helper()
	for _, j := range sb.api.Jobs() {
		if ps := sb.api.Prompts(j.ID); len(ps) > 0 && ps[0] == prompt {
			return j
		}
	}
	t.Fatalf("no API job got the instruction %q: %+v", prompt, sb.api.Jobs())
	return docsapi.Job{}
}
