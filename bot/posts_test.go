package bot_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
)

// owners is what test owners of posts saw: each owner's claims and what
// each Do got, by owner.
type owners struct {
	mu     sync.Mutex
	claims map[string]int
	done   map[string][]bot.Post
}

func (o *owners) claimed(name string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.claims[name]++
}

func (o *owners) did(name string, p bot.Post) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done[name] = append(o.done[name], p)
}

func (o *owners) doneBy(name string) []bot.Post {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]bot.Post(nil), o.done[name]...)
}

func (o *owners) claimsOf(name string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.claims[name]
}

// postOwnersBot starts a bot whose only owners of posts are three test
// owners, registered out of order: "early" (hears "early ..." and
// "shared ...", claims only "early ..." and names a project for the
// others), "late" (hears "shared ..."), and "middle" (hears "middle ...").
// before, when set, runs before the bot starts.
func postOwnersBot(t *testing.T, reg *prometheus.Registry, before func(h *bottest.Harness)) (*bottest.Harness, *owners) {
	t.Helper()
	seen := &owners{claims: map[string]int{}, done: map[string][]bot.Post{}}
	owner := func(name string, order int, hears func(string) bool, claims func(*bot.Post) bool) bot.PostOwner {
		return bot.PostOwner{Name: name, Order: order,
			Hears: func(_ context.Context, p bot.Post) bool { return hears(p.Text) },
			Claims: func(_ context.Context, _ *bot.Work, p *bot.Post) (bool, error) {
				seen.claimed(name)
				return claims(p), nil
			},
			Do: func(_ context.Context, _ *bot.Work, p bot.Post) error {
				seen.did(name, p)
				return nil
			}}
	}
	prefix := func(words ...string) func(string) bool {
		return func(text string) bool {
			for _, w := range words {
				if strings.HasPrefix(text, w) {
					return true
				}
			}
			return false
		}
	}
	h := bottest.New(t, redisURL)
	if before != nil {
		before(h)
	}
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{Metrics: bot.NewMetrics(reg)}, Features: []string{visitors.Name},
		Register: func(b *bot.Bot) {
			routes := b.Router()
			routes.Declare(declare.Declaration{Name: "test-posts", Events: []declare.Event{
				{Name: "message.channels", Scope: declare.Scope{Name: "channels:history", Why: "test"}}}})
			routes.OwnPosts(owner("late", bot.OrderJobStart, prefix("shared"), func(*bot.Post) bool { return true }))
			routes.OwnPosts(owner("middle", bot.OrderHelpChannel, prefix("middle"), func(*bot.Post) bool { return true }))
			routes.OwnPosts(owner("early", bot.OrderCommand, prefix("early", "shared"), func(p *bot.Post) bool {
				if strings.HasPrefix(p.Text, "shared") {
					p.Project = "api"
					return false
				}
				return true
			}))
		}}})
	return h, seen
}

