package visitors_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

const bob = "U0BOB"

// lastTotals is how the summary shows the unique visitors of the range the
// project's server was last asked for, computed from its dataset.
func (ph *projectsHarness) lastTotals(name string) string {
	ph.T.Helper()
	reqs := ph.APIs[name].Requests()
	if len(reqs) == 0 {
		ph.T.Fatalf("project %s's server got no request", name)
	}
	q := reqs[len(reqs)-1].Query
	from, err1 := time.Parse(time.DateOnly, q.Get("dateFrom"))
	to, err2 := time.Parse(time.DateOnly, q.Get("dateTo"))
	if err1 != nil || err2 != nil {
		ph.T.Fatalf("request query %v", q)
	}
	return totalsText(ph.Datasets[name].Totals(from, to))
}

func totalsText(c docsapi.Counts) string {
	return "*" + humanize.Count(int64(c.Total)) + "* visitors"
}

// waitRoots waits until channel holds n messages and returns the last.
func (ph *projectsHarness) waitRoots(channel string, n int) slacktest.Message {
	ph.T.Helper()
	ph.WaitFor(fmt.Sprintf("%d messages in %s", n, channel), func() bool { return len(ph.Roots(channel)) >= n })
	roots := ph.Roots(channel)
	if len(roots) != n {
		ph.T.Fatalf("%d messages in %s, want %d", len(roots), channel, n)
	}
	return roots[n-1]
}

// waitQuestion waits for the question of which project, with its buttons,
// shown to user alone, and returns it.
func (ph *projectsHarness) waitQuestion(user string) slacktest.Message {
	ph.T.Helper()
	return ph.WaitButtons(user, visitors.ActionChooseProject)
}

// command types /docs-visitors and checks the ack is empty.
func (ph *projectsHarness) command(user, channel, text string) {
	ph.T.Helper()
	ack := ph.Command(user, channel, visitors.Command, text)
	if len(ack.Payload) > 0 && string(ack.Payload) != "null" {
		ph.T.Fatalf("ack of %q carries %s, want an empty ack", text, ack.Payload)
	}
}

// A command goes to the channel's default project, project=NAME (at the
// start or the end) overrides it and is remembered, and a channel without a
// default takes the person's last choice; each answer names its project and
// shows that project's numbers.
func TestProjectsCommandsReachTheirProject(t *testing.T) {
	t.Parallel()
	ph := newProjectsHarness(t, nil, [2]string{})
	ph.startBot(visitors.Config{})

	count := map[string]int{}
	for _, step := range []struct {
		name, user, channel, text, want string
	}{
		{"docs is #general's default", alice, general, "30d", "docs"},
		{"api is #api-docs' default", alice, apiChannel, "30d", "api"},
		{"project=api overrides #general's default", alice, general, "project=api 14d", "api"},
		{"the last choice in a channel without a default", alice, randomChannel, "7d", "api"},
		{"project=docs at the end", alice, randomChannel, "7d project=DOCS", "docs"},
		{"the new last choice", alice, randomChannel, "14d", "docs"},
		{"the channel's default for another person", bob, apiChannel, "yesterday", "api"},
	} {
		t.Run(step.name, func(t *testing.T) {
			before := ph.visitorRequests()
			ph.command(step.user, step.channel, step.text)
			count[step.channel]++
			m := ph.waitRoots(step.channel, count[step.channel])
			after := ph.visitorRequests()
			for name := range ph.APIs {
				want := before[name]
				if name == step.want {
					want++
				}
				if after[name] != want {
					t.Errorf("project %s's server got %d requests, want %d", name, after[name]-before[name], want-before[name])
				}
			}
			text := rendered(m)
			bottest.WantContains(t, "summary", text, "Unique visitors to the docs of project "+step.want+",", ph.lastTotals(step.want))
			if !strings.Contains(m.Text, "Docs visitors of project "+step.want) {
				t.Errorf("summary's text %q does not name project %s", m.Text, step.want)
			}
			// The Show trend and Improve this page buttons carry the project.
			if n := strings.Count(string(m.Blocks), `\"project\":\"`+step.want+`\"`); n < 2 {
				t.Errorf("%d buttons carry project %s, want the trend's and the pages':\n%s", n, step.want, m.Blocks)
			}
		})
	}
}

