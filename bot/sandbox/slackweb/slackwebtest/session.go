package slackwebtest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Session is one tab of a headless browser for a test to drive: each
// method fails the test, with the page's text, when the browser does not do
// what was asked.
type Session struct {
	t   testing.TB
	ctx context.Context
}

// NewSession starts the browser of BrowserOrSkip's options with a window of
// width×height and opens a tab. timeout bounds everything the session does;
// the browser closes when the test ends.
func NewSession(t testing.TB, browser []chromedp.ExecAllocatorOption, width, height int, timeout time.Duration) *Session {
	t.Helper()
	opts := append(append([]chromedp.ExecAllocatorOption(nil), browser...),
		chromedp.Flag("hide-scrollbars", true), chromedp.WindowSize(width, height))
	alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(stopAlloc)
	tab, closeTab := chromedp.NewContext(alloc)
	t.Cleanup(closeTab)
	ctx, cancel := context.WithTimeout(tab, timeout)
	t.Cleanup(cancel)
	return &Session{t: t, ctx: ctx}
}

// Context is the tab's chromedp context, for actions the methods do not cover.
func (s *Session) Context() context.Context { return s.ctx }

// Step runs actions in order, failing the test at the first that fails.
func (s *Session) Step(what string, actions ...chromedp.Action[chromedp.Void]) {
	s.t.Helper()
	if err := chromedp.Do(s.ctx, actions...); err != nil {
		s.t.Fatalf("%s: %v\npage text:\n%s", what, err, s.text())
	}
}

// WaitJS polls a JavaScript expression until it is truthy, for at most
// wait, and returns its value as a string.
func (s *Session) WaitJS(what, expr string, wait time.Duration) string {
	s.t.Helper()
	v, err := chromedp.Run(s.ctx, chromedp.Poll[string](`(() => { const v = (`+expr+`); return v ? String(v) : ''; })()`,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(wait)))
	if err != nil {
		s.t.Fatalf("waiting for %s: %v\npage text:\n%s", what, err, s.text())
	}
	return v
}

// ClickJS waits, for at most wait, for the element that selector (CSS)
// finds, and clicks it in the same evaluation. Unlike chromedp.Click, it
// cannot lose a node that the page re-renders between finding and
// clicking it.
func (s *Session) ClickJS(what, selector string, wait time.Duration) {
	s.t.Helper()
	s.WaitJS(what, `(() => { const e = document.querySelector(`+strconv.Quote(selector)+`); if (!e) return false; e.click(); return true; })()`, wait)
}

// Screenshot captures the tab's viewport as PNG.
func (s *Session) Screenshot() []byte {
	s.t.Helper()
	png, err := chromedp.Run(s.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		s.t.Fatalf("screenshot: %v", err)
	}
	return png
}

// text is what the page shows, for failure messages.
func (s *Session) text() string {
	text, _ := chromedp.Run(s.ctx, chromedp.Evaluate[string](`document.body.innerText`))
	return text
}
