package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/install"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// Settings of the sandbox that are not flags.
const (
	// sandboxBotToken and sandboxAppToken are what the fake Slack accepts.
	// They are made up: the fake never talks to Slack.
	sandboxBotToken = "xoxb-sandbox"
	sandboxAppToken = "xapp-sandbox"
	// sandboxUser is the person the page acts as by default: Alice, a
	// member of the workspace.
	sandboxUser = "U0ALICE"
	// sandboxGuest is Gus, a multi-channel guest of the workspace, and
	// sandboxPartner Pat of Partner Co, another organisation (Slack
	// Connect), in #partner-shared only: the page can act as either.
	sandboxGuest   = "U0GUS"
	sandboxPartner = "U0PAT"
	// partnerTeam is Partner Co's workspace, partnerChannel #partner-shared,
	// the channel the workspace shares with it.
	partnerTeam    = "T0PARTNER"
	partnerChannel = "C0PARTNER"
	// otherTeam is Other Co, a second company whose workspace has not
	// added docsbot yet: olive, its admin, adds it from the page with the
	// real install flow (install by link), in #other-general.
	otherTeam    = "T0OTHERCO"
	otherChannel = "C0OTHERCO"
	otherUser    = "U0OLIVE"
	// The made-up credentials of the sandbox's Slack app (install by link).
	sandboxClientID      = "1000000000.2000000000"
	sandboxClientSecret  = "sandbox-client-secret"
	sandboxSigningSecret = "0123456789abcdef0123456789abcdef"
	// sandboxTeam is the sandbox's own workspace.
	sandboxTeam = "T0SANDBOX"
	// sandboxSeed fixes the made-up visitor data, so every run shows the same site.
	sandboxSeed = 1
	// sandboxKeyPrefix is where the sandbox keeps its keys in a REDIS_URL Redis.
	sandboxKeyPrefix = "docsbot:sandbox:"
	// sandboxConnectWait bounds the wait for the bot to serve Slack's requests.
	sandboxConnectWait = 15 * time.Second
	// sandboxStopWait bounds the wait for each part to stop.
	sandboxStopWait = 5 * time.Second
	// sandboxDigestDelay is how long after the sandbox starts its digests
	// come due (then every day, or every week, at that time), so that a
	// channel subscribed right away sees its digest in a couple of minutes.
	sandboxDigestDelay = 2 * time.Minute
	// sandboxDigestTick is how often the sandbox looks for owed digests.
	sandboxDigestTick = 5 * time.Second
	// sandboxDeltaDelay is the wait between two pieces of an answer of the
	// sandbox's assistant: slow enough to see it stream.
	sandboxDeltaDelay = 150 * time.Millisecond
)

// The docs projects the sandbox serves, each on a docs API test server of
// its own: "docs", the default of #general and #docs-team, and "api", a
// smaller site, the default of #api-docs.
const (
	docsProject = "docs"
	apiProject  = "api"
	// helpChannel is #help, whose questions docsbot answers without a
	// mention (auto); the docs team are its experts.
	helpChannel = "C0HELP"
	// privateHelpChannel is #help-private, whose questions docsbot answers
	// to the asker alone, with Share in channel (private).
	privateHelpChannel = "C0HELPPRIVATE"
	docsTeam           = "S0DOCSTEAM"
	// apiChannel is #api-docs, the api project's default channel.
	apiChannel = "C0APIDOCS"
	// apiProjectID and apiKey are the api project's on its test server.
	apiProjectID = "proj_sandbox_api"
	apiKey       = "mint_sandbox_api_key_000000000"
	// apiSeed fixes the api project's made-up visitors, unlike the docs'.
	apiSeed = 2
	// Other Co's own docs, which olive connects from docsbot's Home once
	// she added docsbot: the project's id and keys on its test server,
	// shown to her in #other-general (test keys, nothing real).
	otherProjectID    = "proj_otherco"
	otherKey          = "mint_sandbox_otherco_key_0000"
	otherAssistantKey = "mint_dsc_sandbox_otherco_0000"
	otherDomain       = "otherco"
	otherSeed         = 3
)