// The same range of the two projects is fetched once for each and answered
// from each project's own cache afterwards.
func TestProjectsCachesDoNotMix(t *testing.T) {
	t.Parallel()
	ph := newProjectsHarness(t, nil, [2]string{})
	ph.startBot(visitors.Config{})
	from, to := time.Date(2025, 10, 9, 0, 0, 0, 0, time.UTC), time.Date(2025, 11, 8, 0, 0, 0, 0, time.UTC)
	want := map[string]string{"docs": totalsText(ph.Datasets["docs"].Totals(from, to)), "api": totalsText(ph.Datasets["api"].Totals(from, to))}
	if want["docs"] == want["api"] {
		t.Fatalf("the two datasets have the same totals (%s): the test cannot tell them apart", want["docs"])
	}
	n := 0
	for round := range 2 {
		for _, name := range []string{"docs", "api", "docs", "api"} {
			ph.command(alice, general, "project="+name+" 30d")
			n++
			text := rendered(ph.waitRoots(general, n))
			if !strings.Contains(text, want[name]) || !strings.Contains(text, "of project "+name) {
				for _, m := range ph.Roots(general) {
					t.Logf("root %s: %s", m.TS, m.Text)
				}
				t.Fatalf("round %d: summary of %s lacks %q:\n%s\nlogs:\n%s", round, name, want[name], text, ph.Logs.String())
			}
		}
	}
	if got := ph.visitorRequests(); got["docs"] != 1 || got["api"] != 1 {
		t.Fatalf("requests %v, want one per project", got)
	}
}

// Projects with budgets of their own do not drain each other; projects
// naming one visitors_budget share it.
func TestProjectsVisitorBudgets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		budgets [2]string
		shared  bool
	}{
		{"separate", [2]string{"", ""}, false},
		{"shared", [2]string{"acme", "acme"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ph := newProjectsHarness(t, nil, tc.budgets)
			ph.startBotWith(visitors.Config{}, bot.AnalyticsLimits{Budget: 1})
			ph.command(alice, general, "30d")
			ph.waitRoots(general, 1)
			ph.command(alice, apiChannel, "30d")
			if tc.shared {
				ph.waitPrivate("docsbot has used its budget of 1 analytics requests an hour")
				ph.Settle()
				if n := len(ph.Roots(apiChannel)); n != 0 {
					t.Fatalf("%d posts in #api-docs, want none: the shared budget was spent", n)
				}
			} else {
				text := rendered(ph.waitRoots(apiChannel, 1))
				if want := ph.lastTotals("api"); !strings.Contains(text, want) {
					t.Fatalf("api's summary lacks %q:\n%s", want, text)
				}
			}
			want := map[string]int{"docs": 1, "api": 1}
			if tc.shared {
				want["api"] = 0
			}
			if got := ph.visitorRequests(); got["docs"] != want["docs"] || got["api"] != want["api"] {
				t.Fatalf("requests %v, want %v", got, want)
			}
		})
	}
}

// A project=NAME naming no project, or two, is answered privately in the
// ack with the projects there are; nothing is asked of either API.
func TestProjectsUnknownProjectAnsweredPrivately(t *testing.T) {
	t.Parallel()
	ph := newProjectsHarness(t, nil, [2]string{})
	ph.startBot(visitors.Config{})
	for _, tc := range []struct{ text, want string }{
		{"project=nope 7d", "There is no docs project `nope`. The projects are `docs`, `api`"},
		{"project=&lt;b&gt; 7d", "There is no docs project `&lt;b&gt;`."},
		{"project=docs 7d project=api", "Your command names two docs projects, `docs` and `api`: name one. The projects are `docs`, `api`."},
		{"project=nope digest weekly", "There is no docs project `nope`."},
		{"project= 7d", "Write a project name after `project=`. The projects are `docs`, `api`."},
		{"7d PROJECT=", "Write a project name after `project=`."},
	} {
		ack := ph.Command(alice, general, visitors.Command, tc.text)
		var msg struct {
			ResponseType string `json:"response_type"`
			Text         string `json:"text"`
		}
		if err := json.Unmarshal(ack.Payload, &msg); err != nil {
			t.Fatalf("ack of %q: %s: %v", tc.text, ack.Payload, err)
		}
		if msg.ResponseType != "ephemeral" || !strings.Contains(msg.Text, tc.want) {
			t.Errorf("ack of %q = %s %q, want a private answer with %q", tc.text, msg.ResponseType, msg.Text, tc.want)
		}
	}
	if ack := ph.Command(alice, randomChannel, visitors.Command, "help"); !strings.Contains(string(ack.Payload), "*Projects:* `docs`, `api`. `project=NAME`") {
		t.Errorf("help = %s, want the projects named", ack.Payload)
	}
	ph.Settle()
	if got := ph.visitorRequests(); got["docs"] != 0 || got["api"] != 0 {
		t.Fatalf("requests %v, want none", got)
	}
	if n := len(ph.Roots(general)); n != 0 {
		t.Fatalf("%d posts in #general, want none", n)
	}
	if subs, err := ph.OpenStore().Digests().DigestSubs(context.Background()); err != nil || len(subs) != 0 {
		t.Fatalf("subscriptions %+v, %v; want none", subs, err)
	}
}

