package slacktest

import (
	"log/slog"
	"time"
)

// Option configures a Server created by NewServer.
type Option func(*config)

// config holds the settings a Server is created with; it does not change afterwards.
type config struct {
	botToken   string
	appToken   string
	teamID     string
	teamDomain string
	botUserID  string
	botID      string
	botName    string
	appID      string
	ping       time.Duration
	redelivery time.Duration
	addr       string
	echo       bool
	respUses   int
	respTTL    time.Duration
	logger     *slog.Logger
	// envelopes is how many acknowledged envelopes the server remembers.
	envelopes int
	// postRate and postBurst are the per-channel posting limit (WithPostLimit).
	postRate  float64
	postBurst int
	// now is the clock of trigger expiry, post and method limits (WithClock).
	now        func() time.Time
	triggerTTL time.Duration
	// scopes are the bot token's scopes (WithScopes).
	scopes []string
	// methodLimits are the per-method rate limits (WithMethodLimit).
	methodLimits map[string]methodLimit
	// http configures delivery over HTTP instead of Socket Mode (WithHTTPDelivery).
	http httpConfig
	// unfurlDomains are the app's unfurl domains (WithUnfurlDomains);
	// assistantView is set for an app with the older assistant view
	// (WithAssistantView) rather than the agent view.
	unfurlDomains []string
	assistantView bool
	// oauth is the app's install by link (WithOAuth, WithTokenRotation).
	oauth oauthConfig
}

func defaultConfig() config {
	return config{
		botToken:   "xoxb-test-bot-token",
		appToken:   "xapp-test-app-token",
		teamID:     "T0TEST",
		teamDomain: "docsbot-test",
		botUserID:  "U0BOT",
		botID:      "B0BOT",
		botName:    "docsbot",
		appID:      "A0DOCSBOT",
		ping:       2 * time.Second,
		redelivery: 3 * time.Second,
		addr:       "127.0.0.1:0",
		echo:       true,
		respUses:   5,
		respTTL:    30 * time.Minute,
		logger:     slog.New(slog.DiscardHandler),
		envelopes:  envelopeHistory,
		now:        time.Now,
		triggerTTL: triggerTTL,
		scopes:     DefaultScopes(),
		http:       defaultHTTPConfig(),
	}
}

// WithBotToken sets the bot token (xoxb-) the Web API accepts. Default "xoxb-test-bot-token".
func WithBotToken(t string) Option { return func(c *config) { c.botToken = t } }

// WithAppToken sets the app-level token (xapp-) apps.connections.open accepts.
// Default "xapp-test-app-token".
func WithAppToken(t string) Option { return func(c *config) { c.appToken = t } }

// WithTeam sets the workspace id and domain. Default "T0TEST", "docsbot-test".
func WithTeam(id, domain string) Option {
	return func(c *config) { c.teamID, c.teamDomain = id, domain }
}

// WithBot sets the bot's user id and bot id. Default "U0BOT", "B0BOT".
func WithBot(userID, botID string) Option {
	return func(c *config) { c.botUserID, c.botID = userID, botID }
}

// WithAppID sets the app id sent in payloads and hello. Default "A0DOCSBOT".
func WithAppID(id string) Option { return func(c *config) { c.appID = id } }

// WithPingInterval sets how often each Socket Mode connection receives a WebSocket
// PING frame. Default 2s; 0 disables pings, which makes slack-go reconnect once its
// own ping interval passes.
func WithPingInterval(d time.Duration) Option { return func(c *config) { c.ping = d } }

// WithRedelivery sets how long an events_api envelope may stay unacknowledged
// before it is sent again with retry_attempt 1..3 and retry_reason "timeout".
// Events pending on a connection that goes away are sent again at once to another
// connection. Default 3s; 0 disables both. Slash commands are never resent
// automatically (Slack shows the user a timeout instead); Redeliver resends any envelope.
func WithRedelivery(after time.Duration) Option { return func(c *config) { c.redelivery = after } }

// WithAddr sets the listen address. Default "127.0.0.1:0" (a free port).
func WithAddr(addr string) Option { return func(c *config) { c.addr = addr } }

// WithEchoBotMessages sets whether the bot's own posts and edits come back as
// message events, as they do from Slack when the app subscribes to
// message.channels. Default true.
func WithEchoBotMessages(on bool) Option { return func(c *config) { c.echo = on } }

// WithResponseURLLimits sets how many posts a slash command's response_url accepts
// and for how long. Default 5 posts within 30 minutes, as on Slack.
func WithResponseURLLimits(uses int, ttl time.Duration) Option {
	return func(c *config) { c.respUses, c.respTTL = uses, ttl }
}

// WithLogger sets where the server logs connection and delivery events. Default: discarded.
// Tokens are never logged.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }
