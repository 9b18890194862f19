package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// TestSandboxInBrowser drives the sandbox's page in headless Chromium as a
// person would: a /docs-agent job, a follow-up in its thread, the pull
// request link, then /docs-visitors 30d.
func TestSandboxInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	shots := t.TempDir()
	sb := startTestSandbox(t, "")

	b := slackwebtest.NewSession(t, browser, 1280, 800, 60*time.Second)
	step := b.Step
	waitJS := func(what, expr string) string {
		t.Helper()
		return b.WaitJS(what, expr, sandboxWait)
	}

	step("open the page", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(sb.url), chromedp.WaitVisible(chromedp.CSS(".intro")))

	const prompt = "Add a quickstart for the Python SDK"
	step("type /docs-agent", chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-agent "+prompt+kb.Enter))
	rootTS := waitJS("the job's root message", `(() => {
		for (const m of document.querySelectorAll('#messages .msg-bot')) {
			if (m.innerText.includes('asked the docs agent') && m.innerText.includes(`+strconv.Quote(prompt)+`)) return m.dataset.ts;
		}
		return '';
	})()`)

	step("open the job's thread", chromedp.Click(chromedp.CSS(`#messages .msg[data-ts="`+rootTS+`"] .msg-reply`)),
		chromedp.WaitVisible(chromedp.ID("thread-input")))
	const followUp = "Also mention the Retry-After header"
	step("reply in the thread", chromedp.SendKeys(chromedp.ID("thread-input"), followUp+kb.Enter))
	waitJS("the follow-up acknowledged with :eyes:", `(() => {
		for (const m of document.querySelectorAll('#thread-messages .msg')) {
			if (m.innerText.includes(`+strconv.Quote(followUp)+`) && m.querySelector('.reaction [title=":eyes:"]')) return 'yes';
		}
		return '';
	})()`)

	var job docsapi.Job
	for _, j := range sb.api.Jobs() {
		if ps := sb.api.Prompts(j.ID); len(ps) == 2 && ps[0] == prompt && ps[1] == followUp {
			job = j
		}
	}
	if job.ID == "" {
		t.Fatalf("no API job got the instruction and the follow-up: %+v", sb.api.Jobs())
	}
	link := waitJS("the pull request link in the thread", `(() => {
		const a = [...document.querySelectorAll('#thread-messages .msg-bot a[href^="https://"]')].pop();
		return a && a.closest('.msg').innerText.includes('follow-up 1') ? a.href : '';
	})()`)
	if final, _ := sb.api.Job(job.ID); final.Status != docsapi.StatusCompleted || final.PR() != link {
		t.Errorf("the page links %q; the API's job is %s with pull request %q", link, final.Status, final.PR())
	}

	// The bot counts the last 30 UTC days, today included, as of when it
	// asks; the dataset is asked the same before and after, so a minute or a
	// day that turns meanwhile cannot make the test flaky.
	expected := func() string {
		now := time.Now().UTC()
		today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
		return docsapi.FormatCount(int64(sb.api.Dataset().Totals(today.AddDate(0, 0, -29), today.AddDate(0, 0, 1)).Total))
	}
	before := expected()
	step("type /docs-visitors 30d", chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-visitors 30d"+kb.Enter))
	summary := waitJS("the visitors summary", `(() => {
		const m = [...document.querySelectorAll('#messages .msg-bot')].find((m) => m.innerText.includes('Unique visitors'));
		return m ? m.innerText : '';
	})()`)
	if after := expected(); !strings.Contains(summary, before) && !strings.Contains(summary, after) {
		t.Errorf("the summary does not show the dataset's total of %s unique visitors:\n%s", before, summary)
	}

	// Scroll the channel back to the job for the screenshot: the job's
	// message and its thread side by side, the summary below.
	step("scroll to the job", chromedp.Evaluate[chromedp.Void](`document.querySelector('#messages .msg[data-ts="`+rootTS+`"]').scrollIntoView({block: 'start'})`))
	png := b.Screenshot()
	out := filepath.Join(shots, "sandbox.png")
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", out)
	if path := os.Getenv(envScreenshot); path != "" {
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatalf("%s: %v", envScreenshot, err)
		}
		t.Logf("screenshot also written to %s", path)
	}
}
