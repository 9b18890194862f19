package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/docsbot/docsbot/bot/redact"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/docsapi"
)

// config is how to reach the docs API.
type config struct {
	APIURL    string
	APIKey    string
	ProjectID string
	// keyFrom says where the key came from, for error messages.
	keyFrom string
}

// flagValues are the settings given as flags, by variable.
type flagValues = settings.Values

// source finds the settings: flags, then the environment, then the .env
// file, then the defaults.
type source struct{ settings.Source }

// source reads the .env file and returns the settings' source for flags.
func (r *runner) source(flags flagValues) (source, error) {
	env, err := r.dotenv()
	if err != nil {
		return source{}, err
	}
	return source{settings.Source{Table: settingsTable(), Flags: flags, LookupEnv: r.lookupEnv, Dotenv: env, DotenvPath: r.dotenvPath()}}, nil
}

// secrets are the secret values among the settings: those of the rows
// marked Secret (the Slack tokens, the docs API key) and the Redis password.
// Problems with the settings are scrubbed of them.
func (s source) secrets() []string {
	var out []string
	for _, row := range s.Table {
		if v := s.Value(row.Env); row.Secret && v != "" {
			out = append(out, v)
		}
	}
	if p := redisPassword(s.Value(envRedisURL)); p != "" {
		out = append(out, p)
	}
	return out
}

// dotenvPath is the .env file the runner reads.
func (r *runner) dotenvPath() string { return filepath.Join(r.dir, ".env") }

// dotenv reads the .env file of the working directory (settings.ReadDotenv).
func (r *runner) dotenv() (map[string]string, error) {
	path := r.dotenvPath()
	env, err := settings.ReadDotenv(path)
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return nil, &exitError{code: exitUsage, err: err, msg: fmt.Sprintf("cannot read %s: %v", path, pe.Err)}
	}
	if de, ok := errors.AsType[*settings.DotenvError](err); ok {
		return nil, &exitError{code: exitUsage, err: err, msg: de.Error(),
			fix: "write one NAME=value per line (quote values with spaces), or remove the file"}
	}
	return env, err
}

// problem is one thing wrong with the settings.
type problem struct {
	// vars names the variables the problem concerns.
	vars []string
	// text says what is wrong; fix, if not "", what to do about it.
	text, fix string
	// missing means the one variable in vars is not set at all.
	missing bool
}

// loadConfig resolves the docs API settings of the flags given.
func (r *runner) loadConfig(flags flagValues) (config, error) {
	s, err := r.source(flags)
	if err != nil {
		return config{}, err
	}
	cfg, problems := r.apiSettings(s, s.secrets())
	if len(problems) > 0 {
		return config{}, usageError(problems[0].text, problems[0].fix)
	}
	return cfg, nil
}

// apiSettings resolves the docs API settings and lists every problem with
// them, most basic first, scrubbed of secrets.
func (r *runner) apiSettings(s source, secrets []string) (config, []problem) {
	var cfg config
	var urlFrom string
	cfg.APIURL, urlFrom = s.Get(envAPIURL)
	cfg.APIKey, cfg.keyFrom = s.Get(envAPIKey)
	cfg.ProjectID = s.Value(envProject)

	var problems []problem
	bad := func(name, text, fix string) {
		problems = append(problems, problem{vars: []string{name}, text: redact.Scrub(text, secrets...), fix: fix})
	}
	switch {
	case hasCredentials(cfg.APIURL):
		bad(envAPIURL, fmt.Sprintf("%s (from %s) must not contain credentials", envAPIURL, urlFrom),
			"put the API key in "+envAPIKey+" and set "+envAPIURL+" to the bare base URL, e.g. "+defaultOf(envAPIURL))
	case !isHTTPURL(cfg.APIURL):
		bad(envAPIURL, fmt.Sprintf("%s %s (from %s) is not an http(s) URL", envAPIURL, redact.QuoteURL(cfg.APIURL, secrets...), urlFrom),
			"set it to the API base URL, e.g. "+defaultOf(envAPIURL))
	default:
		cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	}
	if cfg.APIKey == "" {
		problems = append(problems, problem{vars: []string{envAPIKey}, missing: true,
			text: envAPIKey + " is not set: create an admin API key on the API keys page of your docs dashboard and export " + envAPIKey + "=mint_...",
			fix:  "(or put it in " + s.DotenvPath + ")"})
	}
	switch {
	case cfg.ProjectID == "":
		problems = append(problems, problem{vars: []string{envProject}, missing: true,
			text: envProject + " is not set: copy the project ID from the API keys page of your docs dashboard and export " + envProject + "=...",
			fix:  "(or pass --project, or put it in " + s.DotenvPath + ")"})
	case redact.Looks(cfg.ProjectID, secrets...):
		bad(envProject, envProject+" holds a secret, not a project ID: copy the project ID from the API keys page of your docs dashboard",
			"keep keys in "+envAPIKey+"; "+envProject+" is the project's ID, which is not secret")
	}
	if len(problems) == 0 && s.Flags[envAPIKey] != "" {
		fmt.Fprintln(r.stderr, "docsbot: warning: --api-key is visible to other users in process lists; prefer "+envAPIKey+" in the environment or .env")
	}
	return cfg, problems
}

// isHTTPURL reports whether raw is an absolute http(s) URL.
func isHTTPURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// hasCredentials reports whether a URL setting carries user:password@.
func hasCredentials(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.User != nil
}

// redisPassword is the password in a Redis URL, or "".
func redisPassword(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}

// client connects to the docs API with the settings of the flags given; opts
// come after the settings' own options.
func (r *runner) client(flags flagValues, opts ...docsapi.Option) (*docsapi.Client, config, error) {
	cfg, err := r.loadConfig(flags)
	if err != nil {
		return nil, config{}, err
	}
	c, err := newAPIClient(cfg, opts...)
	if err != nil {
		return nil, config{}, err
	}
	return c, cfg, nil
}

// newAPIClient is the one place a docs API client is built: for the base URL,
// key and project of cfg, with opts after them. Its User-Agent is the
// client's default, docsbot/<version>. An error is explained for the user.
func newAPIClient(cfg config, opts ...docsapi.Option) (*docsapi.Client, error) {
	c, err := docsapi.NewClient(cfg.APIKey, cfg.ProjectID, append([]docsapi.Option{docsapi.WithBaseURL(cfg.APIURL)}, opts...)...)
	if err != nil {
		return nil, explain(err, call{op: "connect", cfg: cfg})
	}
	return c, nil
}