// Options are the settings of one sandbox.
type Options struct {
	// addr is where the page is served, such as "localhost:3000".
	Addr string
	// agentTime is how long the fake agent's jobs stay active at least.
	AgentTime time.Duration
	// paths is the number of pages of the made-up docs site.
	Paths int
	// redisURL is the Redis to use; "" runs the embedded one.
	RedisURL string
	// pollInterval and pollMax are the bot's poll schedule.
	PollInterval, PollMax time.Duration
	Log                   *slog.Logger
}

// sandbox is a running sandbox: the fake Slack, the docs API test server, the
// store, the bot and the page. Stop it with close.
type Sandbox struct {
	// url is the page's address.
	url   string
	slack *slacktest.Server
	// api serves the docs project, apiDocs the api project, otherDocs
	// Other Co's docs.
	api, apiDocs, otherDocs *docsapitest.Server
	mini                    *miniredis.Miniredis // nil with REDIS_URL
	store                   *store.Store
	// cleanup deletes the sandbox's keys in a REDIS_URL Redis; nil otherwise.
	cleanup func(ctx context.Context) error
	log     *slog.Logger

	stopBot context.CancelFunc
	botDone chan struct{}
	botErr  error
	// requests serves the bot's Slack request URLs and install pages
	// (HTTP mode), at requestsURL.
	requests    *http.Server
	requestsURL string
	bot         *bot.Bot
	web         *http.Server
	stopWeb     context.CancelFunc
	webDone     chan struct{}
	webErr      error
	closeOnce   sync.Once
	closeErr    error
}

// URL is the address of the page.
func (sb *Sandbox) URL() string { return sb.url }

// Start starts every part of a sandbox and returns once the bot is
// connected and the page is served. On error, what was started is stopped.
func Start(ctx context.Context, o Options) (sb *Sandbox, err error) {
	sb = &Sandbox{log: o.Log}
	defer func() {
		if err != nil {
			_ = sb.Close()
			sb = nil
		}
	}()
	// The page's address is the one a person chose: fail first if it is taken.
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return sb, fmt.Errorf("cannot serve the page on %s: %w", o.Addr, err)
	}
	defer func() {
		if err != nil {
			_ = ln.Close()
		}
	}()

	// The bot takes Slack's requests over HTTP (install by link needs it):
	// its address first, for the fake Slack to deliver to.
	botLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return sb, fmt.Errorf("cannot serve the bot's requests: %w", err)
	}
	sb.requestsURL = "http://" + botLn.Addr().String()
	sb.slack = sandboxSlack(sb.requestsURL)
	// The docs project's assistant answers from a made-up site, its text
	// a little at a time, so that the page shows it streaming.
	if sb.api, err = startAPI(o, o.Paths, sandboxSeed, docsapitest.WithDeltaDelay(sandboxDeltaDelay)); err != nil {
		return sb, err
	}
	if sb.apiDocs, err = startAPI(o, max(o.Paths/4, 1), apiSeed, docsapitest.WithProjectID(apiProjectID), docsapitest.WithKey(apiKey)); err != nil {
		return sb, err
	}
	if sb.otherDocs, err = startAPI(o, max(o.Paths/4, 1), otherSeed, docsapitest.WithProjectID(otherProjectID), docsapitest.WithKey(otherKey),
		docsapitest.WithAssistantKey(otherAssistantKey), docsapitest.WithDomain(otherDomain)); err != nil {
		return sb, err
	}
	if err := sb.openStore(ctx, o.RedisURL); err != nil {
		return sb, err
	}

	secretsKey := make([]byte, store.SealKeySize)
	_, _ = rand.Read(secretsKey)
	if err := sb.installSandboxWorkspace(ctx, secretsKey); err != nil {
		_ = botLn.Close()
		return sb, err
	}
	digests := digestSchedule(time.Now())
	b, err := sb.newBot(o, digests, secretsKey)
	if err != nil {
		_ = botLn.Close()
		return sb, err
	}
	sb.bot = b
	sb.requests = &http.Server{Handler: b.SlackHandler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = sb.requests.Serve(botLn) }()
	botCtx, stopBot := context.WithCancel(context.WithoutCancel(ctx))
	sb.stopBot, sb.botDone = stopBot, make(chan struct{})
	go func() {
		defer close(sb.botDone)
		sb.botErr = b.Run(botCtx)
	}()
	if err := sb.waitConnected(ctx); err != nil {
		return sb, err
	}

	sb.serveWeb(ctx, o, ln, digests)
	sb.url = pageURL(o.Addr, ln.Addr())
	return sb, nil
}

