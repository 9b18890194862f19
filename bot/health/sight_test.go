package health_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// The people and the channels of the tests of who sees readers' words.
const (
	guest     = "U0GUEST"
	external  = "U0EXT"
	shared    = "C0SHARED"  // shared with another organisation (Slack Connect)
	withGuest = "C0WITHGUS" // the workspace's own, with the guest in it
)

// sightWorld adds a guest, a person of another organisation, a channel
// shared with theirs, where alice, the guest and they are, and a channel of
// the workspace's own where alice, bob and the guest are.
func sightWorld(h *bottest.Harness) {
	h.Slack.AddGuest(guest, "Gus Guest", false)
	h.Slack.AddExternalUser(external, "Ext Person", "T0OTHER")
	h.Slack.AddChannel(slacktest.Channel{ID: shared, Name: "with-partner", BotMember: true, Shared: true, Members: []string{alice, guest, external}})
	h.Slack.AddChannel(slacktest.Channel{ID: withGuest, Name: "with-gus", BotMember: true, Members: []string{alice, bob, guest}})
}

// readersWords are the words docs visitors and the assistant wrote that the
// default story's docs health shows a member: the feedback comments and
// code-sample reports, the search terms (as the view quotes them), and the
// unanswered questions, their categories and the assistant's replies.
func readersWords() []string {
	a := docsapitest.DefaultAnalytics()
	var words []string
	for _, f := range a.Feedback {
		if f.Comment != "" {
			words = append(words, f.Comment)
		}
		if f.Filename != "" {
			words = append(words, f.Filename)
		}
	}
	for _, s := range a.Searches {
		words = append(words, "`"+s.Query+"`")
	}
	for _, c := range a.Conversations {
		if !c.Answered {
			words = append(words, c.Query, c.Response, c.Category)
		}
	}
	slices.Sort(words)
	return slices.Compact(words)
}

// seenBy is everything the fake Slack recorded that user can see: the bot's
// messages (and their threads) in channels, what was shown to them alone,
// and their direct message with docsbot; raw blocks included, so that a
// button's value counts too.
func seenBy(h *bottest.Harness, user string, channels ...string) string {
	h.T.Helper()
	dm, err := h.Slack.OpenDM(user)
	if err != nil {
		h.T.Fatal(err)
	}
	var b strings.Builder
	add := func(m slacktest.Message) {
		b.WriteString(m.Text + "\n" + bottest.Rendered(m) + "\n" + string(m.Blocks) + "\n")
	}
	for _, c := range append(channels, dm) {
		for _, root := range h.Slack.Messages(c) {
			for _, m := range h.Slack.Thread(c, root.TS) {
				add(m)
			}
		}
	}
	for _, m := range h.Slack.Ephemerals(user) {
		add(m)
	}
	for _, p := range h.Slack.ResponsePosts("") {
		if p.User == user {
			b.WriteString(p.Text + "\n" + string(p.Blocks) + "\n")
		}
	}
	return b.String()
}

// wantNoWords checks that seen holds none of the readers' words and no Fix
// with agent button.
func wantNoWords(t *testing.T, who, seen string) {
	t.Helper()
	for _, w := range readersWords() {
		if strings.Contains(seen, w) {
			t.Errorf("%s saw the readers' words %q", who, w)
		}
	}
	if strings.Contains(seen, jobdraft.ActionFixDocs) {
		t.Errorf("%s was shown a Fix with agent button, whose value carries the evidence", who)
	}
}

// privateViews waits for n docs health views shown to user alone and
// returns what they show.
func privateViews(h *bottest.Harness, user string, n int) string {
	h.T.Helper()
	var got []slacktest.Message
	h.WaitFor(fmt.Sprintf("%d docs health views shown to %s alone", n, user), func() bool {
		got = h.Privates(user, "Docs health, ")
		return len(got) >= n
	})
	texts := make([]string, len(got))
	for i, m := range got {
		texts[i] = bottest.Rendered(m)
	}
	return strings.Join(texts, "\n")
}

// generous are limits under which the tests of words are not about the
// budget: every view fits everyone's share.
var generous = bot.AnalyticsLimits{Budget: 100, PerUser: 50, PerGuest: 50, DigestReserve: 10}