// In a channel without a default, a person who never chose is asked with a
// button per project; the click runs the command in that project, says so
// where the question was, and is remembered.
func TestProjectsAskWithButtons(t *testing.T) {
	t.Parallel()
	ph := newProjectsHarness(t, nil, [2]string{})
	ph.startBot(visitors.Config{})

	ack := ph.Command(alice, randomChannel, visitors.Command, "30d top=3")
	if !strings.Contains(string(ack.Payload), "Which docs project is this for?") {
		t.Fatalf("ack = %s, want the question", ack.Payload)
	}
	question := ph.waitQuestion(alice)
	for i, name := range []string{"docs", "api"} {
		if !strings.Contains(string(question.Blocks), fmt.Sprintf(`"action_id":"%s%d"`, visitors.ActionChooseProject, i)) ||
			!strings.Contains(rendered(question), name) {
			t.Fatalf("the question lacks the button of %s:\n%s", name, question.Blocks)
		}
	}
	if got := ph.visitorRequests(); got["docs"] != 0 || got["api"] != 0 {
		t.Fatalf("requests %v before the choice, want none", got)
	}

	ph.Act(slacktest.Action{UserID: alice, ChannelID: randomChannel, MessageTS: question.TS, ActionID: visitors.ActionChooseProject + "1"})
	text := rendered(ph.waitRoots(randomChannel, 1))
	bottest.WantContains(t, "summary", text, "of project api", ph.lastTotals("api"), "*Top 3 pages by total visitors*")
	ph.WaitFor("the question replaced by the choice", func() bool {
		for _, m := range ph.Slack.Ephemerals(alice) {
			if m.TS == question.TS {
				return strings.Contains(m.Text, "Project *api* it is") && !strings.Contains(string(m.Blocks), visitors.ActionChooseProject)
			}
		}
		return false
	})

	// Remembered: the next command is not asked about.
	ph.command(alice, randomChannel, "14d")
	ph.waitRoots(randomChannel, 2)
	if got := ph.visitorRequests(); got["docs"] != 0 || got["api"] != 2 {
		t.Fatalf("requests %v, want both summaries from api", got)
	}
	// Alice's choice is hers: Bob is asked.
	if ack := ph.Command(bob, randomChannel, visitors.Command, "14d"); !strings.Contains(string(ack.Payload), "Which docs project is this for?") {
		t.Fatalf("Bob's ack = %s, want the question", ack.Payload)
	}
}

// The Show trend button of a project's summary draws that project's chart,
// from its own server and day cache.
func TestProjectsShowTrendKeepsTheProject(t *testing.T) {
	t.Parallel()
	ph := newProjectsHarness(t, nil, [2]string{})
	ph.startBot(visitors.Config{})
	ph.command(alice, general, "project=api 7d")
	sum := ph.waitRoots(general, 1)
	before := ph.visitorRequests()

	ph.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: sum.TS, ActionID: visitors.ActionShowTrend})
	// 7 days: Slack's own chart, in the summary's thread.
	ph.WaitFor("the chart", func() bool { return len(ph.ChartPosts(general)) == 1 })
	ph.Settle()
	after := ph.visitorRequests()
	if after["docs"] != before["docs"] || after["api"] <= before["api"] {
		t.Fatalf("requests %v before the chart, %v after; want the days from api alone", before, after)
	}
	c := ph.ChartPosts(general)[0]
	if title := bottest.Charts(c.Blocks)[0].Title; !strings.Contains(title, "api") || !strings.Contains(c.Text, "of project *api*") {
		t.Fatalf("chart's title %q, text %q do not name project api", title, c.Text)
	}
}

