package sandbox

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
)

// openSandboxPage starts a sandbox of its own and opens its page in a
// browser session at 1280×800, once the channel's welcome shows; waitJS
// waits for a page expression, up to sandboxWait.
func openSandboxPage(t *testing.T, browser []chromedp.ExecAllocatorOption) (*Sandbox, *slackwebtest.Session, func(what, expr string) string) {
	t.Helper()
	sb := startTestSandbox(t, "")
	b := slackwebtest.NewSession(t, browser, 1280, 800, 90*time.Second)
	waitJS := func(what, expr string) string {
		t.Helper()
		return b.WaitJS(what, expr, sandboxWait)
	}
	b.Step("open the page", chromedp.Navigate(sb.url), chromedp.WaitVisible(chromedp.CSS(".intro")))
	return sb, b, waitJS
}