// newBot is the sandbox's bot: its two docs projects on the fake docs APIs
// (started by Start), every feature, and the fake Slack, with digests on
// the schedule digests.
func (sb *Sandbox) newBot(o Options, digests digest.Schedule, secretsKey []byte) (*bot.Bot, error) {
	projects, err := project.New(
		project.Project{Name: docsProject, ID: sb.api.ProjectID, APIKey: project.NewSecret(sb.api.Key), KeyFrom: "the sandbox",
			APIURL: sb.api.URL, Channels: []string{"C0GENERAL", "C0DOCSTEAM", partnerChannel, helpChannel, privateHelpChannel}, Teams: []string{sandboxTeam},
			Assistant: project.Assistant{Key: project.NewSecret(sb.api.AssistantKey), Domain: sb.api.Domain,
				DiscoveryURL: sb.api.DiscoveryURL, SiteURL: "https://" + sandboxSiteHost + "/"}},
		project.Project{Name: apiProject, ID: sb.apiDocs.ProjectID, APIKey: project.NewSecret(sb.apiDocs.Key), KeyFrom: "the sandbox",
			APIURL: sb.apiDocs.URL, Channels: []string{apiChannel}, Teams: []string{sandboxTeam}},
	)
	if err != nil {
		return nil, fmt.Errorf("the sandbox's projects: %w", err)
	}
	slackOpts := append([]slack.Option{slack.OptionAPIURL(sb.slack.APIURL)}, bot.SlackOptions(nil)...)
	client := slack.New("", slackOpts...)
	return app.New(app.Config{
		// A share of 40 lets the sandbox's `30d chart` draw every day from
		// a cold cache (31 requests); guests keep the default share of 5.
		// Install mode: the sandbox's workspace installed at start, Other Co
		// adding docsbot from the page.
		Bot: bot.Config{Logger: o.Log, Projects: projects, SlackHost: bot.SlackHostOf(sb.slack.APIURL), Analytics: bot.AnalyticsLimits{Budget: bot.DefaultAnalyticsBudget,
			PerUser: 40, PerGuest: bot.DefaultAnalyticsPerGuest, DigestReserve: bot.DefaultAnalyticsDigestReserve},
			Mode: bot.ModeHTTP, SigningSecret: sandboxSigningSecret, InstallMode: true},
		Install: install.Config{ClientID: sandboxClientID, ClientSecret: sandboxClientSecret, PublicURL: sb.requestsURL,
			APIURL: sb.slack.APIURL, SecretsKeys: [][]byte{secretsKey}},
		// The docs a workspace connects from the Home (Other Co's) are
		// reached on Other Co's test server.
		Connect:  app.Connect{APIURL: sb.otherDocs.URL, DiscoveryURL: sb.otherDocs.DiscoveryURL},
		Agent:    agent.Config{PollInterval: o.PollInterval, PollMaxInterval: o.PollMax},
		Visitors: visitors.Config{Digest: digests, DigestTick: sandboxDigestTick},
		Health:   health.Config{Digest: digests, DigestTick: sandboxDigestTick},
		Ask:      ask.Config{RequestsChannel: "C0DOCSTEAM"},
		Help: helpchannels.Config{Channels: map[string]string{helpChannel: bot.ModeAuto, privateHelpChannel: bot.ModePrivate},
			Experts: roles.Editors{Groups: []string{docsTeam}}},
	}, app.Deps{Slack: client, Store: sb.store, SlackOptions: slackOpts, APIOptions: []docsapi.Option{docsapi.WithLogger(o.Log)}})
}