// Two projects' digests in one channel are each posted once, with their
// own numbers and the name of their project, by two replicas; a
// subscription made before projects existed keeps working as the project of
// its channel. Subscribing is audited with the project.
func TestProjectsDigestsInOneChannel(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(beforeDigest)
	ph := newProjectsHarness(t, clock.Now, [2]string{})
	ph.subscribeBefore(store.DigestSub{Team: "T0TEST", Channel: apiChannel, Frequency: "weekly", CreatedBy: bob, CreatedAt: beforeDigest.Add(-time.Hour)})
	cfg := visitors.Config{Now: clock.Now, DigestTick: 20 * time.Millisecond}
	ph.startBot(cfg)
	ph.startBot(cfg)

	ph.command(alice, general, "digest weekly")
	ph.waitInChannel("subscribed this channel to the weekly docs visitors digest of project *docs*")
	ph.command(alice, general, "project=api digest weekly")
	ph.waitInChannel("subscribed this channel to the weekly docs visitors digest of project *api*")
	ph.command(alice, general, "digest status project=api")
	ph.waitPrivate("This channel gets the weekly docs visitors digest of project *api*")

	clock.Advance(2*time.Minute + 30*time.Second)
	ph.WaitFor("three digests", func() bool { return len(ph.digestsIn(general)) >= 2 && len(ph.digestsIn(apiChannel)) >= 1 })
	ph.WaitFor("three charts", func() bool { return len(ph.Slack.Files()) >= 3 })
	ph.moreTicks(5)

	week := func(name string) string {
		return totalsText(ph.Datasets[name].Totals(time.Date(2025, 11, 3, 0, 0, 0, 0, time.UTC), time.Date(2025, 11, 10, 0, 0, 0, 0, time.UTC)))
	}
	posted := map[string]int{}
	for channel, digests := range map[string][]slacktest.Message{general: ph.digestsIn(general), apiChannel: ph.digestsIn(apiChannel)} {
		for _, m := range digests {
			text := rendered(m)
			var name string
			for _, n := range []string{"docs", "api"} {
				if strings.Contains(text, "The weekly docs visitors digest of project *"+n+"*") {
					name = n
				}
			}
			if name == "" {
				t.Fatalf("a digest in %s names no project:\n%s", channel, text)
			}
			posted[channel+" "+name]++
			if !strings.Contains(text, week(name)) || !strings.Contains(text, "Nov 3 – Nov 9, 2025") {
				t.Errorf("the digest of %s in %s lacks %q:\n%s", name, channel, week(name), text)
			}
		}
	}
	if want := map[string]int{general + " docs": 1, general + " api": 1, apiChannel + " api": 1}; fmt.Sprint(posted) != fmt.Sprint(want) {
		t.Fatalf("digests posted %v, want %v", posted, want)
	}

	// The subscription's record is written with the Done of its command's
	// work, which nothing seen in Slack follows.
	var recs []store.AuditRecord
	var err error
	audit := ph.OpenStore().AuditLog(store.AuditOptions{})
	ph.WaitFor("the audit record of api's subscription", func() bool {
		recs = nil
		err = audit.Each(context.Background(), store.AuditQuery{Project: "api"}, func(r store.AuditRecord) error {
			recs = append(recs, r)
			return nil
		})
		return err != nil || len(recs) > 0
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Action != store.AuditSettings || recs[0].Detail != "digest weekly" {
		t.Fatalf("audit records of api = %+v, want its subscription", recs)
	}
}

// digestsIn returns the bot's digest posts in channel.
func (ph *projectsHarness) digestsIn(channel string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range ph.Roots(channel) {
		if strings.Contains(string(m.Metadata), visitors.DigestEvent) {
			out = append(out, m)
		}
	}
	return out
}

// queueLegacyCommand records a /docs-visitors command's work as a replica
// did before projects existed (the command alone: the work decides the
// project), with a response_url Slack no longer takes. Call it before the
// bot starts.
func (ph *projectsHarness) queueLegacyCommand(key, user, channel, text string) {
	ph.T.Helper()
	gone := strings.TrimSuffix(ph.Slack.APIURL, "api/") + "response/" + key
	payload, err := json.Marshal(slack.SlashCommand{TeamID: "T0TEST", ChannelID: channel, UserID: user, Command: visitors.Command,
		Text: text, ResponseURL: gone, TriggerID: key})
	if err != nil {
		ph.T.Fatal(err)
	}
	w := store.Work{Key: "cmd:" + key, Kind: "visitors.summary", Payload: payload}
	if queued, err := ph.OpenStore().Inbox().Enqueue(context.Background(), w, time.Hour); err != nil || !queued {
		ph.T.Fatalf("Enqueue = %v, %v", queued, err)
	}
}

// A command whose work decides its project (the ack could not) and whose
// response_url Slack refuses is still answered privately: in the channel,
// visible to the person alone, with the question's buttons, which work;
// else, when Slack refuses that too, in a direct message that names the
// command.
func TestProjectsWorkAnswersWithoutTheResponseURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		// noEphemeral: chat.postEphemeral fails as well.
		noEphemeral bool
		want        string
		click       bool
	}{
		{name: "the question in the channel", text: "7d", want: "Which docs project is this for?", click: true},
		{name: "the question in a direct message", text: "7d", noEphemeral: true,
			want: "About your `/docs-visitors 7d` in <#" + randomChannel + ">: Which docs project is this for?"},
		{name: "an unknown project in the channel", text: "project=nope 7d", want: "There is no docs project `nope`."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ph := newProjectsHarness(t, nil, [2]string{})
			ph.queueLegacyCommand("legacy", alice, randomChannel, tc.text)
			if tc.noEphemeral {
				ph.Slack.FailNext("chat.postEphemeral", "channel_not_found", 1)
			}
			ph.startBot(visitors.Config{})
			var got slacktest.Message
			ph.WaitFor("a private answer with "+tc.want, func() bool {
				ms := ph.Slack.Ephemerals(alice)
				if tc.noEphemeral {
					ms = ph.dmsTo(alice)
				}
				for _, m := range ms {
					if strings.Contains(m.Text, tc.want) {
						got = m
						return true
					}
				}
				return false
			})
			if posts := ph.Slack.ResponsePosts(""); len(posts) != 1 || posts[0].Error == "" {
				t.Errorf("response_url posts %+v, want the refused one alone", posts)
			}
			if tc.noEphemeral && strings.Contains(string(got.Blocks), visitors.ActionChooseProject) {
				t.Errorf("the direct message carries the buttons:\n%s", got.Blocks)
			}
			if !tc.click {
				return
			}
			ph.Act(slacktest.Action{UserID: alice, ChannelID: randomChannel, MessageTS: got.TS, ActionID: visitors.ActionChooseProject + "1"})
			if text := rendered(ph.waitRoots(randomChannel, 1)); !strings.Contains(text, "of project api") || !strings.Contains(text, ph.lastTotals("api")) {
				t.Errorf("summary after the click:\n%s", text)
			}
		})
	}
}

