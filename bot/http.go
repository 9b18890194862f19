package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// Mode is how Slack reaches the bot.
type Mode string

const (
	// ModeSocket opens a Socket Mode connection: no public URL needed.
	ModeSocket Mode = "socket"
	// ModeHTTP answers the signed requests Slack posts to the app's
	// request URLs (SlackHandler), behind a load balancer or ingress.
	ModeHTTP Mode = "http"
)

// The paths SlackHandler serves, the request URLs of the HTTP-mode app
// manifest.
const (
	PathEvents      = "/slack/events"
	PathCommands    = "/slack/commands"
	PathInteractive = "/slack/interactive"
)

// httpAckWait bounds how long a request waits for its handler's ack. Slack
// gives 3 s; a handler records work within acceptBudget (1.5 s).
const httpAckWait = 2500 * time.Millisecond

// serving says whether Run is serving HTTP mode's requests, and holds the
// context their handlers run in (the work context, which outlives a
// shutdown signal by the shutdown grace).
type serving struct {
	mu  sync.Mutex
	ctx context.Context
}

func (s *serving) start(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ctx = ctx
}

func (s *serving) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ctx = nil
}

// context is the handlers' context, nil when Run is not serving.
func (s *serving) context() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ctx
}

func (s *serving) up() bool { return s.context() != nil }

// SlackHandler serves HTTP mode: the Events API on PathEvents, slash
// commands on PathCommands and interactivity on PathInteractive, each
// request verified with the signing secret before it is read further. The
// requests reach the handlers registered on the router, as over Socket
// Mode, and the handler's ack is the HTTP answer: its payload is the body
// (a slash command's reply, a view_submission's response_action). An event
// whose handler returns without acking (its work could not be recorded)
// is answered 503, so Slack sends it again; the retry (X-Slack-Retry-Num)
// carries the same event_id, so the inbox drops it if the work was recorded
// after all. On Slack's last retry (EventRequest.LastDelivery) the handler
// answers the person instead. Any replica serves any request: the work goes through the
// shared inbox.
//
// Requests are refused with 503 while Run is not running.
func (b *Bot) SlackHandler() http.Handler {
	mux := http.NewServeMux()
	for path, h := range map[string]http.HandlerFunc{PathEvents: b.serveEvents, PathCommands: b.serveCommands, PathInteractive: b.serveInteractive} {
		mux.Handle("POST "+path, b.metrics.instrumentSlack(path, h))
	}
	for pattern, h := range b.routes.pages {
		mux.Handle(pattern, h)
	}
	return mux
}

// HandlePage serves h at pattern ("GET /slack/install") beside Slack's
// request URLs in HTTP mode (SlackHandler): a page people open in their
// browser, such as install mode's Add to Slack (bot/install). The pattern
// must be under /slack/. Register before Run.
func (r Router) HandlePage(pattern string, h http.Handler) {
	if _, path, _ := strings.Cut(pattern, " "); !strings.HasPrefix(path, "/slack/") {
		panic("bot: a page served beside Slack's request URLs must be under /slack/: " + pattern)
	}
	add(&r.b.routes.pages, "page", pattern, h)
}

// WithSlackHandler serves a bot's SlackHandler (its paths /slack/...)
// beside other, which serves the rest (the ops endpoint).
func WithSlackHandler(slackHandler, other http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/slack/", slackHandler)
	mux.Handle("/", other)
	return mux
}

// serveEvents answers url_verification with its challenge and hands
// event_callback events to the router.
func (b *Bot) serveEvents(w http.ResponseWriter, r *http.Request) {
	body, ok := b.verifiedBody(w, r)
	if !ok {
		return
	}
	ev, err := decodeEvent(body)
	if unknown, ok := errors.AsType[*unknownEventError](err); ok {
		// Well-formed but of an event type slack-go does not know: no
		// handler can want it, so it is acknowledged and ignored.
		b.log.Debug("slack event not understood; ignored", "type", unknown.Type, "err", unknown.Err)
		w.WriteHeader(http.StatusOK)
		return
	}
	if err != nil {
		badRequest(w, "not an Events API request")
		return
	}
	switch ev.Type {
	case slackevents.URLVerification:
		if uv, ok := ev.Data.(*slackevents.EventsAPIURLVerificationEvent); ok {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = io.WriteString(w, uv.Challenge)
			return
		}
	case slackevents.AppRateLimited:
		// Slack sends this when the app would get more than 30,000 events
		// an hour from one workspace, or answers too many deliveries
		// with errors: events are then held back or dropped.
		b.log.Warn("Slack is rate limiting the events it sends this app (app_rate_limited): some events are not delivered")
		w.WriteHeader(http.StatusOK)
		return
	}
	if n := r.Header.Get("X-Slack-Retry-Num"); n != "" {
		b.log.Debug("slack sent an event again", "event", eventID(ev), "retry", n, "reason", r.Header.Get("X-Slack-Retry-Reason"))
	}
	n, _ := strconv.Atoi(r.Header.Get("X-Slack-Retry-Num"))
	last := n >= SlackEventRetries
	b.deliver(w, r, func(ctx context.Context, ack AckFunc) bool { return b.dispatchEvent(ctx, ev, last, ack) }, nil)
}