// installSandboxWorkspace saves the sandbox workspace's installation, as if
// it had added docsbot by link before: its token the fake Slack's.
func (sb *Sandbox) installSandboxWorkspace(ctx context.Context, secretsKey []byte) error {
	sealer, err := store.NewSealer(secretsKey)
	if err != nil {
		return err
	}
	_, err = sb.store.Installations(sealer).Save(ctx, store.Installation{
		Workspace: store.Workspace{Team: sandboxTeam}, TeamName: "docsbot sandbox", BotToken: sandboxBotToken,
		BotUserID: sb.slack.BotUserID(), BotID: "B0BOT", InstalledBy: sandboxUser, InstalledAt: time.Now(), Issued: time.Now(),
	})
	if err != nil {
		return fmt.Errorf("the sandbox workspace's installation: %w", err)
	}
	return nil
}

// AddToSlackURL is where olive of Other Co adds docsbot to her workspace:
// signed in to the fake Slack as her, then docsbot's install page.
func (sb *Sandbox) AddToSlackURL() string {
	return sb.slack.SignInURL(otherTeam, otherUser, sb.requestsURL+install.PathInstall)
}

// serveWeb serves the sandbox's page on ln until Close (stopWeb): the fake
// Slack's web client, with the sandbox's people, commands and intro.
func (sb *Sandbox) serveWeb(ctx context.Context, o Options, ln net.Listener, digests digest.Schedule) {
	webCtx, stopWeb := context.WithCancel(context.WithoutCancel(ctx))
	sb.stopWeb, sb.webDone = stopWeb, make(chan struct{})
	sb.web = &http.Server{
		Handler: slackweb.New(sb.slack,
			slackweb.WithPeople(sandboxPeople()...),
			slackweb.WithWorkspace("docsbot sandbox"),
			slackweb.WithCommands(sandboxCommands()...),
			slackweb.WithShortcuts(sandboxShortcuts()...),
			slackweb.WithIntro(sandboxIntro(o.Paths, digests)),
			slackweb.WithWelcomes(sandboxWelcomes(digests, sb.AddToSlackURL())),
			slackweb.WithReactions(sandboxReactions()...),
			slackweb.WithConnected(sb.bot.Connected),
			slackweb.WithLogger(o.Log)),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return webCtx },
	}
	go func() {
		defer close(sb.webDone)
		if err := sb.web.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			sb.webErr = err
		}
	}()
}

// sandboxSiteHost is the host of the docs project's made-up site: its
// answers' sources link there, and links to it are unfurled.
const sandboxSiteHost = docsapitest.DefaultDomain + ".mintlify.app"

