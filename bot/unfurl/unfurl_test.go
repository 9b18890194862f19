package unfurl_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/unfurl"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL) }

const (
	general = bottest.General
	alice   = "U0ALICE"
	bob     = "U0BOB"
	page    = "https://docs.example.com/guides/webhooks"
)

// newHarness is a world whose app unfurls the docs site's domain and
// another site's (status.example.com).
func newHarness(t *testing.T) *bottest.Harness {
	t.Helper()
	return bottest.NewWith(t, redisURL, []slacktest.Option{
		slacktest.WithUnfurlDomains("docs.example.com", "status.example.com"),
	})
}

// share posts text with links as user in #general and returns the link_shared event.
func share(t *testing.T, h *bottest.Harness, user, text string) slacktest.SharedLinks {
	t.Helper()
	return shareIn(t, h, general, user, text)
}

// shareIn posts text with links as user in channel and returns the
// link_shared event.
func shareIn(t *testing.T, h *bottest.Harness, channel, user, text string) slacktest.SharedLinks {
	t.Helper()
	sh, err := h.Slack.ShareLinks(t.Context(), slacktest.UserMessage{ChannelID: channel, UserID: user, Text: text})
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

// unfurled waits for the unfurl of url under the shared message.
func unfurled(t *testing.T, h *bottest.Harness, sh slacktest.SharedLinks, url string) string {
	t.Helper()
	h.WaitFor("the unfurl of "+url, func() bool { _, ok := h.Slack.UnfurlsByID(sh.UnfurlID)[url]; return ok })
	return string(h.Slack.UnfurlsByID(sh.UnfurlID)[url].Blocks)
}

// analytics counts the analytics requests the docs API got.
func analytics(h *bottest.Harness) int {
	return h.API.Count(docsapitest.EndpointViews) + h.API.Count(docsapitest.EndpointFeedbackByPage)
}

// TestUnfurlDocsLink: a link to a docs page is unfurled with its title (the
// docs search's), its path, its
// views and 👍/👎 over 30 days and Improve this page; a link to another
// site the app unfurls is not; the same page linked again within 10
// minutes costs no analytics request.
func TestUnfurlDocsLink(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	sh := share(t, h, alice, "read <"+page+"> and <https://status.example.com/incidents>")
	blocks := unfurled(t, h, sh, page)
	for _, want := range []string{"*Webhooks* `/guides/webhooks`", "views", "👍", "👎 4", "over the last 30 days", jobdraft.ActionImprovePage} {
		bottest.WantContains(t, "the unfurl", blocks, want)
	}
	h.Idle()
	if _, ok := h.Slack.UnfurlsByID(sh.UnfurlID)["https://status.example.com/incidents"]; ok {
		t.Error("a link to another site was unfurled")
	}
	spent := analytics(h)
	if spent == 0 {
		t.Fatal("no analytics request was made")
	}
	again := share(t, h, bob, "same page: <"+page+"#retries>")
	unfurled(t, h, again, page+"#retries")
	if n := analytics(h); n != spent {
		t.Errorf("the page linked again cost %d more analytics requests, want none (cached)", n-spent)
	}
}

// TestUnfurlOnceAcrossReplicas: two replicas unfurling links at once make
// one request set between them.
func TestUnfurlOnceAcrossReplicas(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	h.StartBot(bottest.Config{Answers: true})
	var shares []slacktest.SharedLinks
	for i := range 4 {
		shares = append(shares, share(t, h, alice, "link "+string(rune('a'+i))+" <"+page+">"))
	}
	for _, sh := range shares {
		unfurled(t, h, sh, page)
	}
	if n := h.API.Count(docsapitest.EndpointFeedbackByPage); n != 1 {
		t.Errorf("%d feedback requests for four links, want 1", n)
	}
}

// TestUnfurlWhenTheBudgetRefuses: with no analytics budget left the link
// is unfurled without figures, saying why, and Improve this page is still
// there; no analytics request is made.
func TestUnfurlWhenTheBudgetRefuses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Bot: bot.Config{Analytics: bot.AnalyticsLimits{Budget: 3, DigestReserve: 1}}}})
	sh := share(t, h, alice, "<"+page+">")
	blocks := unfurled(t, h, sh, page)
	bottest.WantContains(t, "the unfurl", blocks, "of this hour are spent")
	bottest.WantContains(t, "the unfurl", blocks, jobdraft.ActionImprovePage)
	if n := analytics(h); n != 0 {
		t.Errorf("%d analytics requests past the budget", n)
	}
}

// TestUnfurlImproveThisPageIsForEditors: Improve this page under an unfurl
// opens the job form about the page for an editor, and is refused,
// privately, to anyone else.
func TestUnfurlImproveThisPageIsForEditors(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	sh := share(t, h, alice, "<"+page+">")
	unfurled(t, h, sh, page)
	h.Act(slacktest.Action{UserID: bob, ChannelID: general, MessageTS: sh.TS, ActionID: jobdraft.ActionImprovePage})
	h.WaitFor("bob told he may not", func() bool { return len(h.Slack.Ephemerals(bob)) > 0 })
	if len(h.Slack.OpenModals(bob)) != 0 {
		t.Error("a form opened for a viewer")
	}
	h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: sh.TS, ActionID: jobdraft.ActionImprovePage})
	v := h.WaitModal(alice, agent.ViewJob)
	bottest.WantContains(t, "the job form", string(v.Blocks), "/guides/webhooks")
	bottest.WantContains(t, "the job form", string(v.Blocks), "over the last 30 days")
}

