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
)

// TestSandboxPeopleInBrowser drives the page's "You are" switcher in
// headless Chromium (screenshots guest.png and shared.png in
// SANDBOX_SCREENSHOTS): #partner-shared marked shared in Alice's sidebar; as
// Gus, the guest, /docs-agent typed in #general is refused to him alone;
// as Pat, of Partner Co, only #partner-shared is there, and what he writes
// shows him as External; back as Alice, the refusal is not hers.
func TestSandboxPeopleInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	shots := os.Getenv(envScreenshots)
	if shots == "" {
		shots = t.TempDir()
	}
	sb := startTestSandbox(t, "")
	b := slackwebtest.NewSession(t, browser, 1280, 800, 90*time.Second)
	waitJS := func(what, expr string) string {
		t.Helper()
		return b.WaitJS(what, expr, sandboxWait)
	}
	actingAs := func(id, name string) {
		t.Helper()
		b.ClickJS("choose "+name, `#people-list button[data-person="`+id+`"]`, sandboxWait)
		waitJS("the page acting as "+name, `document.querySelector('#people-list button[data-person="`+id+`"]').getAttribute('aria-pressed') === 'true' && document.getElementById('me-name').textContent === `+strconv.Quote(name))
	}
	sidebar := `[...document.querySelectorAll('#channel-list .channel-btn')].map((b) => b.dataset.channel + (b.querySelector('.shared-mark') ? ' shared' : '')).join(',')`
	refusal := `[...document.querySelectorAll('#messages .msg-ephemeral')].some((m) => m.innerText.includes(` + strconv.Quote(guestRefusal) + `))`

	b.Step("open the page", chromedp.Navigate(sb.url), chromedp.WaitVisible(chromedp.CSS(".intro")))
	if got := waitJS("the switcher", `[...document.querySelectorAll('#people-list .person-btn')].map((b) => b.innerText.replace(/\s+/g, ' ').trim()).join(' | ')`); got != "AL alice member | GU gus guest | PA pat Partner Co, another organisation | OL olive Other Co, no docsbot yet" {
		t.Errorf("the switcher shows %q", got)
	}
	if got := waitJS("alice's channels", sidebar); got != "C0GENERAL,C0DOCSTEAM,C0RANDOM,"+apiChannel+","+partnerChannel+" shared,"+helpChannel+","+privateHelpChannel {
		t.Errorf("alice's sidebar: %s", got)
	}

	actingAs(sandboxGuest, "gus")
	waitJS("gus's channels, #random and #help alone", sidebar+` === 'C0RANDOM,`+helpChannel+`'`)
	b.Step("type /docs-agent as gus", chromedp.SendKeys(chromedp.ID("composer-input"), "/docs-agent add a page"+kb.Enter))
	waitJS("gus refused, privately", refusal)
	b.Step("the pointer away", chromedp.MouseClickXY(130, 24))
	screenshot := func(name string) {
		t.Helper()
		out := filepath.Join(shots, name)
		if err := os.WriteFile(out, b.Screenshot(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", out)
	}
	screenshot("guest.png")

	actingAs(sandboxPartner, "pat")
	waitJS("pat's one channel, shown", sidebar+` === '`+partnerChannel+` shared' && document.querySelector('#channel-title .shared-mark') && document.querySelector('#messages .intro-shared')`)
	b.Step("write as pat", chromedp.SendKeys(chromedp.ID("composer-input"), "hello from Partner Co"+kb.Enter))
	waitJS("pat's message marked External", `[...document.querySelectorAll('#messages .msg[data-user="`+sandboxPartner+`"]')].some((m) => m.querySelector('.standing-badge.external'))`)

	actingAs(sandboxUser, "alice")
	waitJS("alice's channels again", sidebar+` === 'C0GENERAL,C0DOCSTEAM,C0RANDOM,`+apiChannel+`,`+partnerChannel+` shared,`+helpChannel+`,`+privateHelpChannel+`'`)
	waitJS("pat's message, marked, in alice's #partner-shared", `document.querySelector('#messages .msg[data-user="`+sandboxPartner+`"] .standing-badge.external')`)
	b.Step("the pointer away", chromedp.MouseClickXY(130, 24))
	screenshot("shared.png")
	b.ClickJS("open #general", `#channel-list .channel-btn[data-channel="C0GENERAL"]`, sandboxWait)
	waitJS("#general open without gus's refusal", `document.getElementById('channel-title').textContent === '# general' && document.querySelector('#messages .intro') && !(`+refusal+`)`)
}