// TestHealthWordsStayWithTheOrganisation: a guest asking /docs-health (the
// summary, feedback and questions) in the workspace's channel, and a person
// of another organisation asking in the channel shared with theirs, see the
// counts and the paths, why the rest is left out, and none of the readers'
// comments, searches, questions or the assistant's replies anywhere Slack
// shows them, nor a Fix with agent button; the view asked in the shared
// channel is not posted there. A member asking the same sees the words.
func TestHealthWordsStayWithTheOrganisation(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	sightWorld(h)
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{Analytics: generous}}})

	views := []string{"", "feedback", "questions"}
	for i, view := range views {
		h.Command(guest, general, health.Command, view)
		posted(h, i+1)
	}
	guestSaw := bottest.Rendered(h.Roots(general)[0]) + bottest.Rendered(h.Roots(general)[1]) + bottest.Rendered(h.Roots(general)[2])
	bottest.WantContains(t, "the guest's views", guestSaw, "shown to members of the organisation only",
		"_A search term_: searched 41 times, 0% clicked · _found nothing clicked_",
		"`/guides/webhooks`: 4 👎, 1 👍 · 3 comments · 1 code sample reported", "_A category_ (4)", "Pages viewed most")
	wantNoWords(t, "the guest", seenBy(h, guest, general, shared))

	for _, view := range views {
		h.Command(external, shared, health.Command, view)
	}
	extSaw := privateViews(h, external, len(views))
	bottest.WantContains(t, "the other organisation's views", extSaw, "shown to members of the organisation only",
		"_A search term_", "`/guides/webhooks`: 4 👎", "_A category_ (4)")
	wantNoWords(t, "the person of another organisation", seenBy(h, external, shared))
	if roots := h.Roots(shared); len(roots) != 0 {
		t.Errorf("%d docs health views posted in the channel shared with another organisation, want none: %q", len(roots), bottest.Rendered(roots[0]))
	}

	h.Command(alice, general, health.Command, "")
	memberSaw := bottest.Rendered(posted(h, len(views)+1))
	bottest.WantContains(t, "the member's summary", memberSaw, "`sso`", "The signature example doesn't work at all", "Audit logs", "How do I export audit logs?")
	if strings.Contains(memberSaw, "shown to members of the organisation only") {
		t.Errorf("the member was told the words are left out:\n%s", memberSaw)
	}
}

// TestHealthInASharedChannelGoesToTheMemberAlone: a member asking in a
// channel shared with another organisation gets the view, words and Fix
// with agent included, in their direct message with docsbot, and a private
// note in the channel; nothing is posted in the channel. Fix with agent
// works there, and its job starts in that DM's thread.
func TestHealthInASharedChannelGoesToTheMemberAlone(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	sightWorld(h)
	h.StartBot(bottest.Config{})
	m, dm := healthInDM(h, shared, "feedback", "Pages readers voted down", "The signature example doesn't work at all",
		"shared with another organisation")
	h.WaitPrivate(alice, "sent you the docs health in your messages")
	if roots := h.Roots(shared); len(roots) != 0 {
		t.Errorf("%d messages posted in the shared channel, want none: %q", len(roots), bottest.Rendered(roots[0]))
	}

	h.Act(slacktest.Action{UserID: alice, ChannelID: dm, MessageTS: m.TS, ActionID: jobdraft.ActionFixDocs})
	v := h.WaitModal(alice, agent.ViewJob)
	h.Submit(slacktest.ViewSubmission{ViewID: v.ID})
	h.WaitFor("the job in the DM's thread", func() bool { return len(h.API.Jobs()) == 1 && len(h.Slack.Thread(dm, m.TS)) > 1 })
	if roots := h.Roots(shared); len(roots) != 0 {
		t.Errorf("the job posted %d messages in the shared channel, want none", len(roots))
	}
}

// TestHealthInAChannelWithAGuestGoesToTheMemberAlone: a member asking in
// a channel of the workspace's own with a guest in it is answered as in a
// channel shared with another organisation: the view, words and Fix with
// agent included, comes in their direct message with docsbot, a private
// note in the channel says why, and nothing is posted in the channel, so
// the guest sees none of the readers' words. Asked in a channel of members
// only, the same view is posted there with its words.
func TestHealthInAChannelWithAGuestGoesToTheMemberAlone(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	sightWorld(h)
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{Analytics: generous}}})
	healthInDM(h, withGuest, "", "The signature example doesn't work at all", "`sso`",
		"which has guests or people of another organisation in it")
	h.WaitPrivate(alice, "This channel has guests or people of another organisation in it, so docsbot sent you the docs health in your messages")
	h.Idle()
	if roots := h.Roots(withGuest); len(roots) != 0 {
		t.Errorf("%d messages posted in the channel with a guest, want none: %q", len(roots), bottest.Rendered(roots[0]))
	}
	wantNoWords(t, "the guest", seenBy(h, guest, withGuest))

	h.Command(alice, general, health.Command, "")
	memberSaw := bottest.Rendered(posted(h, 1))
	bottest.WantContains(t, "the view in a channel of members only", memberSaw, "The signature example doesn't work at all", "`sso`")
}

// TestHealthDigestInAChannelWithAGuestHasNoWords: a digest due in a
// channel of the workspace's own with a guest in it is posted with the
// counts and paths only, why, and no Fix with agent button, as in a
// channel shared with another organisation; its subscription said so.
func TestHealthDigestInAChannelWithAGuestHasNoWords(t *testing.T) {
	t.Parallel()
	h, clock, cfg := digestWorld(t)
	sightWorld(h)
	h.StartBot(cfg)
	h.Command(alice, withGuest, health.Command, "digest weekly")
	waitResponse(h, alice, "in_channel", "This channel has guests or people of another organisation in it, so the digest shows counts and pages")
	clock.Advance(2*time.Minute + 30*time.Second)
	d := waitDigest(h, withGuest, "the digest in the channel with a guest")
	bottest.WantContains(t, "the digest", bottest.Rendered(d), "Weekly docs health digest", "This channel has guests or people of another organisation in it",
		"_A search term_", "`/guides/webhooks`", "_A category_")
	wantNoWords(t, "the guest", seenBy(h, guest, withGuest))
}

// TestHealthOnTheHomeOfAGuest: the Home of a guest shows the cached docs
// health's counts and why the rest is left out, none of the readers'
// words; a member's Home names the search terms and the questions'
// categories.
func TestHealthOnTheHomeOfAGuest(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	sightWorld(h)
	h.StartBot(bottest.Config{})
	h.Command(alice, general, health.Command, "")
	posted(h, 1)
	home := func(user string) string {
		if _, err := h.Slack.OpenHome(t.Context(), user); err != nil {
			t.Fatal(err)
		}
		var text string
		h.WaitFor("the Home of "+user+" with the docs health", func() bool {
			v, _ := h.Slack.HomeView(user)
			text = string(v.Blocks)
			return strings.Contains(text, "searches found nothing clicked")
		})
		return text
	}
	guestHome := home(guest)
	wantNoWords(t, "the guest's Home", guestHome)
	bottest.WantContains(t, "the guest's Home", guestHome, "2 searches found nothing clicked", "shown to members of the organisation only")
	bottest.WantContains(t, "the member's Home", home(alice), "`sso`", "Audit logs")
}

// TestWhoMayUseTheHealthDigest: the row of docs/architecture.md's "Who may
// do what" for `/docs-health digest weekly`: someone off the allow-list is
// refused in the ack; a guest, though on the list, and a person of another
// organisation are refused privately, in plain words, the refusal audited,
// and nothing is subscribed; a member subscribes, and a guest may not turn
// it off.
func TestWhoMayUseTheHealthDigest(t *testing.T) {
	t.Parallel()
	h, _, cfg := digestWorld(t)
	sightWorld(h)
	cfg.Bot.AllowedUsers = []string{alice, guest, external}
	h.StartBot(cfg)
	ack := h.Command(bob, general, health.Command, "digest weekly")
	bottest.WantContains(t, "bob's refusal", string(ack.Payload), "not on the list of people who may use docsbot")
	h.Command(guest, general, health.Command, "digest weekly")
	waitResponse(h, guest, "ephemeral", "Only members of the organisation may subscribe a channel to the docs health digest")
	h.Command(external, shared, health.Command, "digest weekly")
	waitResponse(h, external, "ephemeral", "Only members of the organisation may subscribe a channel to the docs health digest")
	h.Command(alice, general, health.Command, "digest weekly")
	waitResponse(h, alice, "in_channel", "subscribed this channel to the weekly docs health digest")
	// Nor may a guest turn a member's subscription off.
	h.Command(guest, general, health.Command, "digest off")
	waitResponse(h, guest, "ephemeral", "Only members of the organisation may turn off a channel's docs health digest")
	subs, err := h.OpenStore().HealthDigests().DigestSubs(t.Context())
	if err != nil || len(subs) != 1 || subs[0].CreatedBy != alice {
		t.Errorf("subscriptions %+v (%v), want alice's alone", subs, err)
	}
	// A refusal's record is written with the Done of its command's work,
	// which may come after the refusal is seen.
	var refused []string
	audit := h.OpenStore().AuditLog(store.AuditOptions{})
	h.WaitFor("the refusals' audit records", func() bool {
		refused = nil
		err = audit.Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
			if r.Action == store.AuditRefusal && r.User != bob {
				refused = append(refused, r.User+" "+r.Detail)
			}
			return nil
		})
		return err != nil || len(refused) >= 3
	})
	slices.Sort(refused)
	if want := []string{external + " /docs-health digest weekly", guest + " /docs-health digest off", guest + " /docs-health digest weekly"}; err != nil || !slices.Equal(refused, want) {
		t.Errorf("audited refusals %q (%v), want %q", refused, err, want)
	}
}

