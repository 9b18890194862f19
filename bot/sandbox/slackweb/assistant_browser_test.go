package slackweb_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestAssistantPaneInBrowser drives the assistant pane in headless
// Chromium against a Socket Mode test app: ✨ Assistant opens a thread in
// the app's Messages tab; the app's prompts, thread title and status line
// show in the side panel as text, markup and all; a prompt clicked is sent
// in the thread as its message, and the prompts go once the person wrote.
func TestAssistantPaneInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	w := newWorld(t)
	w.startApp(t)
	b := newBrowserSession(t, browser)
	ctx := testContext(t)

	b.step("open the page", chromedp.Navigate(w.page.URL), chromedp.WaitVisible(chromedp.CSS("#messages .intro")))
	b.ClickJS("open the assistant pane", "#assistant-btn", testWait)
	b.step("the pane's thread open", chromedp.WaitVisible(chromedp.ID("thread-input")))
	ts := b.waitJS("the new chat, the app's", `(() => {
		const m = document.querySelector('#thread-messages .msg.msg-bot');
		return document.getElementById('thread-title').innerText.startsWith('New chat') && m ? m.dataset.ts : '';
	})()`)
	b.waitJS("the hint for the pane", `document.getElementById('thread-hint').textContent === 'Questions here go to docsbot'`)
	dm := w.state(t).DM
	if dm == "" {
		t.Fatal("no direct message with the app after opening the pane")
	}

	// The app, as an agent app does: prompts, a title and a status.
	const message = "ask <b>me</b> & more"
	if err := w.api.SetAssistantThreadsSuggestedPromptsContext(ctx, slack.AssistantThreadsSetSuggestedPromptsParameters{
		ChannelID: dm, Title: "Try <i>these</i>", Prompts: []slack.AssistantThreadsPrompt{
			{Title: "<img src=x onerror=alert(1)>", Message: message}, {Title: "Other", Message: "other"}}}); err != nil {
		t.Fatal(err)
	}
	if err := w.api.SetAssistantThreadsTitleContext(ctx, slack.AssistantThreadsSetTitleParameters{ChannelID: dm, ThreadTS: ts, Title: "A <b>title</b>"}); err != nil {
		t.Fatal(err)
	}
	if err := w.api.SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{ChannelID: dm, ThreadTS: ts, Status: "is looking <u>around</u>…"}); err != nil {
		t.Fatal(err)
	}
	got := b.waitJS("the prompts, title and status as text", `(() => {
		const pane = document.getElementById('thread');
		const chips = [...pane.querySelectorAll('.prompts .prompt-chip')].map((c) => c.textContent);
		const status = pane.querySelector('.thread-status');
		return document.getElementById('thread-title').innerText.startsWith('A <b>title</b>') && chips.length === 2 && status ?
			JSON.stringify([pane.querySelector('.prompts-title').textContent, chips, status.innerText]) : '';
	})()`)
	if want := `["Try <i>these</i>",["<img src=x onerror=alert(1)>","Other"],"docsbot is looking <u>around</u>…"]`; got != want {
		t.Errorf("the pane shows %s, want %s", got, want)
	}
	b.waitJS("nothing the app sent became markup", noInjection+` && !document.querySelector('#thread b, #thread i, #thread u')`)
	b.screenshot("assistant.png")

	b.step("click the first prompt", chromedp.Evaluate[chromedp.Void](`document.querySelector('#thread-messages .prompt-chip').click()`))
	b.waitJS("the prompt sent in the thread, the prompts gone", `[...document.querySelectorAll('#thread-messages .msg:not(.msg-bot)')].some((m) => m.innerText.includes(`+strconv.Quote(message)+`)) && !document.querySelector('#thread-messages .prompts')`)
	if !slices.ContainsFunc(w.slack.Thread(dm, ts), func(m slacktest.Message) bool { return m.Text == "ask &lt;b&gt;me&lt;/b&gt; &amp; more" }) {
		t.Errorf("the thread holds no reply with the prompt's message: %+v", w.slack.Thread(dm, ts))
	}
}