// serveCommands hands a slash command (a form) to the router.
func (b *Bot) serveCommands(w http.ResponseWriter, r *http.Request) {
	body, ok := b.verifiedBody(w, r)
	if !ok {
		return
	}
	cmd, err := decodeCommand(r.Header.Get("Content-Type"), body)
	if err != nil {
		badRequest(w, "not a slash command")
		return
	}
	b.deliver(w, r, func(ctx context.Context, ack AckFunc) bool {
		if b.dispatchCommand(ctx, cmd, ack) {
			return true
		}
		b.log.Warn("slash command not handled by this bot", "command", cmd.Command)
		return false
	}, func(ctx context.Context, payload any) { b.answerLate(ctx, cmd, payload) })
}

// lateCommand is what a person reads when their slash command was recorded
// after Slack had stopped waiting: Slack shows them an error, yet the work
// goes on, and typing the command again would do it twice.
const lateCommand = "docsbot took longer than Slack waits to take this command, so Slack may have shown you an error, but it was recorded and is being done: no need to send it again."

// answerLate delivers, through the command's response_url, the ack a
// handler gave after the request was answered 503: its answer, or (nil: the
// work was recorded) lateCommand.
func (b *Bot) answerLate(ctx context.Context, cmd slack.SlashCommand, payload any) {
	msg, ok := payload.(*slack.WebhookMessage)
	if !ok || msg == nil {
		msg = Ephemeral(lateCommand)
	}
	if err := b.Respond(ctx, cmd, Reply(msg)); err != nil {
		b.log.Warn("a late answer to a slash command could not be delivered", "command", cmd.Command, "user", cmd.UserID, "err", err)
	}
}

// serveInteractive hands an interactive payload (the form field payload=)
// to the router.
func (b *Bot) serveInteractive(w http.ResponseWriter, r *http.Request) {
	body, ok := b.verifiedBody(w, r)
	if !ok {
		return
	}
	ic, err := decodeInteraction(r.Header.Get("Content-Type"), body)
	if err != nil {
		badRequest(w, "not an interaction payload")
		return
	}
	b.deliver(w, r, func(ctx context.Context, ack AckFunc) bool { return b.dispatchInteraction(ctx, ic, ack) }, nil)
}

// The decoding of Slack's request bodies, once their signature is checked:
// each reads a body into what the router dispatches, or fails with an error
// (a request that is not what its path takes); none panics, whatever the
// body (FuzzDecode*).
var (
	errNotEvents      = errors.New("not an Events API request")
	errNotCommand     = errors.New("not a slash command")
	errNotInteraction = errors.New("not an interaction payload")
)

// unknownEventError is a well-formed Events API request of a type slack-go
// does not read: acknowledged and ignored, not refused.
type unknownEventError struct {
	Type string
	Err  error
}

func (e *unknownEventError) Error() string {
	return fmt.Sprintf("slack event of type %q not understood: %v", e.Type, e.Err)
}
func (e *unknownEventError) Unwrap() error { return e.Err }

// decodeEvent reads the body of an Events API request (PathEvents): the
// event, an *unknownEventError for a well-formed one of a type slack-go does
// not know, or errNotEvents.
func decodeEvent(body []byte) (slackevents.EventsAPIEvent, error) {
	ev, err := decodeEventsPayload(body)
	if err == nil && ev.Type == "" {
		// slack-go reads {} (or null) as an event of no type: no
		// request Slack sends, and none a handler could want.
		return ev, fmt.Errorf("%w: no type", errNotEvents)
	}
	if err == nil {
		return ev, nil
	}
	var probe struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(body, &probe) != nil || probe.Type == "" {
		return ev, fmt.Errorf("%w: %w", errNotEvents, err)
	}
	return ev, &unknownEventError{Type: probe.Type, Err: err}
}

