package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Serve is everything `docsbot serve` runs with.
type Serve struct {
	API API
	// Projects are the docs projects served (also in bot.Projects); nil
	// when the projects file cannot be loaded.
	Projects           *project.Set
	BotToken, AppToken string
	SlackAPIURL        string
	RedisURL           string
	RedisPrefix        string
	HTTPAddr           string
	// OpsAddr, when set, is where /healthz, /readyz and /metrics are
	// served instead of HTTPAddr.
	OpsAddr  string
	Bot      bot.Config
	Agent    agent.Config
	Visitors visitors.Config
	// Health is the docs health's; its digest is due when the visitors'
	// is (DOCSBOT_DIGEST_TIME).
	Health health.Config
	// Ask is the answers from the docs'; they answer from the projects
	// whose Assistant is set (Projects).
	Ask ask.Config
	// Deploy is the deployments'.
	Deploy    deploy.Config
	Audit     store.AuditOptions
	LogFormat string
	LogLevel  slog.Level
	// Problems lists what is wrong with the settings, the missing ones first.
	Problems []Problem
	// Deprecated says of each deprecated setting given what to set instead
	// (settings.Source.Deprecations); doctor warns, serve logs them.
	Deprecated []string
}

// Serve resolves every setting of the bot. The table's checks collect every
// malformed setting, each named by its variable, and the missing ones come
// first, so one run tells the operator everything to fix.
func (e Env) Serve(flags settings.Values) (Serve, error) {
	s, err := e.Source(flags)
	if err != nil {
		return Serve{}, err
	}
	get := s.Value
	var c Serve
	var missing []string
	secrets := s.Secrets(EnvRedisURL)
	api, projects, apiProblems := e.apiSettings(s, secrets)
	projects, assistantProblems := assistantSettings(s, projects)
	apiProblems = append(apiProblems, assistantProblems...)
	if projects != nil && !projects.Implicit() {
		for _, p := range projects.All() {
			secrets = append(secrets, p.APIKey.Reveal())
			if !p.Assistant.Key.IsZero() {
				secrets = append(secrets, p.Assistant.Key.Reveal())
			}
		}
	}
	for _, p := range s.Problems(func(v string) string { return bot.SecretKinds().Quote(v, secrets...) }) {
		c.Problems = append(c.Problems, Problem{Vars: []string{p.Env}, Text: p.Text})
	}

	c.BotToken, c.AppToken = get(EnvSlackBotToken), get(EnvSlackAppToken)
	c.Bot.Mode, c.Bot.SigningSecret = bot.Mode(strings.ToLower(get(EnvSlackMode))), get(EnvSigningSecret)
	required := []string{EnvSlackBotToken, EnvSlackAppToken}
	if c.Bot.Mode == bot.ModeHTTP {
		required = []string{EnvSlackBotToken, EnvSigningSecret}
	}
	for _, env := range required {
		if get(env) == "" {
			missing = append(missing, env)
		}
	}
	c.SlackAPIURL = get(EnvSlackAPIURL)
	if !strings.HasSuffix(c.SlackAPIURL, "/") {
		c.SlackAPIURL += "/"
	}
	c.RedisURL, c.RedisPrefix = get(EnvRedisURL), get(EnvRedisPrefix)
	c.Agent.PollInterval, c.Agent.PollMaxInterval = s.DurationOf(EnvPollInterval), s.DurationOf(EnvPollMaxInterval)
	if c.Agent.PollMaxInterval < c.Agent.PollInterval {
		c.Problems = append(c.Problems, Problem{Vars: []string{EnvPollMaxInterval, EnvPollInterval},
			Text: fmt.Sprintf("%s (%s) is shorter than %s (%s)", EnvPollMaxInterval, c.Agent.PollMaxInterval, EnvPollInterval, c.Agent.PollInterval)})
	}
	c.Visitors.CacheTTL = s.DurationOf(EnvVisitorsTTL)
	c.Bot.Analytics, c.Problems = analyticsLimits(get, c.Problems)
	c.Ask.PerUser, _ = strconv.Atoi(get(EnvAskPerUser))       // checked by the table
	c.Ask.Budget, _ = strconv.Atoi(get(EnvAskBudget))         // checked by the table
	c.Deploy.PerUser, _ = strconv.Atoi(get(EnvDeployPerUser)) // checked by the table
	c.Ask.LinkDomains = settings.List(get(EnvLinkDomains), mrkdwn.ValidHost, true)
	c.Ask.RequestsChannel = get(EnvRequestsChannel)
	c.Deprecated = s.Deprecations()
	c.Visitors.Digest, _ = digest.Parse(get(EnvDigestTime))
	c.Health.Digest = c.Visitors.Digest
	c.Bot.AllowedUsers = settings.List(get(EnvAllowedUsers), isUser, true)
	c.Bot.AllowedChannels = settings.List(get(EnvAllowedChannels), isChannel, true)
	c.Bot.Editors, _ = roles.ParseEditors(settings.List(get(EnvEditors), isEditor, true)) // checked by the table
	c.Bot.AllowGuests, _ = strconv.ParseBool(get(EnvAllowGuests))                         // checked by the table
	c.Bot.AllowExternal, _ = strconv.ParseBool(get(EnvAllowExternal))                     // checked by the table
	c.Audit = AuditOptions(s)
	c.HTTPAddr = get(EnvHTTPAddr)
	if c.HTTPAddr == "" && c.Bot.Mode == bot.ModeHTTP {
		c.Problems = append(c.Problems, Problem{Vars: []string{EnvHTTPAddr},
			Text: EnvHTTPAddr + " is empty, but in http mode Slack's requests are served there: set an address such as :8080"})
	}
	c.OpsAddr = get(EnvOpsAddr)
	// In socket mode DOCSBOT_HTTP_ADDR serves nothing once the ops endpoint
	// has an address of its own, and is not listened on.
	if c.Bot.Mode == bot.ModeHTTP && c.OpsAddr != "" && c.HTTPAddr != "" && SameListener(c.OpsAddr, c.HTTPAddr) {
		c.Problems = append(c.Problems, Problem{Vars: []string{EnvOpsAddr, EnvHTTPAddr},
			Text: fmt.Sprintf("%s (%s) is the address of %s (%s): the ops endpoint needs an address of its own, such as :9090", EnvOpsAddr, c.OpsAddr, EnvHTTPAddr, c.HTTPAddr)})
	}
	c.LogFormat = strings.ToLower(get(EnvLogFormat))
	_ = c.LogLevel.UnmarshalText([]byte(get(EnvLogLevel))) // checked by the table

	c.API, c.Projects, c.Bot.Projects = api, projects, projects
	// Records from before the projects file belong to DOCS_PROJECT_ID's.
	c.Bot.LegacyProjectID = api.ProjectID
	for _, p := range apiProblems {
		switch {
		case p.Missing:
			missing = append(missing, p.Vars...)
		case p.Fix != "":
			p.Text, p.Fix = p.Text+"\n"+p.Fix, ""
			fallthrough
		default:
			c.Problems = append(c.Problems, p)
		}
	}
	if len(missing) > 0 {
		c.Problems = append([]Problem{{Vars: missing, Text: "missing " + strings.Join(missing, ", ")}}, c.Problems...)
	}
	if len(c.Problems) > 0 {
		texts := make([]string, len(c.Problems))
		for i := range c.Problems {
			c.Problems[i].Text = bot.SecretKinds().Scrub(c.Problems[i].Text, secrets...)
			texts[i] = c.Problems[i].Text
		}
		return c, &cli.Error{
			Code: cli.ExitUsage,
			Msg:  "the Slack bot is not configured: " + strings.Join(texts, "; "),
			Fix:  "set them in the environment or in " + e.DotenvPath() + " (see deploy/.env.example); the README shows how to create the Slack app and its tokens",
		}
	}
	return c, nil
}

