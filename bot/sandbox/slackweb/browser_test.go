package slackweb_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// rendered is what the page shows of the test's messages, read from the DOM.
type rendered struct {
	Injected    int      `json:"injected"`
	Fetched     int      `json:"fetched"`
	Image       string   `json:"image"`
	ScriptLinks int      `json:"scriptLinks"`
	Links       []string `json:"links"`
	Text        string   `json:"text"`
	Bold        string   `json:"bold"`
	Italic      string   `json:"italic"`
	Strike      string   `json:"strike"`
	Code        string   `json:"code"`
	Mention     string   `json:"mention"`
	Broadcast   string   `json:"broadcast"`
	Quote       string   `json:"quote"`
	Pre         string   `json:"pre"`
	Header      string   `json:"header"`
	Fields      int      `json:"fields"`
	Buttons     int      `json:"buttons"`
	Dividers    int      `json:"dividers"`
	Context     string   `json:"context"`
	Edited      int      `json:"edited"`
	Ephemeral   string   `json:"ephemeral"`
	Replies     string   `json:"replies"`
}

// TestRenderingInBrowser checks, in headless Chromium, that Slack text and
// Block Kit are shown as Slack shows them and that nothing in a message
// becomes markup of the page.
func TestRenderingInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	w := newWorld(t)
	w.slack.AddUserGroup("S0DOCS", "U0ALICE")
	w.slack.SetUserGroupHandle("S0DOCS", "docs-team")
	client := w.connect(t)
	ctx := testContext(t)

	const text = "&lt;img src=x onerror=alert(1)&gt; <javascript:alert(1)|click me> <https://example.com/?a=1&amp;b=2|safe link> " +
		"*bold* _italic_ ~strike~ `a &lt; b` <@U0BOB> <!channel> :eyes: :no_such_emoji:\n&gt; quoted *text*\n```pre *not bold*```"
	_, root, err := w.api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText(text, false))
	if err != nil {
		t.Fatal(err)
	}
	blocks := []slack.Block{
		slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, "Weekly <report>", false, false)),
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "*Totals*", false, false),
			[]*slack.TextBlockObject{
				slack.NewTextBlockObject(slack.MarkdownType, "*Human*\n1,234", false, false),
				slack.NewTextBlockObject(slack.MarkdownType, "*AI*\n567", false, false),
			},
			slack.NewAccessory(slack.NewButtonBlockElement("open", "v", slack.NewTextBlockObject(slack.PlainTextType, "Open", false, false)))),
		slack.NewDividerBlock(),
		slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, "asked by <@U0ALICE> of <!subteam^S0DOCS>", false, false)),
		slack.NewActionBlock("", slack.NewButtonBlockElement("ok", "v", slack.NewTextBlockObject(slack.PlainTextType, "Approve", false, false))),
		slack.NewImageBlock("https://example.com/chart.png", "a chart", "", nil),
	}
	if _, _, err := w.api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("report", false), slack.MsgOptionBlocks(blocks...)); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := w.api.UpdateMessageContext(ctx, "C0GENERAL", root, slack.MsgOptionText(text, false)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := w.slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "a reply &lt;b&gt;", ThreadTS: root}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.api.PostEphemeralContext(ctx, "C0GENERAL", "U0ALICE", slack.MsgOptionText("just for you", false)); err != nil {
		t.Fatal(err)
	}

	b := slackwebtest.NewSession(t, browser, 1280, 800, 90*time.Second)
	bctx := b.Context()
	b.Step("open the page", chromedp.Navigate(w.page.URL), chromedp.WaitVisible(chromedp.CSS(".msg-ephemeral")))
	raw, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(() => {
		const q = (s) => document.querySelector('#messages ' + s);
		const text = (s) => (q(s) || {}).textContent || '';
		return JSON.stringify({
			injected: document.querySelectorAll('img[src="x"], #messages script, [onerror]').length,
			fetched: document.querySelectorAll('img[src^="http"]').length, image: text('.block-image'),
			scriptLinks: document.querySelectorAll('a[href^="javascript:"]').length,
			links: [...document.querySelectorAll('#messages .msg a')].map((a) => a.href),
			text: text('.msg-text'),
			bold: text('.msg-text strong'), italic: text('.msg-text em'), strike: text('.msg-text del'),
			code: text('.msg-text code'), mention: text('.msg-text .mention'), broadcast: text('.mention-broadcast'),
			quote: text('.msg-text .quote'), pre: text('.msg-text pre'), header: text('.block-header'),
			fields: document.querySelectorAll('#messages .section-fields .field').length,
			buttons: document.querySelectorAll('#messages .bk-button').length,
			dividers: document.querySelectorAll('#messages .block-divider').length,
			context: text('.block-context'), edited: document.querySelectorAll('#messages .edited').length,
			ephemeral: text('.msg-ephemeral .ephemeral-note'), replies: text('.thread-summary .thread-count'),
		});
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	var got rendered
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		ok        bool
		got, want any
	}{
		{"no markup injected", got.Injected == 0, got.Injected, 0},
		{"no image from another site", got.Fetched == 0, got.Fetched, 0},
		{"image shown as its description", strings.Contains(got.Image, "[image: a chart]"), got.Image, "[image: a chart]"},
		{"no javascript: link", got.ScriptLinks == 0, got.ScriptLinks, 0},
		{"only the http(s) link", len(got.Links) == 1 && got.Links[0] == "https://example.com/?a=1&b=2", got.Links, "https://example.com/?a=1&b=2"},
		{"entities shown as text", strings.Contains(got.Text, "<img src=x onerror=alert(1)>"), got.Text, "<img src=x onerror=alert(1)>"},
		{"unsafe link label as text", strings.Contains(got.Text, "click me"), got.Text, "click me"},
		{"bold", got.Bold == "bold", got.Bold, "bold"},
		{"italic", got.Italic == "italic", got.Italic, "italic"},
		{"strike", got.Strike == "strike", got.Strike, "strike"},
		{"code decoded", got.Code == "a < b", got.Code, "a < b"},
		{"mention by name", got.Mention == "@bob", got.Mention, "@bob"},
		{"broadcast badge", got.Broadcast == "@channel", got.Broadcast, "@channel"},
		{"known emoji", strings.Contains(got.Text, "\U0001F440"), got.Text, "👀"},
		{"unknown emoji kept", strings.Contains(got.Text, ":no_such_emoji:"), got.Text, ":no_such_emoji:"},
		{"quote", got.Quote == "quoted text", got.Quote, "quoted text"},
		{"code block unformatted", got.Pre == "pre *not bold*", got.Pre, "pre *not bold*"},
		{"header as plain text", got.Header == "Weekly <report>", got.Header, "Weekly <report>"},
		{"fields", got.Fields == 2, got.Fields, 2},
		{"buttons", got.Buttons == 2, got.Buttons, 2},
		{"divider", got.Dividers == 1, got.Dividers, 1},
		{"context, a user group by its handle", got.Context == "asked by @alice of @docs-team", got.Context, "asked by @alice of @docs-team"},
		{"edited", got.Edited == 1, got.Edited, 1},
		{"ephemeral", strings.Contains(got.Ephemeral, "Only visible to you"), got.Ephemeral, "Only visible to you"},
		{"thread summary", got.Replies == "1 reply", got.Replies, "1 reply"},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}

	b.Step("click a button", chromedp.Click(chromedp.CSS("#messages .bk-button")))
	client.waitEvent(t, "the button's block_actions", func(e socketmode.Event) bool {
		cb, ok := e.Data.(slack.InteractionCallback)
		return ok && cb.Type == slack.InteractionTypeBlockActions && len(cb.ActionCallback.BlockActions) == 1 &&
			cb.ActionCallback.BlockActions[0].ActionID == "open" && cb.User.ID == "U0ALICE"
	})
	b.Step("open the thread", chromedp.Click(chromedp.CSS("#messages .thread-summary")),
		chromedp.WaitVisible(chromedp.CSS("#thread-messages .msg[data-user=U0ALICE]")))
	reply, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#thread-messages .msg[data-user=U0ALICE] .msg-content")))
	if err != nil || reply != "a reply <b>" {
		t.Errorf("thread reply shows %q (%v), want %q", reply, err, "a reply <b>")
	}

	// An address whose fragment is not valid percent-encoding opens the
	// first channel instead of breaking the page (loaded afresh: a new
	// fragment alone would not reload it).
	b.Step("open the page with a malformed address", chromedp.Navigate("about:blank"), chromedp.Navigate(w.page.URL+"/#%E0%A4%A"),
		chromedp.WaitVisible(chromedp.CSS("#messages .msg-ephemeral")))
}
