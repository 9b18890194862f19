package config

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slackid"
	"github.com/docsbot/docsbot/bot/unfurl"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// The settings of docsbot, by variable. Operators and the deploy files rely
// on these names.
const (
	EnvAPIURL          = "DOCS_API_URL"
	EnvAPIKey          = "DOCS_API_KEY"
	EnvProject         = "DOCS_PROJECT_ID"
	EnvProjectsFile    = "DOCSBOT_PROJECTS_FILE"
	EnvAssistantKey    = "DOCS_ASSISTANT_KEY"
	EnvDomain          = "DOCS_DOMAIN"
	EnvDiscoveryURL    = "DOCS_DISCOVERY_URL"
	EnvSiteURL         = "DOCS_SITE_URL"
	EnvAskPerUser      = "DOCSBOT_ASK_PER_USER"
	EnvAskPerGuest     = "DOCSBOT_ASK_PER_GUEST"
	EnvAskBudget       = "DOCSBOT_ASK_BUDGET"
	EnvLinkDomains     = "DOCSBOT_LINK_DOMAINS"
	EnvDeployPerUser   = "DOCSBOT_DEPLOY_PER_USER"
	EnvRequestsChannel = "DOCSBOT_REQUESTS_CHANNEL"
	EnvAnswerChannels  = "DOCSBOT_ANSWER_CHANNELS"
	EnvAutoPerChannel  = "DOCSBOT_AUTO_PER_CHANNEL"
	EnvExperts         = "DOCSBOT_EXPERTS"
	EnvExpertReminder  = "DOCSBOT_EXPERT_REMINDER"
	EnvExpertCallsUser = "DOCSBOT_EXPERT_CALLS_PER_USER"
	EnvExpertCallsChan = "DOCSBOT_EXPERT_CALLS_PER_CHANNEL"
	EnvSlackBotToken   = "SLACK_BOT_TOKEN"
	EnvSlackAppToken   = "SLACK_APP_TOKEN"
	EnvSlackAPIURL     = "SLACK_API_URL"
	EnvSlackMode       = "DOCSBOT_SLACK_MODE"
	EnvSigningSecret   = "SLACK_SIGNING_SECRET"
	EnvClientID        = "SLACK_CLIENT_ID"
	EnvClientSecret    = "SLACK_CLIENT_SECRET"
	EnvPublicURL       = "DOCSBOT_PUBLIC_URL"
	EnvSecretsKey      = "DOCSBOT_SECRETS_KEY"
	EnvTeams           = "DOCSBOT_TEAMS"
	EnvRedisURL        = "REDIS_URL"
	EnvRedisPrefix     = "DOCSBOT_REDIS_PREFIX"
	EnvPollInterval    = "DOCSBOT_POLL_INTERVAL"
	EnvPollMaxInterval = "DOCSBOT_POLL_MAX_INTERVAL"
	EnvAllowedUsers    = "DOCSBOT_ALLOWED_USERS"
	EnvAllowedChannels = "DOCSBOT_ALLOWED_CHANNELS"
	EnvAllowGuests     = "DOCSBOT_ALLOW_GUESTS"
	EnvAllowExternal   = "DOCSBOT_ALLOW_EXTERNAL"
	EnvEditors         = "DOCSBOT_EDITORS"
	EnvAdmins          = "DOCSBOT_ADMINS"
	EnvAuditText       = "DOCSBOT_AUDIT_TEXT"
	EnvAuditRetention  = "DOCSBOT_AUDIT_RETENTION"
	EnvVisitorsTTL     = "DOCSBOT_VISITORS_CACHE_TTL"
	EnvVisitorsBudget  = "DOCSBOT_VISITORS_BUDGET" // deprecated: EnvAnalyticsBudget
	EnvAnalyticsBudget = "DOCSBOT_ANALYTICS_BUDGET"
	EnvAnalyticsUser   = "DOCSBOT_ANALYTICS_PER_USER"
	EnvAnalyticsGuest  = "DOCSBOT_ANALYTICS_PER_GUEST"
	EnvDigestReserve   = "DOCSBOT_ANALYTICS_DIGEST_RESERVE"
	EnvFileMaxBytes    = "DOCSBOT_FILE_MAX_BYTES"
	EnvFileMaxCount    = "DOCSBOT_FILE_MAX_COUNT"
	EnvFileTextMax     = "DOCSBOT_FILE_TEXT_MAX"
	EnvUnfurlAnalytics = "DOCSBOT_UNFURL_ANALYTICS_PER_HOUR"
	EnvDigestTime      = "DOCSBOT_DIGEST_TIME"
	EnvHTTPAddr        = "DOCSBOT_HTTP_ADDR"
	EnvOpsAddr         = "DOCSBOT_OPS_ADDR"
	EnvLogFormat       = "DOCSBOT_LOG_FORMAT"
	EnvLogLevel        = "DOCSBOT_LOG_LEVEL"
)