// sandboxSlack starts the sandbox's fake Slack: its workspace, channels
// and people; the app has Slack's AI surface (the pane, the
// docs site's links unfurled), as its manifest asks.
func sandboxSlack(requestsURL string) *slacktest.Server {
	sl := slacktest.NewServer(
		slacktest.WithAddr("127.0.0.1:0"),
		slacktest.WithBotToken(sandboxBotToken),
		slacktest.WithAppToken(sandboxAppToken),
		slacktest.WithTeam(sandboxTeam, "docsbot-sandbox"),
		slacktest.WithUnfurlDomains(sandboxSiteHost),
		slacktest.WithHTTPDelivery(requestsURL, sandboxSigningSecret),
		slacktest.WithOAuth(sandboxClientID, sandboxClientSecret),
	)
	// Other Co: a workspace of its own, where docsbot is not installed yet.
	sl.AddWorkspace(slacktest.Workspace{Team: otherTeam, Name: "Other Co", Domain: "other-co"})
	sl.AddMember(otherTeam, otherUser, "olive")
	sl.AddChannel(slacktest.Channel{ID: otherChannel, Name: "other-general", BotMember: true, Team: otherTeam})
	// The people who see less: a guest, in #random and #help, and a person
	// of another organisation in the channel shared with it.
	sl.AddGuest(sandboxGuest, "gus", false)
	sl.AddExternalUser(sandboxPartner, "pat", partnerTeam)
	withGus := []string{sandboxUser, "U0BOB", sandboxGuest}
	sl.AddChannel(slacktest.Channel{ID: "C0DOCSTEAM", Name: "docs-team", BotMember: true})
	sl.AddChannel(slacktest.Channel{ID: "C0RANDOM", Name: "random", Members: withGus})
	sl.AddChannel(slacktest.Channel{ID: apiChannel, Name: "api-docs", BotMember: true})
	sl.AddChannel(slacktest.Channel{ID: partnerChannel, Name: "partner-shared", BotMember: true, Shared: true,
		Members: []string{sandboxUser, sandboxPartner}})
	sl.AddChannel(slacktest.Channel{ID: helpChannel, Name: "help", BotMember: true, Members: withGus})
	sl.AddChannel(slacktest.Channel{ID: privateHelpChannel, Name: "help-private", BotMember: true})
	sl.AddUserGroup(docsTeam, sandboxUser)
	sl.SetUserGroupHandle(docsTeam, "docs-team")
	return sl
}

// openStore opens the embedded store, or the Redis at redisURL under a key
// prefix of this run's own.
func (sb *Sandbox) openStore(ctx context.Context, redisURL string) error {
	if redisURL == "" {
		m := miniredis.NewMiniRedis()
		if err := m.StartAddr("127.0.0.1:0"); err != nil {
			return fmt.Errorf("start the embedded store: %w", err)
		}
		// Keys expire on the wall clock, as in Redis (miniredis freezes TTLs by default).
		m.ClockTTL(true)
		sb.mini = m
		st, err := store.Open(ctx, "redis://"+m.Addr()+"/0")
		if err != nil {
			return fmt.Errorf("open the embedded store: %w", err)
		}
		sb.store = st
		return nil
	}
	prefix := sandboxKeyPrefix + randomID() + ":"
	st, err := store.Open(ctx, redisURL, store.WithPrefix(prefix))
	if err != nil {
		return fmt.Errorf("cannot reach Redis at %s: %w", store.RedactURL(redisURL), err)
	}
	sb.store = st
	sb.cleanup = func(ctx context.Context) error {
		if _, err := st.DeletePrefix(ctx, prefix); err != nil {
			return fmt.Errorf("delete the sandbox's keys: %w", err)
		}
		return nil
	}
	sb.log.Info("sandbox state kept in Redis", "redis", store.RedactURL(redisURL), "prefix", prefix)
	return nil
}

// waitConnected waits until the bot serves Slack's requests.
func (sb *Sandbox) waitConnected(ctx context.Context) error {
	wctx, cancel := context.WithTimeout(ctx, sandboxConnectWait)
	defer cancel()
	stopped := func() bool {
		select {
		case <-sb.botDone:
			return true
		default:
			return false
		}
	}
	// Run serves Slack's requests moments after it starts; nothing the
	// fake Slack sees tells when, so the bot is asked every few
	// milliseconds.
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	var err error
	for err == nil && !sb.bot.Connected() && !stopped() {
		select {
		case <-wctx.Done():
			err = wctx.Err()
		case <-tick.C:
		}
	}
	switch {
	case stopped():
		if sb.botErr == nil {
			return errors.New("the bot stopped before it connected")
		}
		return fmt.Errorf("the bot did not start: %w", sb.botErr)
	case err != nil:
		return fmt.Errorf("the bot did not serve the fake Slack's requests within %v: %w", sandboxConnectWait, err)
	}
	return nil
}

// Wait runs until ctx ends (nil) or a part of the sandbox stops (its error).
func (sb *Sandbox) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case <-sb.botDone:
		if sb.botErr == nil {
			return errors.New("the bot stopped")
		}
		return fmt.Errorf("the bot stopped: %w", sb.botErr)
	case <-sb.webDone:
		if sb.webErr == nil {
			return errors.New("the page server stopped")
		}
		return fmt.Errorf("the page server stopped: %w", sb.webErr)
	}
}