// TestUnfurlOnlyForPeopleLetIn: a docs link posted by someone the
// allow-lists leave out is not unfurled and costs nothing.
func TestUnfurlOnlyForPeopleLetIn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Bot: bot.Config{AllowedUsers: []string{bob}}}})
	sh := share(t, h, alice, "<"+page+">")
	h.Idle()
	if got := h.Slack.UnfurlsByID(sh.UnfurlID); len(got) != 0 {
		t.Errorf("unfurled for someone not let in: %v", got)
	}
	if n := analytics(h); n != 0 {
		t.Errorf("%d analytics requests", n)
	}
	let := share(t, h, bob, "<"+page+">")
	unfurled(t, h, let, page)
}

// TestUnfurlFiguresOnlyForMembers: a docs link shows its figures only where
// members of the organisation alone read them. In a conversation docsbot
// is not in (is_bot_user_member false), Slack Connect included, in a
// channel shared with another organisation, and in a channel of the
// workspace's own with a guest in it, the unfurl shows the page's path and
// why there are no figures, no views, votes or Improve this page, and no
// analytics request is made; in a channel of members only, the same link
// shows them.
func TestUnfurlFiguresOnlyForMembers(t *testing.T) {
	t.Parallel()
	const (
		guest     = "U0GUEST"
		partner   = "U0PAT"
		notIn     = "C0NOTIN"   // docsbot is not in it
		connect   = "C0CONNECT" // shared with another organisation, docsbot not in it
		shared    = "C0SHARED"  // shared with another organisation, docsbot in it
		withGuest = "C0WITHGUS" // the workspace's own, with a guest in it
	)
	h := newHarness(t)
	h.Slack.AddGuest(guest, "Gus Guest", false)
	h.Slack.AddExternalUser(partner, "Pat Partner", "T0PARTNER")
	h.Slack.AddChannel(slacktest.Channel{ID: notIn, Name: "not-in"})
	h.Slack.AddChannel(slacktest.Channel{ID: connect, Name: "connect", Shared: true, Members: []string{alice, partner}})
	h.Slack.AddChannel(slacktest.Channel{ID: shared, Name: "shared", BotMember: true, Shared: true, Members: []string{alice, partner}})
	h.Slack.AddChannel(slacktest.Channel{ID: withGuest, Name: "with-gus", BotMember: true, Members: []string{alice, guest}})
	h.StartBot(bottest.Config{Answers: true})
	for _, tt := range []struct {
		name, channel, user, why string
	}{
		{"docsbot not in the channel", notIn, alice, "shown where docsbot is in the conversation"},
		{"a partner's link in Slack Connect, docsbot not in", connect, partner, "shown where docsbot is in the conversation"},
		{"a partner's link in a shared channel", shared, partner, "this channel is shared with another organisation"},
		{"a member's link in a shared channel", shared, alice, "this channel is shared with another organisation"},
		{"a member's link in a channel with a guest", withGuest, alice, "this channel has guests or people of another organisation in it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sh := shareIn(t, h, tt.channel, tt.user, "see <"+page+">")
			blocks := unfurled(t, h, sh, page)
			bottest.WantContains(t, "the unfurl", blocks, "/guides/webhooks", tt.why)
			for _, not := range []string{" views", "👍", "👎", jobdraft.ActionImprovePage} {
				if strings.Contains(blocks, not) {
					t.Errorf("the unfurl shows %q:\n%s", not, blocks)
				}
			}
		})
	}
	h.Idle()
	if n := analytics(h); n != 0 {
		t.Errorf("%d analytics requests for figures nobody is shown", n)
	}
	blocks := unfurled(t, h, share(t, h, alice, "<"+page+">"), page)
	bottest.WantContains(t, "the unfurl in a channel of members only", blocks, "views", "👎 4", jobdraft.ActionImprovePage)
}

// TestUnfurlsSpendABudgetOfTheirOwn: unfurls draw on a pool of the
// analytics budget of their own (DOCSBOT_UNFURL_ANALYTICS_PER_HOUR), not
// on the poster's share: a poster whose own share could not pay for the
// figures still sees them. A pool too small for a request set shows the
// link without figures, saying why, and asks the docs API nothing.
func TestUnfurlsSpendABudgetOfTheirOwn(t *testing.T) {
	t.Parallel()
	tiny := bot.AnalyticsLimits{Budget: 100, PerUser: 1, PerGuest: 1, DigestReserve: 10}
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Bot: bot.Config{Analytics: tiny}}})
	blocks := unfurled(t, h, share(t, h, alice, "<"+page+">"), page)
	bottest.WantContains(t, "the unfurl of a poster with a share of 1", blocks, "views", "👎 4")

	spent := newHarness(t)
	spent.StartBot(bottest.Config{Answers: true, Config: app.Config{Unfurl: unfurl.Config{AnalyticsPerHour: unfurl.DefaultMaxPages}}})
	blocks = unfurled(t, spent, share(t, spent, alice, "<"+page+">"), page)
	bottest.WantContains(t, "the unfurl past the pool", blocks, "/guides/webhooks", "analytics requests for links of this hour are spent", jobdraft.ActionImprovePage)
	if n := analytics(spent); n != 0 {
		t.Errorf("%d analytics requests past the unfurls' pool", n)
	}
}
