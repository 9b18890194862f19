package bot

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// Socket Mode, the bot's side: the client (socketConn) hands each envelope
// to onEnvelope, which serves it in a goroutine of its own counted among the
// bot's work, so that Run, asked to stop, waits for what a handler does
// after its ack (an audit record, a private answer) before the store
// closes. serveEnvelope decodes the payload by the envelope's type (an
// Events API payload lightly: decodeEventsPayload) into the
// transport-neutral request of its registered handler, which acks it;
// envelopes no handler claims, and those that cannot be read, are acked and
// ignored.

// socketHooks are the bot's hooks on its Socket Mode client sc: lifecycle
// to the link state, metrics and logs, envelopes to serveEnvelope under
// work, the bot's work context.
func (b *Bot) socketHooks(work context.Context, sc *socketConn) socketHooks {
	return socketHooks{
		connecting: func(n, attempt int) {
			b.link.connecting(n)
			b.log.Debug("slack socket connecting", "connection", n, "attempt", attempt)
		},
		connected: func(n int) {
			b.link.connected(n)
			b.metrics.connected()
			b.log.Info("slack socket connected")
		},
		failed: func(attempt int, retryIn time.Duration, err error) {
			b.log.Warn("slack socket connection failed; retrying", "attempt", attempt, "retry_in", retryIn, "err", err)
		},
		refused: func(error) {
			b.log.Error("slack refused the app-level token (SLACK_APP_TOKEN)")
		},
		envelope: func(env *envelope) { b.onEnvelope(work, sc, env) },
	}
}

// onEnvelope serves env among the bot's work; a message event nothing reads
// (envelope.ignored) is acked at once. Once Run is stopping, an envelope is
// left unacknowledged: Slack sends an Events API event again (to
// a replica that is not stopping), but not a slash command or an
// interaction, which the person sees fail.
func (b *Bot) onEnvelope(work context.Context, sc *socketConn, env *envelope) {
	if env.ignored {
		if env.EnvelopeID != "" {
			b.ack(sc, env.EnvelopeID, nil) // nothing reads it (ignoredMessage): acked as it comes
		}
		return
	}
	if !b.work.Go(func() { b.serveEnvelope(work, sc, env) }) {
		b.log.Info("stopping: envelope left unacknowledged (Slack sends events again; a command or interaction fails for the person)",
			"envelope", env.EnvelopeID, "type", env.Type)
	}
}

// serveEnvelope decodes env and hands it to its handler under ctx; it acks
// env itself when no handler claims it.
func (b *Bot) serveEnvelope(ctx context.Context, sc *socketConn, env *envelope) {
	ack := func(payload any) { b.ack(sc, env.EnvelopeID, payload) }
	claimed := false
	switch env.Type {
	case envelopeSlashCommands:
		cmd, err := decodeSlashCommand(env.Payload)
		if err != nil {
			// The person typed a command: told, not left with nothing.
			b.log.Warn("slack sent a slash command that cannot be read; acknowledged and told", "err", err)
			ack(Ephemeral("docsbot could not read this command. Try it again; if it keeps failing, tell whoever runs docsbot (the cause is in its log)."))
			claimed = true
			break
		}
		if claimed = b.dispatchCommand(ctx, cmd, ack); !claimed {
			b.log.Warn("slash command not handled by this bot", "command", cmd.Command)
		}
	case envelopeEventsAPI:
		ev, err := decodeEventsPayload(env.Payload)
		if err != nil {
			b.log.Debug("slack event not understood; acknowledged and ignored", "err", err)
			break
		}
		if ev.Type == slackevents.AppRateLimited {
			b.log.Warn("Slack is rate limiting the events it sends this app (app_rate_limited): some events are not delivered")
		}
		claimed = b.dispatchEvent(ctx, ev, env.RetryAttempt >= SlackEventRetries, ack)
	case envelopeInteractive:
		var ic slack.InteractionCallback
		if err := json.Unmarshal(env.Payload, &ic); err != nil {
			b.log.Warn("slack sent an interaction that cannot be read; acknowledged and ignored", "err", err)
			break
		}
		claimed = b.dispatchInteraction(ctx, ic, ack)
	default:
		b.log.Debug("slack socket: an envelope of a type unknown here; acknowledged and ignored", "type", env.Type)
	}
	if !claimed && env.EnvelopeID != "" {
		ack(nil)
	}
}

// linkState says whether the Socket Mode connection is up. It follows the
// count of the connection each change is about (socketHooks), not the order
// in which changes are told, so that it stays right if they are told out of
// order.
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

// ackWait bounds how long drainSocket keeps the connection open for the
// envelopes in flight: Slack gives up on an envelope after 3 s, so a later
// ack is of no use.
const ackWait = 3 * time.Second

// ack queues the ack of an envelope for sc's writer; once sc has stopped
// (the bot stopping) it is given up, so that a handler acking late cannot
// hold up Run's return.
func (b *Bot) ack(sc *socketConn, envelopeID string, payload any) {
	if err := sc.acks.ack(envelopeID, payload); err != nil {
		b.log.Error("ack failed", "envelope", envelopeID, "err", err)
		return
	}
	b.lastAck.set(time.Now())
}

// drainSocket closes the Socket Mode connection (closeSock) once ctx has
// ended and the envelopes it brought are acknowledged: no handler runs, no
// ack waits to be written and none was queued within ackFlush, or ackWait
// after ctx ended. Envelopes that arrive meanwhile are taken and
// acknowledged as usual, their work left to the replicas that keep running.
// Closing at once would leave the acks of work already recorded unsent, and
// Slack would show a slash command's person a timeout for a job that then
// runs. What Slack sends in the moment the connection closes is still lost:
// events come again, commands fail.
func (b *Bot) drainSocket(ctx, sock context.Context, closeSock context.CancelFunc, sc *socketConn) {
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
		// An ack queued within ackFlush is given that long to leave, and
		// an envelope on its way meanwhile to be taken.
		wait := min(ackFlush-time.Since(b.lastAck.get()), time.Until(deadline))
		if sc.acks.unsent() > 0 {
			wait = min(ackPoll, time.Until(deadline))
		}
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
		if b.work.busy() == 0 && sc.acks.unsent() == 0 && time.Since(b.lastAck.get()) >= ackFlush {
			return
		}
	}
}

// ackFlush is how long the connection stays open on shutdown after the
// last ack was queued; ackPoll how often drainSocket looks again while
// acks wait to be written.
const (
	ackFlush = time.Second
	ackPoll  = 50 * time.Millisecond
)

// OwnOrBot reports whether a message comes from this bot (id) or any
// other bot: the bot never answers those.
func (id Identity) OwnOrBot(ev *slackevents.MessageEvent) bool {
	if ev.BotID != "" || ev.SubType == "bot_message" {
		return true
	}
	return ev.User == "" || ev.User == id.UserID
}