// Close stops the page, then the bot, then what the bot used. It returns the
// first problem met; calling it again returns the same.
func (sb *Sandbox) Close() error {
	sb.closeOnce.Do(func() {
		var errs []error
		if sb.web != nil {
			sb.stopWeb() // ends the event streams, which Shutdown would wait for
			sctx, cancel := context.WithTimeout(context.Background(), sandboxStopWait)
			if err := sb.web.Shutdown(sctx); err != nil {
				_ = sb.web.Close()
			}
			cancel()
			<-sb.webDone
		}
		if sb.stopBot != nil {
			sb.stopBot()
			<-sb.botDone
			if sb.botErr != nil {
				errs = append(errs, fmt.Errorf("bot: %w", sb.botErr))
			}
		}
		if sb.requests != nil {
			_ = sb.requests.Close()
		}
		if sb.store != nil {
			if sb.cleanup != nil {
				cctx, cancel := context.WithTimeout(context.Background(), sandboxStopWait)
				if err := sb.cleanup(cctx); err != nil {
					errs = append(errs, err)
				}
				cancel()
			}
			if err := sb.store.Close(); err != nil {
				errs = append(errs, err)
			}
		}
		if sb.mini != nil {
			sb.mini.Close()
		}
		for _, api := range []*docsapitest.Server{sb.api, sb.apiDocs, sb.otherDocs} {
			if api != nil {
				api.Close()
			}
		}
		if sb.slack != nil {
			sb.slack.Close()
		}
		sb.closeErr = errors.Join(errs...)
	})
	return sb.closeErr
}

// pageURL is the address to open: the host asked for (localhost when it was
// left open) and the port actually used.
func pageURL(addr string, actual net.Addr) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = ""
	}
	_, port, _ := net.SplitHostPort(actual.String())
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func randomID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// digestSchedule is the sandbox's digest time: sandboxDigestDelay after
// now, on the minute, in UTC.
func digestSchedule(now time.Time) digest.Schedule {
	due := now.UTC().Add(sandboxDigestDelay + time.Minute - 1).Truncate(time.Minute)
	return digest.Schedule{Weekday: due.Weekday(), Hour: due.Hour(), Minute: due.Minute(), Location: time.UTC}
}

// sandboxCommands are the slash commands the page offers: those the
// features declare (app.Declarations), as Slack shows them, with their
// examples and those that make the sandbox's fakes fail (faultExamples).
func sandboxCommands() []slackweb.Command {
	var out []slackweb.Command
	for _, c := range app.Declarations().Commands() {
		out = append(out, slackweb.Command{Name: c.Name, Hint: c.UsageHint, Description: c.Description,
			Examples: append(slices.Clone(c.Examples), faultExamples()[c.Name]...)})
	}
	return out
}

// faultExamples are the examples of a command, by name, that make the
// sandbox's test docs API fail: a job that fails or changes nothing, a
// preview whose build fails.
func faultExamples() map[string][]string {
	return map[string][]string{
		agent.Command: {
			agent.Command + " Document the rate limits " + docsapitest.KeywordFail,
			agent.Command + " Fix the typos in the changelog " + docsapitest.KeywordNoChange,
		},
		deploy.Command: {deploy.Command + " preview fix/" + docsapitest.KeywordDeployFail + "-build"},
	}
}

// sandboxShortcuts are the message shortcuts the features declare.
func sandboxShortcuts() []slackweb.Shortcut {
	var out []slackweb.Shortcut
	for _, s := range app.Declarations().Shortcuts() {
		out = append(out, slackweb.Shortcut{CallbackID: s.CallbackID, Name: s.Name, Description: s.Description})
	}
	return out
}