// AnswersOff says, when no docs project has an assistant, that the answers
// from the docs are off (why) and what turns them on (on); "", "" when some
// project has one, or the projects are not known.
func (c Serve) AnswersOff() (why, on string) {
	if c.Projects == nil || slices.ContainsFunc(c.Projects.All(), func(p project.Project) bool { return p.Assistant.Set() }) {
		return "", ""
	}
	on = "set " + EnvAssistantKey + " (" + docsapi.AssistantKeyPrefix + "…, from the API keys page of the docs dashboard) and " + EnvDomain + " to turn them on"
	if !c.Projects.Implicit() {
		on = "give projects of " + EnvProjectsFile + " assistant_key_env (or assistant_key_file) and domain to turn them on"
	}
	return "answers from the docs are off: no docs project has an assistant, so " + ask.Command + " is not served", on
}

// SameListener reports whether two listen addresses (host:port, checked by
// the table) would take the same port: the same port on the same host, or
// on any host when either listens on every interface (":8080",
// "0.0.0.0:8080", "[::]:8080"). Port 0 (any free port) never collides.
func SameListener(a, b string) bool {
	ha, pa, errA := net.SplitHostPort(a)
	hb, pb, errB := net.SplitHostPort(b)
	if errA != nil || errB != nil {
		return a == b
	}
	if pa != pb || pa == "0" {
		return false
	}
	every := func(h string) bool {
		ip := net.ParseIP(h)
		return h == "" || (ip != nil && ip.IsUnspecified())
	}
	return every(ha) || every(hb) || strings.EqualFold(ha, hb)
}

