package bot_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/store"
)

// lookups is a bot.Workspaces that serves every workspace with one client of
// the fake Slack and remembers the workspaces it was asked for.
type lookups struct {
	client *slack.Client
	mu     sync.Mutex
	asked  []bot.Workspace
}

func (l *lookups) Client(_ context.Context, ws bot.Workspace) *slack.Client {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asked = append(l.asked, ws)
	return l.client
}

// Identity is not asked outside install mode: the bot is who auth.test says.
func (l *lookups) Identity(context.Context, bot.Workspace) (bot.Identity, bool) {
	return bot.Identity{}, false
}

// Unserved is not asked outside install mode.
func (l *lookups) Unserved(context.Context, bot.Workspace) string { return "" }

func (l *lookups) seen() []bot.Workspace {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]bot.Workspace(nil), l.asked...)
}

// TestWorkNamesItsWorkspace: a slash command's work is recorded for the
// workspace it came from, the work it queues is for the same workspace, and
// each handler's Slack calls go through the lookup of that workspace
// (SlackIn); work recorded before work named its workspace is the one
// workspace's (zero), served all the same.
func TestWorkNamesItsWorkspace(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	ws := &lookups{client: h.BotClient()}
	type did struct {
		kind string
		ws   bot.Workspace
	}
	var mu sync.Mutex
	var done []did
	var core *bot.Bot
	doIt := func(kind string, next string) bot.WorkHandler {
		return bot.WorkHandler{Do: func(ctx context.Context, w *bot.Work) error {
			mu.Lock()
			done = append(done, did{kind, w.Workspace})
			mu.Unlock()
			if _, _, err := core.SlackIn(ctx).PostMessageContext(ctx, general, slack.MsgOptionText(kind, false)); err != nil {
				return err
			}
			if next != "" {
				_, err := core.QueueFromWork(ctx, store.Work{Key: next + ":" + w.Key, Kind: next, Payload: []byte("{}")})
				return err
			}
			return nil
		}}
	}
	legacy := store.Work{Key: "cmd:written-before", Kind: "test.second", Payload: []byte("{}")}
	if _, err := h.OpenStore().Inbox().Enqueue(t.Context(), legacy, time.Hour); err != nil {
		t.Fatal(err)
	}
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{Workspaces: ws}, Features: []string{visitors.Name},
		Register: func(b *bot.Bot) {
			core = b
			b.Router().HandleCommand("/docs-ws", func(ctx context.Context, r *bot.CommandRequest) {
				b.QueueCommand(ctx, r, "test.first", struct{}{}, "nothing was done")
			})
			b.Router().HandleWork("test.first", doIt("test.first", "test.second"))
			b.Router().HandleWork("test.second", doIt("test.second", ""))
		}}})
	if _, _, err := h.Slack.SendSlashCommand(t.Context(), slacktest.SlashCommand{Command: "/docs-ws", UserID: alice, ChannelID: general}); err != nil {
		t.Fatal(err)
	}
	h.WaitFor("three pieces of work done", func() bool { mu.Lock(); defer mu.Unlock(); return len(done) == 3 })
	h.Idle()
	team := bot.Workspace{Team: "T0TEST"}
	want := map[string]int{"test.first T0TEST": 1, "test.second T0TEST": 1, "test.second ": 1}
	got := map[string]int{}
	for _, d := range done {
		got[d.kind+" "+d.ws.String()]++
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("work done %v, want %v", got, want)
			break
		}
	}
	asked := map[bot.Workspace]int{}
	for _, w := range ws.seen() {
		asked[w]++
	}
	if asked[team] != 2 || asked[bot.Workspace{}] != 1 {
		t.Errorf("Slack clients looked up for %v, want the command's workspace twice and the one workspace once", asked)
	}
}
