package bot

import (
	"context"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// register connects the router to Socket Mode the way slack-go's socketmode
// examples do: one registration per kind of envelope, each turned into the
// transport-neutral request of its registered handler, which acks it.
// Envelopes no handler claims are acked and ignored (onOther).
//
// slack-go runs each handler in a goroutine of its own; every envelope
// handler is counted among the bot's work (tracked), so that Run, asked to
// stop, waits for what a handler does after its ack (an audit record, a
// private answer) before the store closes. Handlers work under ctx; their
// acks are sent while sock, the context of the Socket Mode event loop,
// lasts (ackCtx).
func (b *Bot) register(sock, ctx context.Context, h *socketmode.SocketmodeHandler) {
	onOther := b.onOther(sock)
	for _, t := range []socketmode.EventType{
		socketmode.EventTypeConnecting, socketmode.EventTypeConnected,
		socketmode.EventTypeConnectionError, socketmode.EventTypeInvalidAuth, socketmode.EventTypeHello,
	} {
		h.Handle(t, b.onLifecycle)
	}
	h.Handle(socketmode.EventTypeSlashCommand, b.tracked(func(evt *socketmode.Event, client *socketmode.Client) {
		cmd, ok := evt.Data.(slack.SlashCommand)
		if !ok || !b.dispatchCommand(ctx, cmd, b.acker(sock, client, evt.Request)) {
			onOther(evt, client)
		}
	}))
	h.Handle(socketmode.EventTypeEventsAPI, b.tracked(func(evt *socketmode.Event, client *socketmode.Client) {
		ev, ok := evt.Data.(slackevents.EventsAPIEvent)
		last := evt.Request != nil && evt.Request.RetryAttempt >= SlackEventRetries
		if !ok || !b.dispatchEvent(ctx, ev, last, b.acker(sock, client, evt.Request)) {
			onOther(evt, client)
		}
	}))
	h.Handle(socketmode.EventTypeInteractive, b.tracked(func(evt *socketmode.Event, client *socketmode.Client) {
		ic, ok := evt.Data.(slack.InteractionCallback)
		if !ok || !b.dispatchInteraction(ctx, ic, b.acker(sock, client, evt.Request)) {
			onOther(evt, client)
		}
	}))
	h.HandleDefault(b.tracked(onOther))
}

// tracked runs handle as part of the bot's work. Once Run is stopping, an
// envelope is left unacknowledged: Slack sends an Events API event again (to
// a replica that is not stopping), but not a slash command or an
// interaction, which the person sees fail.
func (b *Bot) tracked(handle socketmode.SocketmodeHandlerFunc) socketmode.SocketmodeHandlerFunc {
	return func(evt *socketmode.Event, client *socketmode.Client) {
		if !b.work.Do(func() { handle(evt, client) }) && evt.Request != nil {
			b.log.Info("stopping: envelope left unacknowledged (Slack sends events again; a command or interaction fails for the person)",
				"envelope", evt.Request.EnvelopeID, "type", evt.Type)
		}
	}
}

// acker is the AckFunc of one Socket Mode envelope.
func (b *Bot) acker(sock context.Context, client *socketmode.Client, req *socketmode.Request) AckFunc {
	return func(payload any) { b.ack(sock, client, req, payload) }
}

// onLifecycle logs connection changes; these events carry no envelope to ack.
func (b *Bot) onLifecycle(evt *socketmode.Event, _ *socketmode.Client) {
	switch evt.Type {
	case socketmode.EventTypeConnected:
		if e, ok := evt.Data.(*socketmode.ConnectedEvent); ok {
			b.link.connected(e.ConnectionCount)
		}
		b.metrics.connected()
		b.log.Info("slack socket connected")
	case socketmode.EventTypeConnecting:
		if e, ok := evt.Data.(*slack.ConnectingEvent); ok {
			b.link.connecting(e.ConnectionCount)
		}
		b.log.Debug("slack socket connecting")
	case socketmode.EventTypeConnectionError:
		if e, ok := evt.Data.(*slack.ConnectionErrorEvent); ok {
			b.log.Warn("slack socket connection failed; retrying", "attempt", e.Attempt, "retry_in", e.Backoff, "err", e.ErrorObj)
		}
	case socketmode.EventTypeInvalidAuth:
		b.log.Error("slack refused the app-level token (SLACK_APP_TOKEN)")
	default:
		b.log.Debug("slack socket event", "type", evt.Type)
	}
}

// linkState says whether the Socket Mode connection is up. slack-go's handler
// runs each lifecycle event in its own goroutine, so events can be seen out
// of order: the state follows the connection count each event carries, not
// the order in which they arrive.
type linkState struct {
	mu                      sync.Mutex
	connectingN, connectedN int
	seen, stopped           bool
}

// connecting records that connection n is being opened (after a drop, a
// refresh or at start): the previous one is gone.
func (l *linkState) connecting(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.connectingN = max(l.connectingN, n)
}

// connected records that connection n is open.
func (l *linkState) connected(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.connectedN, l.seen = max(l.connectedN, n), true
}

// stop records that the bot closed its connection for good.
func (l *linkState) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
}

func (l *linkState) up() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seen && !l.stopped && l.connectedN >= l.connectingN
}

