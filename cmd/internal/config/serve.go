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
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Serve is everything `docsbot serve` runs with.
type Serve struct {
	// Config is the replica's (app.New): the core's and every feature's
	// settings, filled once from the settings table, each typed value by
	// its row's check (table), and handed to app.New whole.
	app.Config
	API API
	// Projects are the docs projects served (also in Bot.Projects); nil
	// when the projects file cannot be loaded.
	Projects           *project.Set
	BotToken, AppToken string
	SlackAPIURL        string
	RedisURL           string
	RedisPrefix        string
	HTTPAddr           string
	// OpsAddr, when set, is where /healthz, /readyz and /metrics are
	// served instead of HTTPAddr.
	OpsAddr   string
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
// first, so one run tells the operator everything to fix. Each typed value
// is the one its check parsed (read); none is parsed again here.
func (e Env) Serve(flags settings.Values) (Serve, error) {
	s, err := e.Source(flags)
	if err != nil {
		return Serve{}, err
	}
	secrets := s.Secrets(EnvRedisURL)
	api, projects, apiProblems := e.apiSettings(s, secrets)
	projects, apiProblems = firstRun(s, projects, apiProblems)
	projects, assistantProblems := assistantSettings(s, projects)
	apiProblems = append(apiProblems, assistantProblems...)
	secrets = append(secrets, projectSecrets(projects)...)
	c, problems := read(s, func(v string) string { return bot.SecretKinds().Quote(v, secrets...) })
	for _, p := range problems {
		c.Problems = append(c.Problems, Problem{Vars: []string{p.Env}, Text: p.Text})
	}
	missing := c.readSlack(s)
	c.RedisURL, c.RedisPrefix = s.Value(EnvRedisURL), s.Value(EnvRedisPrefix)
	c.HTTPAddr, c.OpsAddr = s.Value(EnvHTTPAddr), s.Value(EnvOpsAddr)
	if _, given := s.Get(EnvOpsAddr); given == "" && c.Bot.Mode == bot.ModeHTTP {
		// Slack's listener faces the internet: /metrics and /readyz are
		// not served there unless asked for (DOCSBOT_OPS_ADDR set empty).
		c.OpsAddr = HTTPModeOpsAddr
	}
	c.Ask.RequestsChannel = s.Value(EnvRequestsChannel)
	c.Health.Digest = c.Visitors.Digest
	c.Deprecated = s.Deprecations()
	c.API, c.Projects, c.Bot.Projects = api, projects, projects
	c.Connect = app.Connect{APIURL: api.APIURL, DiscoveryURL: discoveryURL(s)}
	c.checkTogether()
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
	return c, c.refuse(e, missing, secrets)
}

// firstRun lets `docsbot serve` start with no docs at all, to have them
// connected from Slack (the Settings of the Home): with DOCSBOT_SECRETS_KEY
// set, no projects file, and neither DOCS_API_KEY nor DOCS_PROJECT_ID,
// the two missing settings are no problem and no project is served until
// an admin connects one. Anything else is as it was.
func firstRun(s settings.Source, set *project.Set, problems []Problem) (*project.Set, []Problem) {
	if s.Value(EnvSecretsKey) == "" || s.Value(EnvProjectsFile) != "" || s.Value(EnvAPIKey) != "" || s.Value(EnvProject) != "" {
		return set, problems
	}
	var rest []Problem
	for _, p := range problems {
		if !p.Missing || (p.Vars[0] != EnvAPIKey && p.Vars[0] != EnvProject) {
			rest = append(rest, p)
		}
	}
	return project.None(), rest
}

// read reads the typed settings of s into a Serve: the table's check of
// each parses its value once and stores it (table); problems are what the
// checks found, each value quoted with quote.
func read(s settings.Source, quote func(string) string) (Serve, []settings.Problem) {
	var c Serve
	s.Table = table(&c)
	problems := s.Problems(quote)
	return c, problems
}

// projectSecrets are the keys of the projects of a projects file, to be
// scrubbed from what the settings' problems show.
func projectSecrets(set *project.Set) []string {
	var out []string
	if set == nil || set.Implicit() {
		return nil
	}
	for _, p := range set.All() {
		out = append(out, p.APIKey.Reveal())
		if !p.Assistant.Key.IsZero() {
			out = append(out, p.Assistant.Key.Reveal())
		}
	}
	return out
}

// HTTPModeOpsAddr is the ops endpoint's address in http mode when
// DOCSBOT_OPS_ADDR is not set: apart from Slack's request URLs.
const HTTPModeOpsAddr = ":9090"

// readSlack reads how the bot reaches Slack: the tokens, the signing secret
// and the Web API's URL; missing are the variables its mode (read by the
// table) requires and that are not set.
func (c *Serve) readSlack(s settings.Source) (missing []string) {
	c.BotToken, c.AppToken, c.Bot.SigningSecret = s.Value(EnvSlackBotToken), s.Value(EnvSlackAppToken), s.Value(EnvSigningSecret)
	c.SlackAPIURL = s.Value(EnvSlackAPIURL)
	if !strings.HasSuffix(c.SlackAPIURL, "/") {
		c.SlackAPIURL += "/"
	}
	c.Bot.SlackHost = bot.SlackHostOf(c.SlackAPIURL)
	required := []string{EnvSlackBotToken, EnvSlackAppToken}
	switch {
	case c.Bot.Mode == bot.ModeHTTP && c.BotToken == "" && s.Value(EnvClientID) != "":
		// Install by link: each workspace's token comes with its install.
		c.Bot.InstallMode = true
		c.Install.ClientID, c.Install.ClientSecret = s.Value(EnvClientID), s.Value(EnvClientSecret)
		c.Install.PublicURL = strings.TrimRight(s.Value(EnvPublicURL), "/")
		c.Install.APIURL = c.SlackAPIURL
		required = []string{EnvSigningSecret, EnvClientSecret, EnvPublicURL, EnvSecretsKey}
	case c.Bot.Mode == bot.ModeHTTP:
		required = []string{EnvSlackBotToken, EnvSigningSecret}
	case c.BotToken == "" && s.Value(EnvClientID) != "":
		c.Problems = append(c.Problems, Problem{Vars: []string{EnvClientID, EnvSlackMode},
			Text: EnvClientID + " is set for install by link, which needs " + EnvSlackMode + "=http (Slack's requests to " + EnvPublicURL + "); Socket Mode serves the one workspace of " + EnvSlackBotToken})
	}
	for _, env := range required {
		if s.Value(env) == "" {
			missing = append(missing, env)
		}
	}
	return missing
}

// checkTogether adds the problems of settings that are each good alone but
// not together: the poll backoff's cap below its first delay, a digest
// reserve that leaves people nothing, http mode without its address, the
// ops endpoint on the address of Slack's requests.
func (c *Serve) checkTogether() {
	problem := func(text string, vars ...string) { c.Problems = append(c.Problems, Problem{Vars: vars, Text: text}) }
	if a := c.Agent; a.PollMaxInterval < a.PollInterval {
		problem(fmt.Sprintf("%s (%s) is shorter than %s (%s)", EnvPollMaxInterval, a.PollMaxInterval, EnvPollInterval, a.PollInterval),
			EnvPollMaxInterval, EnvPollInterval)
	}
	if l := c.Bot.Analytics; l.Budget >= 1 && l.DigestReserve >= l.Budget {
		problem(fmt.Sprintf("%s (%d) leaves people none of the %d analytics requests an hour of %s: keep it below", EnvDigestReserve, l.DigestReserve, l.Budget, EnvAnalyticsBudget),
			EnvDigestReserve, EnvAnalyticsBudget)
	}
	if c.HTTPAddr == "" && c.Bot.Mode == bot.ModeHTTP {
		problem(EnvHTTPAddr+" is empty, but in http mode Slack's requests are served there: set an address such as :8080", EnvHTTPAddr)
	}
	// In socket mode DOCSBOT_HTTP_ADDR serves nothing once the ops endpoint
	// has an address of its own, and is not listened on.
	if c.Bot.Mode == bot.ModeHTTP && c.OpsAddr != "" && c.HTTPAddr != "" && SameListener(c.OpsAddr, c.HTTPAddr) {
		problem(fmt.Sprintf("%s (%s) is the address of %s (%s): the ops endpoint needs an address of its own, such as :9090", EnvOpsAddr, c.OpsAddr, EnvHTTPAddr, c.HTTPAddr),
			EnvOpsAddr, EnvHTTPAddr)
	}
}

// refuse is the error of settings with problems (missing first, then
// c.Problems, each scrubbed of secrets), nil when there are none.
func (c *Serve) refuse(e Env, missing, secrets []string) error {
	if len(missing) > 0 {
		c.Problems = append([]Problem{{Vars: missing, Text: "missing " + strings.Join(missing, ", ")}}, c.Problems...)
	}
	if len(c.Problems) == 0 {
		return nil
	}
	texts := make([]string, len(c.Problems))
	for i := range c.Problems {
		c.Problems[i].Text = bot.SecretKinds().Scrub(c.Problems[i].Text, secrets...)
		texts[i] = c.Problems[i].Text
	}
	return &cli.Error{
		Code: cli.ExitUsage,
		Msg:  "the Slack bot is not configured: " + strings.Join(texts, "; "),
		Fix:  "set them in the environment or in " + e.DotenvPath() + " (see deploy/.env.example); the README shows how to create the Slack app and its tokens",
	}
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

// AuditOptions are the audit trail's settings (DOCSBOT_AUDIT_TEXT,
// DOCSBOT_AUDIT_RETENTION) as the table reads them; `docsbot audit` shares
// them with serve, and refuses their problems first (storeOf), so a value
// left out here for its problem never reaches the store.
func AuditOptions(s settings.Source) store.AuditOptions {
	c, _ := read(s, strconv.Quote)
	return c.Audit
}