// Table is the one table of docsbot's settings, in the order the help and
// the README list them. A new setting is one row here, with its check. The flags, their help, the usage lists and
// where a value is looked for (settings.Source) all come from it, and the
// tests keep the README's table and deploy/.env.example in step with it.
// Common marks the docs API's settings, which every subcommand that calls
// the API takes; the others are the bot's (serve, doctor).
func Table() settings.Table { return table(new(Serve)) }

// table is Table whose typed settings are read into c: the check of each
// parses its value once and stores it in c, most in c.Config, the one
// app.Config `docsbot serve` builds its replica with (settings.Var), so that
// Serve reads no value twice and drops no error.
func table(c *Serve) settings.Table {
	return settings.Table{
		{Env: EnvAPIURL, Flag: "api-url", Default: "https://api.mintlify.com", Common: true, Doc: "Base URL of the docs platform API"},
		{Env: EnvAPIKey, Flag: "api-key", None: "required without a projects file or `DOCSBOT_SECRETS_KEY`", Secret: true, Common: true, Doc: "Admin API key (`mint_…`) from the API keys page of the dashboard"},
		{Env: EnvProject, Flag: "project", None: "required without a projects file or `DOCSBOT_SECRETS_KEY`", Common: true, Doc: "Project id from the same page; with a projects file, `--project` names one of its projects"},
		{Env: EnvProjectsFile, Flag: "projects-file", None: "one project", Common: true, Doc: "YAML file of the docs projects docsbot serves (`deploy/projects.example.yaml`), each with its id and where its key is; replaces `DOCS_PROJECT_ID` and `DOCS_API_KEY`"},
		{Env: EnvAssistantKey, None: "answers from the docs off", Secret: true, Doc: "Assistant key (`mint_dsc_…`) from the API keys page of the dashboard: with `DOCS_DOMAIN` it turns on the answers from the docs (`/docs-ask`); with a projects file, each project's `assistant_key_env` instead", Check: checkAssistantKey},
		{Env: EnvDomain, None: "required with DOCS_ASSISTANT_KEY", Doc: "The docs site's domain the assistant answers for: the last part of the dashboard's URL `app.mintlify.com/ORG/DOMAIN`; with a projects file, each project's `domain`",
			Check: settings.Must(project.ValidDomain, "is not a docs domain: write the last part of the dashboard's URL app.mintlify.com/ORG/DOMAIN (not a URL, not a key)")},
		{Env: EnvDiscoveryURL, Default: docsapi.DefaultDiscoveryURL, Doc: "Base URL of the discovery API the assistant answers through; a project of the projects file may name its own `discovery_url`",
			Check: httpsURL(" must not contain credentials: the assistant takes only the key in "+EnvAssistantKey, "docsbot sends the assistant key to it")},
		{Env: EnvSiteURL, None: "sources without links", Doc: "The public docs site, such as `https://docs.example.com`, that the sources of an answer link to and whose links are unfurled; with a projects file, each project's `site_url`",
			Check: httpsURL(" must not contain credentials: it is the public docs site", "the sources of answers link people to it")},
		{Env: EnvAskPerUser, Default: strconv.Itoa(ask.DefaultPerUser), Doc: "Questions an hour one person may ask the docs", Check: wholeNumber(&c.Ask.PerUser, 1, "questions")},
		{Env: EnvAskPerGuest, Default: strconv.Itoa(ask.DefaultPerGuest), Doc: "Questions an hour a guest or a person of another organisation may ask the docs, instead of `DOCSBOT_ASK_PER_USER`", Check: wholeNumber(&c.Ask.PerGuest, 1, "questions")},
		{Env: EnvAskBudget, Default: strconv.Itoa(ask.DefaultBudget), Doc: "Questions an hour the whole workspace may ask the docs, all replicas together (each costs assistant credits); past it a question is refused, privately, saying when to ask again", Check: wholeNumber(&c.Ask.Budget, 1, "questions")},
		{Env: EnvLinkDomains, None: "links to the docs site only", Doc: "Comma-separated host names, such as `example.com,status.example.com`, that answers may link to besides the docs site (`DOCS_SITE_URL`, each project's `site_url`); a host allows its subdomains too. Any other address in an answer shows as code, not a link",
			Check: linkDomainsVar(&c.Ask.LinkDomains)},
		{Env: EnvDeployPerUser, Default: strconv.Itoa(deploy.DefaultPerUser), Doc: "Deployments and previews an hour one person may start with `/docs-deploy`, counted across replicas (the docs platform's own limits, for the whole organisation, apply besides)", Check: wholeNumber(&c.Deploy.PerUser, 1, "deployments and previews")},
		{Env: EnvRequestsChannel, None: "no Ask the docs team button", Doc: "Channel id (`C…` or `G…`) where *Ask the docs team*, under an answer, posts a question the docs did not answer",
			Check: settings.Must(isRequestsChannel, "is not a channel id: copy the id (C… or G…) from the channel's details, not its name")},
		{Env: EnvAnswerChannels, None: "every channel: mention", Doc: "Comma-separated `channel:mode` pairs, such as `C123:auto,C456:private`, that say how docsbot answers questions in those channels: `auto` answers every question in its thread without a mention, `private` shows the answer to its asker alone with *Share in channel*, `mention` only when asked, `off` not at all; `/docs-ask here MODE` in a channel overrides it",
			Check: settings.Var(&c.Help.Channels, helpchannels.ParseChannels, "is not a list of channel:mode pairs: write C123:auto,C456:private with channel ids (C… or G…) and the modes auto, private, mention or off")},
		{Env: EnvAutoPerChannel, Default: strconv.Itoa(helpchannels.DefaultPerChannel), Doc: "Questions an hour one channel is answered without a mention (`auto`, `private`), all replicas together; past it a question gets 👀 and nothing else, and the Home says so", Check: wholeNumber(&c.Help.PerChannel, 1, "answers")},
		{Env: EnvExperts, None: "no Ask an expert button", Doc: "Comma-separated Slack user ids and user group ids (`S…`) that *Ask an expert*, under a help channel's answer, calls to the question's thread (a project's `experts` in the projects file are called besides)", Check: editorsVar(&c.Help.Experts, EnvExperts)},
		{Env: EnvExpertReminder, Default: settings.ShortDuration(helpchannels.DefaultExpertReminder), Doc: "How long an expert call waits for an answer before it is reminded in its thread, once, across replicas", Check: settings.DurationVar(&c.Help.ExpertReminder)},
		{Env: EnvExpertCallsUser, Default: strconv.Itoa(helpchannels.DefaultExpertCallsPerUser), Doc: "Times an hour one person may call the experts with *Ask an expert*, all replicas together (only members of the organisation may call them; guests and people of other organisations are told what they can do instead)", Check: wholeNumber(&c.Help.ExpertCallsPerUser, 1, "calls")},
		{Env: EnvExpertCallsChan, Default: strconv.Itoa(helpchannels.DefaultExpertCallsPerChannel), Doc: "Times an hour the experts may be called to one channel's questions, all replicas together; past it *Ask an expert* is refused, privately, saying when to call again", Check: wholeNumber(&c.Help.ExpertCallsPerChannel, 1, "calls")},
		{Env: EnvSlackBotToken, None: "required for the bot", Secret: true, Doc: "Bot token, `xoxb-…`",
			Check: settings.Prefixed("xoxb-", " is not a bot token: it must start with xoxb- (OAuth & Permissions page of your Slack app)")},
		{Env: EnvSlackAppToken, None: "required in socket mode", Secret: true, Doc: "App-level token with `connections:write`, `xapp-…`",
			Check: settings.Prefixed("xapp-", " is not an app-level token: it must start with xapp- (Basic Information page, App-Level Tokens, scope connections:write)")},
		{Env: EnvSlackMode, Flag: "slack-mode", Default: string(bot.ModeSocket), Doc: "How Slack reaches the bot: `socket` (Socket Mode, no public URL) or `http` (Slack posts to `/slack/events`, `/slack/commands` and `/slack/interactive` on `DOCSBOT_HTTP_ADDR`)", Check: settings.OneOfVar(&c.Bot.Mode, bot.ModeSocket, bot.ModeHTTP)},
		{Env: EnvSigningSecret, None: "required in http mode", Secret: true, Doc: "Signing secret (Basic Information page) that every request from Slack is checked with in http mode"},
		{Env: EnvClientID, None: "install by link off", Doc: "The Slack app's client id (Basic Information page): with `SLACK_CLIENT_SECRET`, `DOCSBOT_PUBLIC_URL` and `DOCSBOT_SECRETS_KEY` in http mode, and no `SLACK_BOT_TOKEN`, docsbot is installed by link (*Add to Slack* at `/slack/install`) in any number of workspaces, each served with its own token"},
		{Env: EnvClientSecret, None: "required to install by link", Secret: true, Doc: "The Slack app's client secret (Basic Information page), for installs by link"},
		{Env: EnvPublicURL, None: "required to install by link", Doc: "The https address Slack and browsers reach docsbot at, such as `https://docsbot.example.com`: installs come back to `/slack/oauth_redirect` under it (the Redirect URL of the app's OAuth & Permissions page)",
			Check: httpsURL(" must not contain credentials: it is docsbot's own public address", "Slack sends the installs' codes to it")},
		{Env: EnvSecretsKey, None: "required to install by link; docs connected from Slack off", Secret: true, Doc: "Base64 of 32 random bytes (`openssl rand -base64 32`) that seals the workspaces' tokens and the docs keys connected from Slack in Redis; a comma-separated list rotates it: the first seals, every one opens. Set, admins may connect docs from the Settings of docsbot's Home, and docsbot starts without `DOCS_API_KEY` and `DOCS_PROJECT_ID`",
			Check: settings.Var(&c.Install.SecretsKeys, store.ParseSealKeys, "is not base64 of 32 bytes, or a comma-separated list of them: make one with openssl rand -base64 32")},
		{Env: EnvTeams, None: "any workspace with the link", Doc: "Comma-separated Slack workspace ids (`T…`) and Enterprise Grid organisation ids (`E…`) that may install docsbot by link and are served; an install from any other is refused and its token handed back. Unset, any workspace that has the link may add docsbot and use your docs projects",
			Check: settings.IDsVar(&c.Install.Teams, EnvTeams, "T0123ABCD", isTeam)},
		{Env: EnvSlackAPIURL, Flag: "slack-api-url", Default: "https://slack.com/api/", Doc: "Slack Web API base (GovSlack, tests)", Check: httpsURL(" must not contain credentials: Slack takes only the tokens in "+EnvSlackBotToken+" and "+EnvSlackAppToken, "docsbot sends the Slack tokens to it")},
		{Env: EnvRedisURL, Flag: "redis-url", Default: "redis://localhost:6379/0", Doc: "Redis; `rediss://` and `unix://` work too, Sentinel with `?addr=…&master_name=…`, and Cluster with several nodes `redis://n1:6379?addr=n2:6379&addr=n3:6379`", Check: checkRedisURL},
		{Env: EnvRedisPrefix, Flag: "redis-prefix", Default: store.DefaultPrefix, Doc: "Prefix of every Redis key. No hash tag is needed on a Cluster: docsbot tags its keys itself, in 16 shards that spread over the primaries (a prefix with braces, such as `{docsbot}:`, puts every key in one slot)", Check: settings.Must(func(v string) bool { return !strings.ContainsAny(v, " *?[]") }, "must not contain spaces or * ? [ ]")},
		{Env: EnvPollInterval, Flag: "poll-interval", Default: settings.ShortDuration(agent.DefaultPollInterval), Doc: "Delay before a job's first poll", Check: settings.DurationVar(&c.Agent.PollInterval)},
		{Env: EnvPollMaxInterval, Flag: "poll-max-interval", Default: settings.ShortDuration(agent.DefaultPollMaxInterval), Doc: "Cap of the poll backoff", Check: settings.DurationVar(&c.Agent.PollMaxInterval)},
		{Env: EnvAllowedUsers, Flag: "allowed-users", None: "everyone", Doc: "Comma-separated Slack user ids allowed to use the bot", Check: settings.IDsVar(&c.Bot.AllowedUsers, EnvAllowedUsers, "U0123ABCD", isUser)},
		{Env: EnvAllowedChannels, Flag: "allowed-channels", None: "everywhere", Doc: "Comma-separated Slack channel ids where the bot works", Check: settings.IDsVar(&c.Bot.AllowedChannels, EnvAllowedChannels, "C0123ABCD", isChannel)},
		{Env: EnvEditors, Flag: "editors", None: "everyone", Doc: "Comma-separated Slack user ids and user group ids (`S…`) who may start jobs and send follow-ups; the others may only look", Check: editorsVar(&c.Bot.Editors, EnvEditors)},
		{Env: EnvAdmins, None: "the workspace's admins and owners", Doc: "Comma-separated Slack user ids and user group ids (`S…`) who may set docsbot up from the Settings of its Home, besides the workspace's admins and owners and whoever installed it", Check: editorsVar(&c.Bot.Admins, EnvAdmins)},
		{Env: EnvAllowGuests, Flag: "allow-guests", Default: "false", Doc: "`true` lets single- and multi-channel guests start, steer and retry jobs (they are refused, privately, by default)", Check: settings.BoolVar(&c.Bot.AllowGuests)},
		{Env: EnvAllowExternal, Flag: "allow-external", Default: "false", Doc: "`true` lets people of other organisations in Slack Connect channels start, steer and retry jobs (they are refused, privately, by default)", Check: settings.BoolVar(&c.Bot.AllowExternal)},
		{Env: EnvAuditText, Flag: "audit-text", Default: "false", Doc: "`true` keeps the instructions' text in the audit trail, not only their SHA-256 and length", Check: settings.BoolVar(&c.Audit.KeepText)},
		{Env: EnvAuditRetention, Flag: "audit-retention", Default: settings.ShortDuration(store.DefaultAuditRetention), Doc: "How long the audit trail keeps a record (`2160h` is 90 days)", Check: settings.DurationVar(&c.Audit.Retention)},
		{Env: EnvVisitorsTTL, Flag: "visitors-cache-ttl", Default: settings.ShortDuration(visitors.DefaultCacheTTL), Doc: "How long a `/docs-visitors` result is reused, by every replica", Check: settings.DurationVar(&c.Visitors.CacheTTL)},
		{Env: EnvAnalyticsBudget, Default: strconv.Itoa(bot.DefaultAnalyticsBudget), Doc: "Analytics requests per hour that all replicas together may make, for every analytics feature (per organization: see `visitors_budget` in the projects file)", Check: wholeNumber(&c.Bot.Analytics.Budget, 1, "requests")},
		{Env: EnvAnalyticsUser, Default: strconv.Itoa(bot.DefaultAnalyticsPerUser), Doc: "Analytics requests per hour one person may spend, so that nobody spends the whole budget; `0` gives no share of one's own", Check: wholeNumber(&c.Bot.Analytics.PerUser, 0, "requests")},
		{Env: EnvAnalyticsGuest, Default: strconv.Itoa(bot.DefaultAnalyticsPerGuest), Doc: "Analytics requests per hour a guest or a person of another organisation may spend, instead of `DOCSBOT_ANALYTICS_PER_USER`; `0` gives them no share of their own", Check: wholeNumber(&c.Bot.Analytics.PerGuest, 0, "requests")},
		{Env: EnvDigestReserve, Default: strconv.Itoa(bot.DefaultAnalyticsDigestReserve), Doc: "The last analytics requests of the hour that people's commands may not use, kept for the scheduled digests", Check: wholeNumber(&c.Bot.Analytics.DigestReserve, 0, "requests")},
		{Env: EnvFileMaxBytes, Default: strconv.Itoa(bot.DefaultFileMaxBytes), Doc: "The most bytes docsbot reads of one file people attach (10 MB); a larger file is skipped and the person told", Check: settings.Var(&c.Bot.Files.MaxBytes, atLeast(1), "must be a whole number of bytes, 1 or more")},
		{Env: EnvFileMaxCount, Default: strconv.Itoa(bot.DefaultFileMaxCount), Doc: "The most files docsbot reads of one message; the others are skipped and the person told", Check: settings.Var(&c.Bot.Files.MaxCount, atLeast(1), "must be a whole number of files, 1 or more")},
		{Env: EnvFileTextMax, Default: strconv.Itoa(bot.DefaultFileTextMax), Doc: "The most characters of the text files attached to a job request (a mention, a DM, a follow-up) that the agent gets, all files together, quoted as data after the instruction; past it they are cut and the person told", Check: settings.Var(&c.Bot.Files.TextMax, atLeast(1), "must be a whole number of characters, 1 or more")},
		{Env: EnvUnfurlAnalytics, Default: strconv.Itoa(unfurl.DefaultAnalyticsPerHour), Doc: "Analytics requests per hour that the unfurls of docs links may spend together, out of `DOCSBOT_ANALYTICS_BUDGET` and whoever posts the links (reading a project's page figures draws " + strconv.Itoa(unfurl.DefaultMaxPages+1) + " and gives back what it does not use); past it links show without figures", Check: wholeNumber(&c.Unfurl.AnalyticsPerHour, unfurl.DefaultMaxPages+1, "requests")},
		{Env: EnvVisitorsBudget, None: "deprecated", ReplacedBy: EnvAnalyticsBudget, Doc: "Deprecated name of `DOCSBOT_ANALYTICS_BUDGET`, still read when that is not set", Check: wholeNumber(nil, 1, "requests")},
		{Env: EnvDigestTime, Default: digest.DefaultTime, Doc: "When the digests post (`/docs-visitors digest`, `/docs-health digest`): `[weekday] HH:MM [zone]`, the weekday for weekly digests, the zone an IANA name", Check: settings.Var(&c.Visitors.Digest, digest.Parse, "is not a digest time: write `[weekday] HH:MM [zone]`, such as `Mon 09:00 Europe/Paris`")},
		{Env: EnvHTTPAddr, Flag: "http-addr", Default: ":8080", EmptyOff: true, Doc: "Address of Slack's request URLs in http mode, and of `/healthz`, `/readyz` and `/metrics` unless `DOCSBOT_OPS_ADDR` is set (socket mode then does not listen here); empty turns them off (socket mode only)", Check: settings.ListenAddr},
		{Env: EnvOpsAddr, Flag: "ops-addr", None: "on DOCSBOT_HTTP_ADDR; :9090 in http mode", EmptyOff: true, Doc: "Address of `/healthz`, `/readyz` and `/metrics` on a listener of their own, no longer on `DOCSBOT_HTTP_ADDR`, so that what faces Slack serves only Slack's request URLs (in http mode it must differ from `DOCSBOT_HTTP_ADDR`, and is `:9090` when unset; set empty, they share `DOCSBOT_HTTP_ADDR`)", Check: settings.ListenAddr},
		{Env: EnvLogFormat, Flag: "log-format", Default: "text", Doc: "`text` or `json`", Check: settings.OneOfVar(&c.LogFormat, "text", "json")},
		{Env: EnvLogLevel, Flag: "log-level", Default: "info", Doc: "`debug`, `info`, `warn` or `error`", Check: settings.LogLevelVar(&c.LogLevel)},
	}
}