// sandboxReactions are the reactions docsbot acts on, which a message's
// Add reaction menu on the page offers.
func sandboxReactions() []slackweb.Reaction {
	return []slackweb.Reaction{
		{Name: "question", Description: "docsbot answers from the docs in its thread"},
		{Name: "memo", Description: "an editor is offered a docs job"},
	}
}

// sandboxPeople are whom the page can act as, Alice by default.
func sandboxPeople() []slackweb.Person {
	return []slackweb.Person{
		{ID: sandboxUser, About: "member"},
		{ID: sandboxGuest, About: "guest"},
		{ID: sandboxPartner, About: "Partner Co, another organisation"},
		{ID: otherUser, About: "Other Co, no docsbot yet"},
	}
}

// sandboxWelcomes are the few lines at the beginning of each channel, in
// mrkdwn: what to try there. The page puts the whole intro and the
// commands one click away.
func sandboxWelcomes(digests digest.Schedule, addToSlack string) map[string]string {
	return map[string]string{
		"C0GENERAL": "*Welcome to the docsbot sandbox*: the real docsbot, against a fake Slack and docs API on this machine.\n" +
			"Try `@docsbot add a quickstart` to start a docs job, `" + ask.Command + " How do I rotate an API key?` or `" + visitors.Command + " 30d chart`.\n" +
			fmt.Sprintf("Digests come due at %02d:%02d UTC: `%s digest daily` before then shows one.", digests.Hour, digests.Minute, visitors.Command),
		"C0DOCSTEAM": "The docs team's channel: questions the docs don't answer land here for the editors.\n" +
			"Try `" + health.Command + "` for what to fix in the docs, then *Fix with agent*.",
		"C0RANDOM": "docsbot has not joined #random: type `" + ask.Command + " How do I rotate an API key?` to see what it says.",
		apiChannel: "Commands here go to the `" + apiProject + "` docs project, a smaller site.\n" +
			"Try `" + visitors.Command + " 7d` or `@docsbot add a page about webhooks`.",
		partnerChannel: "Shared with Partner Co (Slack Connect): as alice, `" + health.Command + "` is answered to you alone.\n" +
			"Switch to *pat* under *You are* to see what another organisation sees.",
		helpChannel: "docsbot answers questions here without a mention, in their thread (`auto`).\n" +
			"Ask `How do I rotate an API key?`, then press *Ask an expert* under the answer.",
		privateHelpChannel: "docsbot answers questions here to the asker alone (`private`).\n" +
			"Ask `How do I log in with SSO?`, then press *Share in channel* to post the answer for everyone.",
		otherChannel: "Other Co's own workspace, which has not added docsbot yet: its commands here are told so.\n" +
			"As *olive*, <" + addToSlack + "|Add docsbot to Other Co> runs the real install (Slack's consent screen, faked). " +
			"Then open docsbot's *Home*: as its installer olive may *Connect docs*, with Other Co's test project: API key `" + otherKey + "`, project ID `" + otherProjectID +
			"`, assistant key `" + otherAssistantKey + "`, docs domain `" + otherDomain + "`. Then try `" + ask.Command + " How do I rotate an API key?` here.",
		"": "Write an instruction to docsbot to start a docs job, or ask it a question about the docs.",
	}
}