// The project question shows the command it asks about, and the choice
// repeats it, each escaped once: what Slack escaped (&, <, >) shows as
// typed, and a backtick does not end the code span.
func TestProjectsChoiceShowsTheCommand(t *testing.T) {
	t.Parallel()
	ph := newProjectsHarness(t, nil, [2]string{})
	ph.startBot(visitors.Config{})
	typed := "7d path=/a&b<c>`d"
	shown := "`/docs-visitors 7d path=/a&amp;b&lt;c&gt;ˋd`"

	ack := ph.Command(alice, randomChannel, visitors.Command, slacktest.Escape(typed))
	if !strings.Contains(string(ack.Payload), "Which docs project") {
		t.Fatalf("ack = %s, want the question", ack.Payload)
	}
	question := ph.waitQuestion(alice)
	for _, text := range []string{question.Text, rendered(question)} {
		if !strings.Contains(text, "Which docs project is this for? "+shown) {
			t.Errorf("the question does not show the command %s:\n%s", shown, text)
		}
	}

	ph.Act(slacktest.Action{UserID: alice, ChannelID: randomChannel, MessageTS: question.TS, ActionID: visitors.ActionChooseProject + "0"})
	want := "Project *docs* it is: docsbot runs " + shown + " there."
	var choice string
	ph.WaitFor("the question replaced by the choice", func() bool {
		for _, m := range ph.Slack.Ephemerals(alice) {
			if m.TS == question.TS && strings.Contains(m.Text, "it is") {
				choice = m.Text
				return true
			}
		}
		return false
	})
	if !strings.Contains(choice, want) || strings.Contains(choice, "&amp;amp;") {
		t.Errorf("the choice says %q, want %q", choice, want)
	}
}

