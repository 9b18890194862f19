// Package slackwebtest helps tests drive the slackweb page in a real
// browser: headless Chromium through chromedp.
package slackwebtest

import (
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

// BrowserOrSkip returns the chromedp allocator options of a headless
// Chromium (or Chrome) found on PATH, with a fresh profile in t's temporary
// directory; add options such as the window size to them. Without a browser
// on PATH it skips t: call it before t.Parallel.
func BrowserOrSkip(t testing.TB) []chromedp.ExecAllocatorOption {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if exe, err := exec.LookPath(name); err == nil {
			return []chromedp.ExecAllocatorOption{
				chromedp.ExecPath(exe),
				chromedp.Flag("headless", true),
				chromedp.NoSandbox,
				chromedp.DisableGPU,
				chromedp.Flag("disable-quic", true),
				chromedp.NoFirstRun,
				chromedp.NoDefaultBrowserCheck,
				chromedp.Flag("disable-background-networking", true),
				chromedp.Flag("disable-component-update", true),
				chromedp.Flag("disable-sync", true),
				chromedp.UserDataDir(t.TempDir()),
			}
		}
	}
	t.Skip("no Chromium on PATH (looked for chromium, chromium-browser, google-chrome): install it, e.g. apt-get install -y chromium, to run the browser test")
	return nil
}