// sandboxIntro is the text of the page's help panel, in mrkdwn: everything
// to try in the sandbox.
func sandboxIntro(paths int, digests digest.Schedule) string {
	return strings.Join([]string{
		"*This is the docsbot sandbox.* The bot here is the real docsbot, taking Slack's requests over HTTP from a fake Slack " +
			"that runs on this machine (two workspaces: this one, and Other Co, which adds docsbot by link from #other-general), with a test docs API and an embedded store. Nothing leaves your machine.",
		"• Mention `@docsbot` with an instruction, or use `" + agent.Command + " <instruction>`: docsbot keeps one live status " +
			"of the job in its thread, then posts the result with a *View pull request* button, a *Follow up* button and 👍/👎. " +
			"The fake agent works for a few seconds.",
		"• Reply in a job's thread (or press *Follow up*) to send the agent a follow-up. In a thread that is not a job, " +
			"`@docsbot document this` starts a job with the thread as context.",
		"• A message's ⋮ menu has *Send to docs agent*; *docsbot* under Apps has the Home tab and a Messages tab where any message starts a job.",
		"• `" + ask.Command + " <question>` answers from the docs of `" + docsProject + "` (a made-up product, Acme), streamed into a thread with its " +
			"sources; reply there to go on. A mention that ends with `?` is a question too. *The docs don't answer this* under an answer " +
			"makes it a docs job, or sends it to #docs-team for the editors.",
		"• *+* beside a message box attaches files: a screenshot with a question goes to the docs assistant (the answer says it looked at it), " +
			"a log or Markdown file with an instruction goes to the agent as quoted text; docsbot tells you privately what it did not send.",
		"• `" + deploy.Command + "` asks first, then, when you press *Deploy*, deploys the made-up site and shows it in one message until it ends; `" + deploy.Command +
			" preview BRANCH` builds a preview (a branch with the word `" + docsapitest.KeywordDeployFail + "` in it fails, to show the logs).",
		"• `" + health.Command + "` shows what to fix in the made-up docs: a search for SSO that finds nothing, a webhooks page with angry comments " +
			"and a wrong code sample, unanswered questions about audit logs; *Fix with agent* starts a job with the evidence.",
		"• Put `" + docsapitest.KeywordFail + "`, `" + docsapitest.KeywordNoChange + "` or `" + docsapitest.KeywordArchive +
			"` in an instruction or a follow-up to make the job fail, finish without changes, or be archived.",
		fmt.Sprintf("• `%s 30d` sums up the visitors of a made-up docs site of %d pages, with human and AI traffic; "+
			"add `chart`, `compare` or `csv` for a daily chart, a comparison with the 30 days before, or a file.", visitors.Command, paths),
		fmt.Sprintf("• `%s digest daily` and `%s digest weekly` subscribe a channel to their digests. In the sandbox digests come due at %02d:%02d UTC, "+
			"a couple of minutes after it started (then daily, or weekly): subscribe before then to see one posted.", visitors.Command, health.Command, digests.Hour, digests.Minute),
		"• docsbot serves two docs projects, each with its own test docs API: `" + docsProject + "`, the default in #general and #docs-team, " +
			"and `" + apiProject + "`, a smaller site, the default in #api-docs. Add `project=" + apiProject + "` (or `project=" + docsProject +
			"`) at the start or the end of a command to choose; the Home tab lists them. " +
			"Other Co (#other-general, as olive) adds docsbot by link and connects docs of its own from the *Settings* of docsbot's Home.",
		"• #help answers questions without a mention (`" + ask.Command + " here` shows how a channel is answered; `" + ask.Command +
			" here auto|private|mention|off` changes it): ask `How do I rotate an API key?` there and the answer comes in its thread, " +
			"with *Ask an expert*, which calls the docs team; a question the docs do not cover (`Why is the coffee machine broken?`) is answered " +
			"to you alone, with *Ask an expert* and *Make this a docs job*.",
		"• #help-private answers questions to the asker alone (`private`): ask `How do I rotate an API key?` there, then press " +
			"*Share in channel* under the answer to post it in the question's thread for everyone.",
		"• docsbot has joined #general, #docs-team, #api-docs, #help and #help-private, not #random: try a command there too.",
		"• *Who sees what.* Under *You are* in the sidebar, use the workspace as someone else: *gus*, a guest of the workspace, " +
			"who is only in #help and #random, or *pat* of Partner Co, another organisation (Slack Connect), who is only in #partner-shared. " +
			"Guests and other organisations never see the words of the docs' readers (comments, searches, questions) or the assistant's " +
			"replies: as gus, `" + health.Command + "` shows counts and pages only, and `" + agent.Command + " add a page` is refused. " +
			"#partner-shared is shared with Partner Co, and gus is in #help: there, as alice, `" + health.Command +
			"` is answered to you alone, and a docs link shows no views or votes.",
	}, "\n")
}
