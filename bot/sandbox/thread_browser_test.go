package sandbox

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
)

// TestSandboxThreadKeepsMessageInView: opening a message's thread keeps the
// message in view, though the channel, narrowed beside the thread, wraps
// the long messages above it onto more lines.
func TestSandboxThreadKeepsMessageInView(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	long := strings.Repeat("a long line about the docs that wraps when the channel is narrow, ", 12)
	for i := range 6 {
		p.send("C0GENERAL", strconv.Itoa(i)+" "+long, "")
	}
	target := p.send("C0GENERAL", "the message whose thread is opened", "")
	for i := range 8 {
		p.send("C0GENERAL", "a short line "+strconv.Itoa(i), "")
	}
	b := slackwebtest.NewSession(t, browser, 1280, 800, 90*time.Second)
	msg := `#messages .msg[data-ts="` + target.TS + `"]`
	b.Step("open the page", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(sb.url), chromedp.WaitVisible(chromedp.CSS(msg)))
	b.WaitJS("the message at the bottom of the view, the channel's end below it", `(() => {
		document.querySelector('`+msg+`').scrollIntoView({ block: 'end' });
		const box = document.getElementById('messages');
		return box.scrollHeight - box.scrollTop - box.clientHeight > 100;
	})()`, sandboxWait)
	b.ClickJS("reply in its thread", msg+` .msg-reply`, sandboxWait)
	b.Step("the thread open", chromedp.WaitVisible(chromedp.ID("thread-input")))
	b.WaitJS("the message still in view", `(() => {
		const r = document.querySelector('`+msg+`').getBoundingClientRect();
		const v = document.getElementById('messages').getBoundingClientRect();
		return r.top >= v.top - 1 && r.bottom <= v.bottom + 1; // within a pixel of rounding
	})()`, 3*time.Second)
}
