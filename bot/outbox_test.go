package bot

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store/redistest"
)

// editGate holds every chat.update (or the calls of method, when set) the
// bot sends at its HTTP transport until the test releases them, so that an
// edit stays in flight for as long as the test needs, however slowly the
// test itself runs.
type editGate struct {
	method  string        // "" for chat.update
	arrived chan struct{} // one value per held call reaching the gate
	release chan struct{} // closed by open: every held call goes on
	once    sync.Once
}

func (g *editGate) open() { g.once.Do(func() { close(g.release) }) }

// roundTrip holds a chat.update until the gate opens, then sends it.
func (g *editGate) roundTrip(r *http.Request) (*http.Response, error) {
	method := g.method
	if method == "" {
		method = "chat.update"
	}
	if strings.HasSuffix(r.URL.Path, "/"+method) {
		select {
		case g.arrived <- struct{}{}:
		default:
		}
		select {
		case <-g.release:
		case <-r.Context().Done():
			return nil, r.Context().Err()
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// waitArrival waits until a chat.update reaches the gate.
func (g *editGate) waitArrival(t *testing.T) {
	t.Helper()
	select {
	case <-g.arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("no chat.update reached Slack's door after 10s")
	}
}

// gatedBot is a bot on a fake Slack whose calls of method ("" for
// chat.update) wait at the gate until the test opens it.
func gatedBot(t *testing.T, method string) (*slacktest.Server, *Bot, *editGate) {
	t.Helper()
	s := slacktest.NewServer()
	t.Cleanup(s.Close)
	g := &editGate{method: method, arrived: make(chan struct{}, 16), release: make(chan struct{})}
	t.Cleanup(g.open) // a test that failed early lets its calls go
	client := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL),
		slack.OptionHTTPClient(&http.Client{Transport: roundTripFunc(g.roundTrip)}))
	return s, New(Config{Logger: slog.New(slog.DiscardHandler)}, client, WorkStore{}), g
}

// heldEdits is a bot on a fake Slack whose chat.update requests wait at the
// gate until the test opens it, and a message of the bot's ("state 0") to
// edit.
func heldEdits(t *testing.T) (*slacktest.Server, *Bot, string, *editGate) {
	t.Helper()
	s, b, g := gatedBot(t, "")
	_, ts, err := b.slack.PostMessageContext(t.Context(), "C0GENERAL", slack.MsgOptionText("state 0", false))
	if err != nil {
		t.Fatal(err)
	}
	return s, b, ts, g
}

// TestEditsCoalesce asks for ten edits of one message while the first is in
// flight: only the first and the last reach Slack.
func TestEditsCoalesce(t *testing.T) {
	s, b, ts, gate := heldEdits(t)
	edit := func(i int) {
		b.Edit(t.Context(), "C0GENERAL", ts, Plain{slack.MsgOptionText(fmt.Sprintf("state %d", i), false)}, b.log)
	}
	edit(1)
	gate.waitArrival(t) // state 1 is in flight
	for i := 2; i <= 10; i++ {
		edit(i)
	}
	gate.open()
	b.work.closeAndWait(0)
	calls := s.Calls("chat.update")
	if len(calls) != 2 || calls[0].Params["text"] != "state 1" || calls[1].Params["text"] != "state 10" {
		var texts []string
		for _, c := range calls {
			texts = append(texts, c.Params["text"])
		}
		t.Fatalf("chat.update calls %q, want just state 1 and state 10", texts)
	}
	if m, ok := s.Message("C0GENERAL", ts); !ok || m.Text != "state 10" {
		t.Fatalf("message shows %q, want the latest state", m.Text)
	}
}

// TestEditNowDropsTheWaitingEdit asks for a background edit while another is
// in flight, then edits the message at once: the waiting edit, older than
// the one made at once, never reaches Slack.
func TestEditNowDropsTheWaitingEdit(t *testing.T) {
	s, b, ts, gate := heldEdits(t)
	b.Edit(t.Context(), "C0GENERAL", ts, Plain{slack.MsgOptionText("state 1", false)}, b.log)
	gate.waitArrival(t) // state 1 is in flight
	b.Edit(t.Context(), "C0GENERAL", ts, Plain{slack.MsgOptionText("state 2", false)}, b.log)
	if !b.editWaiting("C0GENERAL", ts) {
		t.Fatal("state 2 is not waiting behind state 1")
	}
	done := make(chan error, 1)
	go func() { done <- b.EditNow(t.Context(), "C0GENERAL", ts, Plain{slack.MsgOptionText("final", false)}) }()
	// EditNow drops the waiting edit, then waits for the one in flight.
	redistest.Until(t, "EditNow dropping the waiting edit", func() bool { return !b.editWaiting("C0GENERAL", ts) })
	select {
	case <-gate.arrived:
		t.Fatal("EditNow went to Slack while an edit of the message was in flight")
	default:
	}
	gate.open()
	if err := <-done; err != nil {
		t.Fatalf("EditNow: %v", err)
	}
	b.work.closeAndWait(0)
	var texts []string
	for _, c := range s.Calls("chat.update") {
		texts = append(texts, c.Params["text"])
	}
	if len(texts) != 2 || texts[0] != "state 1" || texts[1] != "final" {
		t.Fatalf("chat.update calls %q, want state 1 (in flight) and final, not the waiting state 2", texts)
	}
}

// editWaiting says whether an edit of the message waits behind one in
// flight.
func (b *Bot) editWaiting(channel, ts string) bool {
	b.out.mu.Lock()
	defer b.out.mu.Unlock()
	p, busy := b.out.edits[channel+"/"+ts]
	return busy && p.next != nil
}

// TestFirstPostGoesFirst holds a post in a channel at Slack's door, then
// asks for three more there, the second a first post (FirstPost), and
// gives up a fourth while it waits: once the door opens, the first post
// goes before the two others, which keep their order, and the one given
// up never reaches Slack.
func TestFirstPostGoesFirst(t *testing.T) {
	s, b, g := gatedBot(t, "chat.postMessage")
	const channel = "C0GENERAL"
	var posts sync.WaitGroup
	post := func(ctx context.Context, text string) {
		posts.Go(func() { _, _ = b.Post(ctx, channel, Plain{slack.MsgOptionText(text, false)}) })
	}
	waiting := func(first, rest int) {
		t.Helper()
		redistest.Until(t, fmt.Sprintf("%d first posts and %d others waiting", first, rest), func() bool {
			f, r := b.postsWaiting(channel)
			return f == first && r == rest
		})
	}
	post(t.Context(), "A")
	g.waitArrival(t) // A holds the channel's turn
	post(t.Context(), "B")
	waiting(0, 1)
	post(FirstPost(t.Context()), "C")
	waiting(1, 1)
	post(t.Context(), "D")
	waiting(1, 2)
	given, giveUp := context.WithCancel(t.Context())
	post(given, "E")
	waiting(1, 3)
	giveUp()
	waiting(1, 2)
	g.open()
	posts.Wait()
	var texts []string
	for _, c := range s.Calls("chat.postMessage") {
		texts = append(texts, c.Params["text"])
	}
	if strings.Join(texts, " ") != "A C B D" {
		t.Fatalf("posts reached Slack in the order %q, want A C B D", texts)
	}
	if f, r := b.postsWaiting(channel); f != 0 || r != 0 {
		t.Errorf("%d first posts and %d others still waiting", f, r)
	}
}

// postsWaiting is how many first posts and other posts wait for channel's
// turn.
func (b *Bot) postsWaiting(channel string) (first, rest int) {
	b.out.mu.Lock()
	defer b.out.mu.Unlock()
	if q := b.out.channels[channel]; q != nil {
		return len(q.first), len(q.rest)
	}
	return 0, 0
}