// wholeNumber is the check of a number of requests (or questions, what)
// per hour, least or more, storing it in *p (unless p is nil).
func wholeNumber(p *int, least int, what string) settings.Check {
	return settings.Var(p, atLeast(least), fmt.Sprintf("must be a whole number of %s per hour, %d or more", what, least))
}

// atLeast parses a whole number, least or more.
func atLeast(least int) func(string) (int, error) {
	return func(v string) (int, error) {
		n, err := strconv.Atoi(v)
		if err == nil && n < least {
			err = errors.New("too few")
		}
		return n, err
	}
}

// editorsVar is the check of DOCSBOT_EDITORS and DOCSBOT_EXPERTS (env:
// Slack user and user group ids), storing them in *p.
func editorsVar(p *roles.Editors, env string) settings.Check {
	ids := settings.IDs(env, "U0123ABCD", isEditor)
	return func(v string, quote func(string) string) string {
		if problem := ids(v, quote); problem != "" {
			return problem
		}
		e, err := roles.ParseEditors(settings.List(v, isEditor, true))
		if err != nil {
			return ": " + err.Error()
		}
		*p = e
		return ""
	}
}

// httpsURL is the check of a URL docsbot sends a key to, or links people
// to (why says which): an http(s) URL without credentials (credentials is
// the problem of one with them), and https unless it is on this machine
// (project.SecureURL: tests, the sandbox, docsapitest).
func httpsURL(credentials, why string) settings.Check {
	return func(v string, quote func(string) string) string {
		if p := settings.HTTPURL(credentials)(v, quote); p != "" {
			return p
		}
		if !project.SecureURL(v) {
			return " " + quote(v) + insecure(why)
		}
		return ""
	}
}