// TestHealthDigestInASharedChannelHasNoWords: a digest due in a channel
// shared with another organisation is posted with the counts and paths
// only, why, and no Fix with agent button; its subscription said so.
func TestHealthDigestInASharedChannelHasNoWords(t *testing.T) {
	t.Parallel()
	h, clock, cfg := digestWorld(t)
	sightWorld(h)
	h.StartBot(cfg)
	h.Command(alice, shared, health.Command, "digest weekly")
	waitResponse(h, alice, "in_channel", "This channel is shared with another organisation, so the digest shows counts and pages")
	clock.Advance(2*time.Minute + 30*time.Second)
	d := waitDigest(h, shared, "the digest in the shared channel")
	text := bottest.Rendered(d)
	bottest.WantContains(t, "the digest", text, "Weekly docs health digest", "This channel is shared with another organisation",
		"_A search term_", "`/guides/webhooks`", "_A category_")
	wantNoWords(t, "the shared channel", seenBy(h, external, shared))
}

// TestHealthShareOfAGuest: a guest's share of the analytics requests is
// DOCSBOT_ANALYTICS_PER_GUEST (5 by default), a member's
// DOCSBOT_ANALYTICS_PER_USER (20). Each view of searches over a day not
// cached draws the view's bound (DefaultMaxPages requests) and spends one,
// giving back the rest, so a share of S pays for S-(bound-1) of them; the
// next is refused, saying whose share it is, and asks the docs API nothing.
func TestHealthShareOfAGuest(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	sightWorld(h)
	h.StartBot(bottest.Config{}) // the default limits
	today := time.Now()
	asked := 0
	// views asks for one-day views of searches, each of another day, as
	// user until one is refused, and returns how many were shown and the
	// refusal.
	views := func(user string) (int, string) {
		for shown := 0; shown <= bot.DefaultAnalyticsPerUser; shown++ {
			asked++
			d := today.AddDate(0, 0, -1-asked).Format(time.DateOnly)
			roots, refusals, requests := len(h.Roots(general)), len(h.Privates(user, "share")), h.API.Count(docsapitest.EndpointSearches)
			h.Command(user, general, health.Command, "searches "+d+".."+d)
			h.WaitFor("the view of "+d+" or its refusal", func() bool {
				return len(h.Roots(general)) > roots || len(h.Privates(user, "share")) > refusals
			})
			if got := h.Privates(user, "share"); len(got) > refusals {
				if n := h.API.Count(docsapitest.EndpointSearches); n != requests {
					t.Errorf("%d requests for a view refused by the share", n-requests)
				}
				return shown, got[len(got)-1].Text
			}
		}
		t.Fatalf("%s was never refused", user)
		return 0, ""
	}
	perView := health.DefaultMaxPages - 1 // drawn beyond the one spent
	shown, refusal := views(guest)
	if want := bot.DefaultAnalyticsPerGuest - perView; shown != want {
		t.Errorf("the guest was shown %d views before a refusal, want %d", shown, want)
	}
	bottest.WantContains(t, "the guest's refusal", refusal, fmt.Sprintf("your share of %d analytics requests an hour as a guest or a person of another organisation", bot.DefaultAnalyticsPerGuest))
	shown, refusal = views(alice)
	if want := bot.DefaultAnalyticsPerUser - perView; shown != want {
		t.Errorf("the member was shown %d views before a refusal, want %d", shown, want)
	}
	bottest.WantContains(t, "the member's refusal", refusal, fmt.Sprintf("your share of %d analytics requests an hour (", bot.DefaultAnalyticsPerUser))
}

// waitDigest waits for the health digest posted in channel and returns it.
func waitDigest(h *bottest.Harness, channel, what string) slacktest.Message {
	h.T.Helper()
	var d slacktest.Message
	h.WaitFor(what, func() bool {
		for _, m := range h.Roots(channel) {
			if strings.Contains(string(m.Metadata), health.DigestEvent) {
				d = m
				return true
			}
		}
		return false
	})
	return d
}

// healthInDM has alice ask for the docs health in channel (args after the
// command) and checks that the view came to her DM alone, with its words
// (want) and a Fix with agent button: the view and the DM.
func healthInDM(h *bottest.Harness, channel, args string, want ...string) (slacktest.Message, string) {
	t := h.T
	t.Helper()
	dm, err := h.Slack.OpenDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	h.Command(alice, channel, health.Command, args)
	h.WaitFor("the view in alice's DM", func() bool { return len(h.Roots(dm)) == 1 })
	m := h.Roots(dm)[0]
	bottest.WantContains(t, "the view in the DM", bottest.Rendered(m), want...)
	if !strings.Contains(string(m.Blocks), jobdraft.ActionFixDocs) {
		t.Errorf("the view in the DM has no Fix with agent button: %s", m.Blocks)
	}
	return m, dm
}