// progressNotesShown counts the "Counting visitors…" notes people still see.
func (h *harness) progressNotesShown() int {
	n := 0
	for _, m := range h.Slack.Ephemerals("") {
		if strings.Contains(m.Text, "Counting visitors") {
			n++
		}
	}
	return n
}

// progressNotesPosted counts the progress notes posted through response_urls.
func (h *harness) progressNotesPosted() int {
	n := 0
	for _, p := range h.Slack.ResponsePosts("") {
		if p.Error == "" && strings.Contains(p.Text, "Counting visitors") {
			n++
		}
	}
	return n
}

// A long export's progress note, in either project's channel, whatever the
// answer (a summary, a comparison, a command run by a project button), is
// gone once the answer is there; the project button's answer stays.
func TestProjectsProgressNotesDoNotOutliveTheAnswer(t *testing.T) {
	t.Parallel()
	ph := newProjectsHarnessOf(t, nil, [2]string{}, [2]int{600, 900})
	ph.startBot(visitors.Config{})
	count := map[string]int{}
	for _, step := range []struct {
		name, channel, text string
		click               bool
	}{
		{name: "docs' summary in #general", channel: general, text: "30d"},
		{name: "api's summary in #api-docs", channel: apiChannel, text: "30d"},
		{name: "api's comparison in #general", channel: general, text: "project=api 14d compare"},
		{name: "docs' summary in #api-docs", channel: apiChannel, text: "project=docs 14d"},
		{name: "a summary run by a project button", channel: randomChannel, text: "21d", click: true},
	} {
		t.Run(step.name, func(t *testing.T) {
			posted := ph.progressNotesPosted()
			if step.click {
				ph.Command(bob, step.channel, visitors.Command, step.text)
				question := ph.waitQuestion(bob)
				ph.Act(slacktest.Action{UserID: bob, ChannelID: step.channel, MessageTS: question.TS, ActionID: visitors.ActionChooseProject + "1"})
				defer func() {
					for _, m := range ph.Slack.Ephemerals(bob) {
						if m.TS == question.TS && strings.Contains(m.Text, "Project *api* it is") {
							return
						}
					}
					t.Errorf("the project button's answer is gone: %+v", ph.Slack.Ephemerals(bob))
				}()
			} else {
				ph.command(alice, step.channel, step.text)
			}
			count[step.channel]++
			ph.waitRoots(step.channel, count[step.channel])
			if n := ph.progressNotesPosted(); n != posted+1 {
				t.Fatalf("%d progress notes posted, want one more than %d: the export should take several requests", n, posted)
			}
			if n := ph.progressNotesShown(); n != 0 {
				t.Errorf("%d progress notes still shown after the answer, want none: %+v", n, ph.Slack.Ephemerals(""))
			}
		})
	}
}

// A subscription made before projects existed, in a channel with no default
// project, goes to no project: its digest is skipped, and its subscriber is
// told so once, not every period.
func TestProjectsUnservedDigestToldOnce(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(beforeDigest)
	ph := newProjectsHarness(t, clock.Now, [2]string{})
	ph.subscribeBefore(store.DigestSub{Team: "T0TEST", Channel: randomChannel, Frequency: "weekly", CreatedBy: bob, CreatedAt: beforeDigest.Add(-time.Hour)})
	ph.startBot(visitors.Config{Now: clock.Now, DigestTick: 20 * time.Millisecond})

	clock.Advance(2*time.Minute + 30*time.Second)
	ph.WaitFor("the subscriber told", func() bool { return len(ph.dmsTo(bob)) > 0 })
	text := ph.dmsTo(bob)[0].Text
	bottest.WantContains(t, "the subscriber's DM", text, "skips the weekly docs visitors digest in <#"+randomChannel+">", "no default project", "project=NAME")
	clock.Advance(7 * 24 * time.Hour)
	ph.moreTicks(5)
	if n := len(ph.dmsTo(bob)); n != 1 {
		t.Errorf("%d DMs to the subscriber over two periods, want 1", n)
	}
	if n := len(ph.digestsIn(randomChannel)); n != 0 {
		t.Errorf("%d digests posted in a channel of no project, want 0", n)
	}
}