// APIOf is how to reach the docs API for p: today's settings for the
// implicit project, else the projects file's.
func (c Serve) APIOf(p project.Project) API {
	if p.Implicit {
		return c.API
	}
	return projectConfig(p)
}

// Describe is what Serve's error err says, for a report: a line per
// problem (or the error's words when the settings could not be read at
// all) and the fix.
func (c Serve) Describe(err error) (lines []string, fix string) {
	ce, ok := errors.AsType[*cli.Error](err)
	if ok {
		fix = ce.Fix
	}
	var texts []string
	for _, p := range c.Problems {
		texts = append(texts, p.Text)
	}
	switch {
	case len(texts) > 0:
	case ok:
		texts = []string{ce.Msg}
	default:
		texts = []string{err.Error()}
	}
	for _, t := range texts {
		lines = append(lines, strings.Split(strings.TrimRight(t, "\n"), "\n")...)
	}
	return lines, fix
}

// Blocked says why something that needs the variables needs cannot run
// (a check of doctor's) when Serve gave c and err, or "" when it can.
func (c Serve) Blocked(err error, needs ...string) string {
	if err != nil && len(c.Problems) == 0 {
		return "the settings could not be read"
	}
	var bad []string
	for _, name := range needs {
		if slices.ContainsFunc(c.Problems, func(p Problem) bool { return slices.Contains(p.Vars, name) }) {
			bad = append(bad, name)
		}
	}
	if len(bad) > 0 {
		return "fix " + strings.Join(bad, " and ") + " first"
	}
	return ""
}

// analyticsLimits are the limits of the analytics requests
// (DOCSBOT_ANALYTICS_BUDGET, or the deprecated DOCSBOT_VISITORS_BUDGET;
// DOCSBOT_ANALYTICS_PER_USER; DOCSBOT_ANALYTICS_PER_GUEST;
// DOCSBOT_ANALYTICS_DIGEST_RESERVE), each
// checked by the table; a reserve that leaves people nothing is a problem.
func analyticsLimits(get func(string) string, problems []Problem) (bot.AnalyticsLimits, []Problem) {
	var l bot.AnalyticsLimits
	l.Budget, _ = strconv.Atoi(get(EnvAnalyticsBudget))
	l.PerUser, _ = strconv.Atoi(get(EnvAnalyticsUser))
	l.PerGuest, _ = strconv.Atoi(get(EnvAnalyticsGuest))
	l.DigestReserve, _ = strconv.Atoi(get(EnvDigestReserve))
	if l.Budget >= 1 && l.DigestReserve >= l.Budget {
		problems = append(problems, Problem{Vars: []string{EnvDigestReserve, EnvAnalyticsBudget},
			Text: fmt.Sprintf("%s (%d) leaves people none of the %d analytics requests an hour of %s: keep it below", EnvDigestReserve, l.DigestReserve, l.Budget, EnvAnalyticsBudget)})
	}
	return l, problems
}

// AuditOptions are the audit trail's settings (DOCSBOT_AUDIT_TEXT,
// DOCSBOT_AUDIT_RETENTION), checked by the table; `docsbot serve` and
// `docsbot audit` share them.
func AuditOptions(s settings.Source) store.AuditOptions {
	keep, _ := strconv.ParseBool(s.Value(EnvAuditText))
	return store.AuditOptions{KeepText: keep, Retention: s.DurationOf(EnvAuditRetention)}
}