// onOther is the handler that acknowledges every envelope no handler
// claimed, so Slack does not send it again, and ignores it.
func (b *Bot) onOther(sock context.Context) socketmode.SocketmodeHandlerFunc {
	return func(evt *socketmode.Event, client *socketmode.Client) {
		if evt.Request != nil && evt.Request.EnvelopeID != "" {
			b.ack(sock, client, evt.Request, nil)
		}
		if evt.Type == socketmode.EventTypeSlashCommand {
			if cmd, ok := evt.Data.(slack.SlashCommand); ok {
				b.log.Warn("slash command not handled by this bot", "command", cmd.Command)
			}
		}
	}
}

// ackWait bounds how long an ack waits to be handed to slack-go's sender:
// Slack gives up on an envelope after 3 s, so a later ack is of no use.
const ackWait = 3 * time.Second

// ack sends the ack of req. slack-go queues acks for the sender of the
// event loop, which stops with sock: once it has (the bot stopping), or
// after ackWait, the ack is given up instead of waiting for ever, so that
// a handler acking late cannot hold up Run's return.
func (b *Bot) ack(sock context.Context, client *socketmode.Client, req *socketmode.Request, payload any) {
	ctx, cancel := context.WithTimeout(sock, ackWait)
	defer cancel()
	if err := client.AckCtx(ctx, req.EnvelopeID, payload); err != nil {
		b.log.Error("ack failed", "envelope", req.EnvelopeID, "err", err)
		return
	}
	b.lastAck.set(time.Now())
}

// drainSocket closes the Socket Mode connection (closeSock) once ctx has
// ended and the envelopes it brought are acknowledged: no handler runs and
// no ack was queued within ackFlush, or ackWait after ctx ended. Envelopes
// that arrive meanwhile are taken and acknowledged as usual, their work left
// to the replicas that keep running. Closing at once would leave the acks
// of work already recorded unsent, and Slack would show a slash command's
// person a timeout for a job that then runs. What Slack sends in the moment
// the connection closes is still lost: events come again, commands fail.
func (b *Bot) drainSocket(ctx, sock context.Context, closeSock context.CancelFunc) {
	select {
	case <-ctx.Done():
	case <-sock.Done():
		return
	}
	defer closeSock()
	deadline := time.Now().Add(ackWait)
	if n := b.work.busy(); n > 0 {
		b.log.Info("stopping: the Slack socket stays open until the envelopes in flight are acknowledged", "envelopes", n, "at_most", ackWait)
	}
	for {
		b.work.waitIdle(time.Until(deadline))
		// slack-go queues an ack for the connection's sender and says
		// nothing once it is written: an ack queued within ackFlush is
		// given that long to leave.
		wait := min(ackFlush-time.Since(b.lastAck.get()), time.Until(deadline))
		if wait <= 0 {
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-sock.Done():
			t.Stop()
			return
		}
		if b.work.busy() == 0 && time.Since(b.lastAck.get()) >= ackFlush {
			return
		}
	}
}

// ackFlush is how long an ack queued for slack-go's sender is given to be
// written before the connection closes on shutdown.
const ackFlush = time.Second

// instant is a time read and written by several goroutines.
type instant struct {
	mu sync.Mutex
	t  time.Time
}

func (i *instant) set(t time.Time) {
	i.mu.Lock()
	i.t = t
	i.mu.Unlock()
}

func (i *instant) get() time.Time {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.t
}

// tasks is a WaitGroup that stops taking new work once closed.
type tasks struct {
	mu     sync.Mutex
	wg     sync.WaitGroup
	closed bool
	// running counts the work under way; idle is closed (and replaced)
	// each time it falls to zero.
	running int
	idle    chan struct{}
}

// begin and end count one piece of work (Go, Do).
func (t *tasks) begin() {
	t.running++
	t.wg.Add(1)
}

func (t *tasks) end() {
	t.mu.Lock()
	t.running--
	if t.running == 0 && t.idle != nil {
		close(t.idle)
		t.idle = nil
	}
	t.mu.Unlock()
	t.wg.Done()
}

// busy is the number of pieces of work running.
func (t *tasks) busy() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.running
}

// waitIdle waits until no work runs, at most d.
func (t *tasks) waitIdle(d time.Duration) {
	t.mu.Lock()
	if t.running == 0 {
		t.mu.Unlock()
		return
	}
	if t.idle == nil {
		t.idle = make(chan struct{})
	}
	idle := t.idle
	t.mu.Unlock()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-idle:
	case <-timer.C:
	}
}

// Go runs fn unless the group is closed, and reports whether it did.
func (t *tasks) Go(fn func()) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.begin()
	go func() {
		defer t.end()
		fn()
	}()
	return true
}

// Do runs fn in the calling goroutine, counted among the group's work, unless
// the group is closed, and reports whether it did.
func (t *tasks) Do(fn func()) bool {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return false
	}
	t.begin()
	t.mu.Unlock()
	defer t.end()
	fn()
	return true
}

// closeAndWait stops taking work and waits up to d (0: without limit) for
// what runs. It reports whether everything finished.
func (t *tasks) closeAndWait(d time.Duration) bool {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	done := make(chan struct{})
	go func() { t.wg.Wait(); close(done) }()
	if d <= 0 {
		<-done
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
		return false
	}
}

// OwnOrBot reports whether a message comes from this bot (id) or any
// other bot: the bot never answers those.
func (id Identity) OwnOrBot(ev *slackevents.MessageEvent) bool {
	if ev.BotID != "" || ev.SubType == "bot_message" {
		return true
	}
	return ev.User == "" || ev.User == id.UserID
}
