package sandbox

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
)

// TestSandboxIntroInBrowser: each channel of the sandbox begins with a few
// lines saying what to try there, not the whole guide and the commands,
// which the link under them opens in the help panel.
func TestSandboxIntroInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	sb := startTestSandbox(t, "")
	b := slackwebtest.NewSession(t, browser, 1280, 800, 90*time.Second)
	b.Step("open the page", chromedp.Navigate(sb.url), chromedp.WaitVisible(chromedp.CSS(".intro")))
	tests := []struct{ channel, says string }{
		{"C0GENERAL", "add a quickstart"},
		{helpChannel, "Ask an expert"},
		{privateHelpChannel, "Share in channel"},
		{apiChannel, apiProject + " docs project"},
	}
	for _, tt := range tests {
		b.ClickJS("open "+tt.channel, `#channel-list .channel-btn[data-channel="`+tt.channel+`"]`, sandboxWait)
		b.WaitJS("its short intro", `(() => {
			const i = document.querySelector('#messages .intro');
			const w = i && i.querySelector('.intro-welcome');
			return !!w && w.innerText.includes(`+strconv.Quote(tt.says)+`) && w.innerText.split('\n').filter((l) => l.trim()).length <= 4 &&
				!i.querySelector('.commands') && !!i.querySelector('.intro-guide');
		})()`, sandboxWait)
	}
	b.ClickJS("follow the link to the guide", `#messages .intro .intro-guide`, sandboxWait)
	b.WaitJS("the guide and every command in the help panel", `!document.getElementById('help').hidden &&
		document.querySelector('#help-body .intro-text').innerText.includes('You are') &&
		[...document.querySelectorAll('#help-body .commands dt')].some((d) => d.innerText.includes('/docs-ask'))`, sandboxWait)
}