// TestPostsHaveOneOwner: a post is offered to the owners that hear it in
// their declared order, whatever the order they registered in; the first
// that claims it owns it, alone, once, with the project an owner before it
// named; a post nobody hears is not recorded at all.
func TestPostsHaveOneOwner(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	h, seen := postOwnersBot(t, reg, nil)
	ctx := t.Context()
	for _, text := range []string{"early bird", "middle ground", "shared thought", "nobody's chatter"} {
		if _, _, err := h.Slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: general, UserID: alice, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	h.WaitFor("the three posts owned", func() bool {
		return len(seen.doneBy("early")) == 1 && len(seen.doneBy("middle")) == 1 && len(seen.doneBy("late")) == 1
	})
	h.Idle()
	tests := []struct {
		owner, text, project string
	}{
		{"early", "early bird", ""},
		{"middle", "middle ground", ""},
		{"late", "shared thought", "api"},
	}
	for _, tt := range tests {
		got := seen.doneBy(tt.owner)
		if len(got) != 1 || got[0].Text != tt.text || got[0].Project != tt.project || got[0].User != alice {
			t.Errorf("%s did %+v, want one post %q of %s with project %q", tt.owner, got, tt.text, alice, tt.project)
		}
	}
	// "early" was offered "early bird" and "shared thought"; "late" only
	// the post "early" passed on.
	if n := seen.claimsOf("early"); n != 2 {
		t.Errorf("early was offered %d posts, want 2", n)
	}
	if n := seen.claimsOf("late"); n != 1 {
		t.Errorf("late was offered %d posts, want 1", n)
	}
	if n := workDone(t, reg, bot.WorkPost); n != 3 {
		t.Errorf("%v posts recorded and done, want 3: the chatter nobody hears is not recorded", n)
	}
}

// TestPostResumesWithItsOwner: a post whose work an earlier attempt left
// marked with its owner goes to that owner alone, with the project named
// then, without offering it to the owners before it; a post recorded by an
// earlier version (agent.reply work) is offered as any post.
func TestPostResumesWithItsOwner(t *testing.T) {
	t.Parallel()
	h, seen := postOwnersBot(t, prometheus.NewRegistry(), func(h *bottest.Harness) {
		post := map[string]any{"team": "T0TEST", "channel": general, "user": alice, "ts": "1700000000.000100", "thread_ts": "", "text": "early and shared"}
		h.DeadReplicaWork("msg:T0TEST:"+general+":1700000000.000100", bot.WorkPost, post, map[string]string{"post.owner": "late", "post.project": "web"})
		legacy := map[string]any{"team": "T0TEST", "channel": general, "user": alice, "ts": "1700000000.000200", "thread_ts": "", "text": "middle of an upgrade"}
		h.DeadReplicaWork("msg:T0TEST:"+general+":1700000000.000200", bot.LegacyWorkPost, legacy, nil)
	})
	h.WaitFor("both posts done", func() bool { return len(seen.doneBy("late")) == 1 && len(seen.doneBy("middle")) == 1 })
	h.Idle()
	if got := seen.doneBy("late")[0]; got.Text != "early and shared" || got.Project != "web" {
		t.Errorf("late resumed %+v, want the post with the project web", got)
	}
	if n := seen.claimsOf("early"); n != 0 {
		t.Errorf("early was offered %d posts, want none: the marked owner alone resumes, and the legacy post is not early's", n)
	}
	if got := seen.doneBy("middle")[0]; got.Text != "middle of an upgrade" {
		t.Errorf("middle did %+v, want the legacy post", got)
	}
}

// TestPostOfAnOwnerElsewhereWaits: a post marked with an owner this replica
// does not have (claimed by a replica of another version during a rolling
// update) is left to another replica, not dropped: it stays in the inbox.
func TestPostOfAnOwnerElsewhereWaits(t *testing.T) {
	t.Parallel()
	h, seen := postOwnersBot(t, prometheus.NewRegistry(), func(h *bottest.Harness) {
		post := map[string]any{"team": "T0TEST", "channel": general, "user": alice, "ts": "1700000000.000300", "text": "early, from a newer version"}
		h.DeadReplicaWork("msg:T0TEST:"+general+":1700000000.000300", bot.WorkPost, post, map[string]string{"post.owner": "newer"})
	})
	h.WaitLogged("post claimed by an owner this replica does not have; left to another replica", 1)
	n, err := h.OpenStore().Inbox().Queued(t.Context())
	if err != nil || n != 1 {
		t.Errorf("inbox holds %d, %v; want the post still queued for another replica", n, err)
	}
	if c := seen.claimsOf("early"); c != 0 || len(seen.doneBy("early")) != 0 {
		t.Errorf("early was offered the post (%d claims): a marked post goes to its owner alone", c)
	}
}

// workDone is docsbot_inbox_work_total{kind,outcome="done"} in reg.
func workDone(t *testing.T, reg *prometheus.Registry, kind string) float64 {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != "docsbot_inbox_work_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["kind"] == kind && labels["outcome"] == "done" {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}
