package bottest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
)

// Command types a slash command in a channel as a user and returns Slack's
// record of the ack.
func (h *Harness) Command(user, channel, command, text string) *slacktest.Ack {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ack, err := h.Slack.SlashCommand(ctx, slacktest.SlashCommand{Command: command, Text: text, UserID: user, ChannelID: channel})
	if err != nil {
		h.T.Fatalf("slash command %s %q: %v", command, text, err)
	}
	return ack
}

// Reply posts a person's reply in a thread.
func (h *Harness) Reply(user, channel, threadTS, text string) (ts, eventID string) {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ts, eventID, err := h.Slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: channel, UserID: user, Text: text, ThreadTS: threadTS})
	if err != nil {
		h.T.Fatalf("reply %q: %v", text, err)
	}
	return ts, eventID
}

// Post posts a person's message m, its files included, and returns its
// ts: a mention of the bot when mention (app_mention and the message
// event), else a plain message (in a DM, a channel or a thread).
func (h *Harness) Post(m slacktest.UserMessage, mention bool) string {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if mention {
		mm, err := h.Slack.Mention(ctx, m)
		if err != nil {
			h.T.Fatalf("mention %q: %v", m.Text, err)
		}
		return mm.TS
	}
	ts, _, err := h.Slack.PostUserMessage(ctx, m)
	if err != nil {
		h.T.Fatalf("post %q: %v", m.Text, err)
	}
	return ts
}

// PostNoAck posts a person's message like Reply, without waiting for the bot
// to acknowledge its event (no bot may be connected, or it may refuse).
func (h *Harness) PostNoAck(user, channel, threadTS, text string) string {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ts, _, err := h.Slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: channel, UserID: user, Text: text, ThreadTS: threadTS})
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		h.T.Fatalf("post %q: %v", text, err)
	}
	return ts
}

// Act has a person press a button or pick an option (a) and returns once
// the bot acknowledged it.
func (h *Harness) Act(a slacktest.Action) slacktest.Interaction {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in, err := h.Slack.Act(ctx, a)
	if err != nil {
		h.T.Fatalf("%s pressing %s: %v", a.UserID, a.ActionID, err)
	}
	return in
}

// BotClient is a Web API client of the fake Slack with the bot's token, to
// post as the bot would: what a replica posted before it stopped, or a
// message of another feature.
func (h *Harness) BotClient() *slack.Client {
	return slack.New(h.Slack.BotToken(), slack.OptionAPIURL(h.Slack.APIURL))
}

// Submit has a person submit an open modal (sub) and returns once the bot
// acknowledged it.
func (h *Harness) Submit(sub slacktest.ViewSubmission) slacktest.Interaction {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in, err := h.Slack.SubmitView(ctx, sub)
	if err != nil {
		h.T.Fatalf("submitting view %s: %v", sub.ViewID, err)
	}
	return in
}

// Shortcut has a person run a message shortcut (ms) and returns once the
// bot acknowledged it.
func (h *Harness) Shortcut(ms slacktest.MessageShortcut) slacktest.Interaction {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in, err := h.Slack.MessageShortcut(ctx, ms)
	if err != nil {
		h.T.Fatalf("%s running the shortcut %s: %v", ms.UserID, ms.CallbackID, err)
	}
	return in
}

// DeadReplicaWork records work of kind with payload (JSON of it) in the
// inbox under key as a replica took it and died: queued, claimed and, when
// marks are given, marked with them (store.Inbox.Mark).
func (h *Harness) DeadReplicaWork(key, kind string, payload any, marks map[string]string) {
	h.T.Helper()
	ctx := context.Background()
	st := h.OpenStore()
	body, err := json.Marshal(payload)
	if err != nil {
		h.T.Fatal(err)
	}
	if queued, err := st.Inbox().Enqueue(ctx, store.Work{Key: key, Kind: kind, Payload: body}, time.Hour); err != nil || !queued {
		h.T.Fatalf("Enqueue = %v, %v", queued, err)
	}
	// Other work due now is claimed too, for a millisecond: it comes back
	// at once.
	taken, err := st.Inbox().ClaimWork(ctx, 100, time.Millisecond)
	i := slices.IndexFunc(taken, func(t store.Taken) bool { return t.Key == key })
	if err != nil || i < 0 {
		h.T.Fatalf("ClaimWork = %v, %v; want %s among them", taken, err, key)
	}
	if marks == nil {
		return
	}
	if err := st.Inbox().Mark(ctx, taken[i], 0, marks); err != nil {
		h.T.Fatalf("Mark: %v", err)
	}
}

// OpenHome has user open docsbot's Home tab and waits until a view
// published after it shows want (in its rendered text); it returns the
// view.
func (h *Harness) OpenHome(user, want string) slacktest.View {
	h.T.Helper()
	before := -1
	if v, ok := h.Slack.HomeView(user); ok {
		before = v.Updates
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := h.Slack.OpenHome(ctx, user); err != nil {
		h.T.Fatalf("%s opening the Home: %v", user, err)
	}
	var v slacktest.View
	h.WaitFor(user+"'s Home showing "+want, func() bool {
		var ok bool
		v, ok = h.Slack.HomeView(user)
		return ok && v.Updates > before && strings.Contains(Rendered(slacktest.Message{Blocks: v.Blocks}), want)
	})
	return v
}