// insecure is the problem of an http URL that leaves this machine, why
// saying what travels to it.
func insecure(why string) string {
	return " must be an https:// URL: " + why + ", and over http anyone on the way could read or change what passes " +
		"(http:// only to this machine: 127.0.0.1, [::1], localhost)"
}

// checkAssistantKey refuses a key of another kind than the assistant's
// (mint_dsc_…): a docs key of another kind, such as the admin API key, or a
// Slack token. A key of no known form is let through, as the docs API client
// lets it. The problem never quotes the value.
func checkAssistantKey(v string, _ func(string) string) string {
	const fix = ": create an assistant key (" + docsapi.AssistantKeyPrefix + "…) on the API keys page of the docs dashboard"
	switch {
	case strings.HasPrefix(v, docsapi.KeyPrefix) && !strings.HasPrefix(v, docsapi.AssistantKeyPrefix):
		return " is another kind of docs key (the admin API key?), not an assistant key" + fix
	case slices.ContainsFunc(slackid.TokenKinds(), func(k string) bool { return strings.HasPrefix(v, k) }):
		return " is a Slack token, not an assistant key" + fix
	}
	return ""
}

// linkDomainsVar accepts a comma-separated list of host names
// (mrkdwn.ValidHost): no scheme, port or path, two labels at least; it
// stores them in *p.
func linkDomainsVar(p *[]string) settings.Check {
	return func(v string, quote func(string) string) string {
		var bad []string
		for _, h := range settings.List(v, mrkdwn.ValidHost, false) {
			bad = append(bad, ": "+quote(h)+" is not a host name (write hosts such as docs.example.com, without https:// or a path; a whole top-level domain is not allowed)")
		}
		if len(bad) > 0 {
			return strings.Join(bad, "; "+EnvLinkDomains)
		}
		*p = settings.List(v, mrkdwn.ValidHost, true)
		return ""
	}
}

// checkRedisURL accepts the URLs store.Open takes.
func checkRedisURL(v string, _ func(string) string) string {
	if u, err := url.Parse(v); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss" && u.Scheme != "unix") {
		return " must be a redis://, rediss:// or unix:// URL"
	}
	return ""
}

// The kinds of Slack ids of the settings: users (U, W), channels (C, G, D),
// editors (users and user groups, S).
func isUser(id string) bool    { return bot.IsSlackID(id, "UW") }
func isChannel(id string) bool { return bot.IsSlackID(id, "CGD") }
func isTeam(id string) bool    { return bot.IsSlackID(id, "TE") }
func isEditor(id string) bool  { return bot.IsSlackID(id, "UWS") }

// isRequestsChannel reports whether id is a public or private channel's,
// where the questions for the docs team are posted.
func isRequestsChannel(id string) bool { return bot.IsSlackID(id, "CG") }

// defaultOf is the default of the variable env, "" for none.
func defaultOf(env string) string { return Table().Of(env).Default }