// decodeCommand reads the form of a slash command (PathCommands), sent
// with contentType: the command, or errNotCommand.
func decodeCommand(contentType string, body []byte) (slack.SlashCommand, error) {
	r := formRequest(contentType, body)
	cmd, err := slack.SlashCommandParse(r)
	if err != nil {
		return cmd, fmt.Errorf("%w: %w", errNotCommand, err)
	}
	if cmd.Command == "" {
		return cmd, fmt.Errorf("%w: no command", errNotCommand)
	}
	return cmd, nil
}

// decodeInteraction reads the form of an interaction (PathInteractive),
// sent with contentType: its payload= field, or errNotInteraction.
func decodeInteraction(contentType string, body []byte) (slack.InteractionCallback, error) {
	var ic slack.InteractionCallback
	r := formRequest(contentType, body)
	if err := r.ParseForm(); err != nil {
		return ic, fmt.Errorf("%w: %w", errNotInteraction, err)
	}
	if err := json.Unmarshal([]byte(r.PostForm.Get("payload")), &ic); err != nil {
		return ic, fmt.Errorf("%w: %w", errNotInteraction, err)
	}
	return ic, nil
}

// formRequest is a POST of body with contentType, for the standard
// library's form parsing.
func formRequest(contentType string, body []byte) *http.Request {
	r := &http.Request{Method: http.MethodPost, URL: &url.URL{Path: "/"}, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body))}
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	return r
}

// deliver runs dispatch (which calls the request's handler and reports
// whether one claimed it) among the bot's work, and answers the request:
// with the ack's payload as soon as the handler acks (the handler may go on
// after), 200 when no handler claims the request (acknowledged and
// ignored, as over Socket Mode), and 503 when the handler returns without
// acking, takes too long to ack, or the bot is not serving.
//
// A handler that acks after the 503 (or after the request was given up) may
// have recorded its work: late, if not nil, then gets the ack's payload, so
// that the person can be told (Slack does not send a slash command again,
// and an event sent again is dropped by its recorded key).
func (b *Bot) deliver(w http.ResponseWriter, r *http.Request, dispatch func(ctx context.Context, ack AckFunc) bool, late func(ctx context.Context, payload any)) {
	ctx := b.serving.context()
	if ctx == nil {
		unavailable(w)
		return
	}
	acked := make(chan any, 1)
	var once sync.Once
	ack := func(payload any) { once.Do(func() { acked <- payload }) }
	returned := make(chan bool, 1)
	if !b.work.Go(func() { returned <- dispatch(ctx, ack) }) {
		unavailable(w)
		return
	}
	timer := time.NewTimer(httpAckWait)
	defer timer.Stop()
	select {
	case payload := <-acked:
		b.writeAck(w, payload)
	case claimed := <-returned:
		select {
		case payload := <-acked: // acked, then returned
			b.writeAck(w, payload)
		default:
			if claimed {
				unavailable(w) // not recorded: Slack sends the event again
			} else {
				w.WriteHeader(http.StatusOK)
			}
		}
	case <-timer.C:
		b.log.Warn("slack request not acknowledged in time; answered 503", "path", r.URL.Path, "waited", httpAckWait)
		unavailable(w)
		b.afterLateAck(ctx, acked, returned, late)
	case <-r.Context().Done():
		b.afterLateAck(ctx, acked, returned, late)
	}
}

// afterLateAck waits, among the bot's work, for the ack of a request that
// was already answered, and hands its payload to late.
func (b *Bot) afterLateAck(ctx context.Context, acked <-chan any, returned <-chan bool, late func(ctx context.Context, payload any)) {
	if late == nil {
		return
	}
	b.work.Go(func() {
		select {
		case payload := <-acked:
			late(ctx, payload)
		case <-returned:
			select {
			case payload := <-acked:
				late(ctx, payload)
			default: // returned without acking: nothing was recorded
			}
		}
	})
}

// writeAck answers with an ack's payload: none (200, empty) or its JSON.
func (b *Bot) writeAck(w http.ResponseWriter, payload any) {
	if payload == nil {
		w.WriteHeader(http.StatusOK)
		return
	}
	body, err := json.Marshal(payload)
	if err != nil {
		b.log.Error("ack payload cannot be encoded; answered without it", "err", err)
		w.WriteHeader(http.StatusOK)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// unavailable answers 503: Slack sends an event again (to any replica).
func unavailable(w http.ResponseWriter) {
	http.Error(w, "docsbot cannot take this request right now", http.StatusServiceUnavailable)
}

// badRequest refuses a signed request that is not what its path takes;
// Slack is told not to send it again.
func badRequest(w http.ResponseWriter, why string) {
	w.Header().Set("X-Slack-No-Retry", "1")
	http.Error(w, why, http.StatusBadRequest)
}
