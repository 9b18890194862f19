package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/joho/godotenv"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/redact"
)

// config is how to reach the docs API.
type config struct {
	APIURL    string
	APIKey    string
	ProjectID string
	// keyFrom says where the key came from, for error messages.
	keyFrom string
}

// apiFlags are the connection flags of every subcommand that calls the docs API.
type apiFlags struct {
	apiURL, apiKey, project string
}

func (f *apiFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.apiURL, settingOf(envAPIURL).flag, "", flagHelp(envAPIURL))
	fs.StringVar(&f.apiKey, settingOf(envAPIKey).flag, "", flagHelp(envAPIKey)+"; the environment is safer: flags show in process lists")
	fs.StringVar(&f.project, settingOf(envProject).flag, "", flagHelp(envProject))
}

// dotenvPath is the .env file the runner reads.
func (r *runner) dotenvPath() string { return filepath.Join(r.dir, ".env") }

// dotenv reads the .env file of the working directory into a map, without
// touching the process environment. A missing file gives an empty map.
func (r *runner) dotenv() (map[string]string, error) {
	path := r.dotenvPath()
	env, err := godotenv.Read(path)
	switch {
	case err == nil:
		return env, nil
	case errors.Is(err, fs.ErrNotExist):
		return map[string]string{}, nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, &exitError{code: exitUsage, err: err, msg: fmt.Sprintf("cannot read %s: %v", path, pe.Err)}
	}
	return nil, &exitError{
		code: exitUsage,
		err:  err,
		msg:  fmt.Sprintf("%s is not a valid .env file: %s", path, dotenvProblem(err)),
		fix:  "write one NAME=value per line (quote values with spaces), or remove the file",
	}
}

// dotenvProblem shortens a .env parse error to its kind: the parser quotes the
// rest of the file, which may hold secrets.
func dotenvProblem(err error) string {
	msg := err.Error()
	for _, cut := range []string{" near ", "unterminated quoted value"} {
		if i := strings.Index(msg, cut); i >= 0 {
			msg = strings.TrimSpace(msg[:i+len(cut)])
			if cut == " near " {
				msg = strings.TrimSpace(msg[:i])
			}
		}
	}
	return msg
}

// lookup finds a setting in the environment, then in the .env map, and says
// where it found it.
func (r *runner) lookup(env map[string]string, name string) (value, from string) {
	if v := strings.TrimSpace(r.getenv(name)); v != "" {
		return v, "environment variable " + name
	}
	if v := strings.TrimSpace(env[name]); v != "" {
		return v, name + " in " + r.dotenvPath()
	}
	return "", ""
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

// loadConfig resolves the docs API settings: flags first, then the
// environment, then the .env file, then defaults.
func (r *runner) loadConfig(f apiFlags) (config, error) {
	env, err := r.dotenv()
	if err != nil {
		return config{}, err
	}
	cfg, problems := r.apiSettings(env, f, r.knownSecrets(env, f.apiKey, ""))
	if len(problems) > 0 {
		return config{}, usageError(problems[0].text, problems[0].fix)
	}
	return cfg, nil
}

// apiSettings resolves the docs API settings from the flags f, the
// environment and the .env map env, and lists every problem with them, most
// basic first, scrubbed of secrets.
func (r *runner) apiSettings(env map[string]string, f apiFlags, secrets []string) (config, []problem) {
	pick := func(flagValue, flagName, name string) (string, string) {
		if v := strings.TrimSpace(flagValue); v != "" {
			return v, "flag --" + flagName
		}
		return r.lookup(env, name)
	}
	var cfg config
	var urlFrom string
	cfg.APIURL, urlFrom = pick(f.apiURL, "api-url", envAPIURL)
	cfg.APIKey, cfg.keyFrom = pick(f.apiKey, "api-key", envAPIKey)
	cfg.ProjectID, _ = pick(f.project, "project", envProject)

	var problems []problem
	bad := func(name, text, fix string) {
		problems = append(problems, problem{vars: []string{name}, text: redact.Scrub(text, secrets...), fix: fix})
	}
	if cfg.APIURL == "" {
		cfg.APIURL, urlFrom = defaultOf(envAPIURL), "default"
	}
	if u, err := url.Parse(cfg.APIURL); hasCredentials(cfg.APIURL) {
		bad(envAPIURL, fmt.Sprintf("%s (from %s) must not contain credentials", envAPIURL, urlFrom),
			"put the API key in "+envAPIKey+" and set "+envAPIURL+" to the bare base URL, e.g. "+defaultOf(envAPIURL))
	} else if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad(envAPIURL, fmt.Sprintf("%s %s (from %s) is not an http(s) URL", envAPIURL, redact.QuoteURL(cfg.APIURL, secrets...), urlFrom),
			"set it to the API base URL, e.g. "+defaultOf(envAPIURL))
	} else {
		cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	}
	if cfg.APIKey == "" {
		problems = append(problems, problem{vars: []string{envAPIKey}, missing: true,
			text: envAPIKey + " is not set: create an admin API key on the API keys page of your docs dashboard and export " + envAPIKey + "=mint_...",
			fix:  "(or put it in " + r.dotenvPath() + ")"})
	}
	switch {
	case cfg.ProjectID == "":
		problems = append(problems, problem{vars: []string{envProject}, missing: true,
			text: envProject + " is not set: copy the project ID from the API keys page of your docs dashboard and export " + envProject + "=...",
			fix:  "(or pass --project, or put it in " + r.dotenvPath() + ")"})
	case redact.Looks(cfg.ProjectID, secrets...):
		bad(envProject, envProject+" holds a secret, not a project ID: copy the project ID from the API keys page of your docs dashboard",
			"keep keys in "+envAPIKey+"; "+envProject+" is the project's ID, which is not secret")
	}
	if len(problems) == 0 && f.apiKey != "" {
		fmt.Fprintln(r.stderr, "docsbot: warning: --api-key is visible to other users in process lists; prefer "+envAPIKey+" in the environment or .env")
	}
	return cfg, problems
}

// client connects to the docs API with the settings of f; opts come after
// the settings' own options.
func (r *runner) client(f apiFlags, opts ...docsapi.Option) (*docsapi.Client, config, error) {
	cfg, err := r.loadConfig(f)
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
