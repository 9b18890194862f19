package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/docsapi"
)

// API is how to reach the docs API.
type API struct {
	APIURL    string
	APIKey    string
	ProjectID string
	// KeyFrom says where the key came from, for error messages.
	KeyFrom string
	// Project is the name of the project of DOCSBOT_PROJECTS_FILE these
	// settings are of, "" without the file.
	Project string
}

// API resolves the docs API settings of the flags given: today's
// settings, or, with DOCSBOT_PROJECTS_FILE, the project --project names.
func (e Env) API(flags settings.Values) (API, error) {
	s, err := e.Source(flags)
	if err != nil {
		return API{}, err
	}
	cfg, set, problems := e.apiSettings(s, s.Secrets(EnvRedisURL))
	switch {
	case len(problems) > 0:
		return API{}, cli.Usage(problems[0].Text, problems[0].Fix)
	case set.Implicit():
		return cfg, nil
	}
	p, err := pickProject(set, s.Flags[EnvProject])
	return projectConfig(p), err
}

// pickProject returns the project of set that --project names (by name, or
// by project id), or the only one when name is "".
func pickProject(set *project.Set, name string) (project.Project, error) {
	names := "its projects: " + strings.Join(set.Names(), ", ")
	if name == "" {
		if set.Len() == 1 {
			return set.All()[0], nil
		}
		return project.Project{}, cli.Usage(EnvProjectsFile+" lists several projects: pick one with --project NAME", names)
	}
	if p, ok := set.Get(name); ok {
		return p, nil
	}
	for _, p := range set.All() {
		if p.ID == name {
			return p, nil
		}
	}
	return project.Project{}, cli.Usage(fmt.Sprintf("--project %q is not a project of %s", name, EnvProjectsFile), names)
}

// projectConfig is how to reach the docs API for a project of the projects
// file.
func projectConfig(p project.Project) API {
	return API{APIURL: p.APIURL, APIKey: p.APIKey.Reveal(), ProjectID: p.ID, KeyFrom: p.KeyFrom, Project: p.Name}
}

// apiSettings resolves the docs API settings and lists every problem with
// them, most basic first, scrubbed of secrets. The projects are those of
// DOCSBOT_PROJECTS_FILE (nil when it cannot be loaded), or the one project of
// today's settings.
func (e Env) apiSettings(s settings.Source, secrets []string) (API, *project.Set, []Problem) {
	var cfg API
	var urlFrom string
	cfg.APIURL, urlFrom = s.Get(EnvAPIURL)
	cfg.APIKey, cfg.KeyFrom = s.Get(EnvAPIKey)
	cfg.ProjectID = s.Value(EnvProject)
	file := s.Value(EnvProjectsFile)

	var problems []Problem
	bad := func(name, text, fix string) {
		problems = append(problems, Problem{Vars: []string{name}, Text: bot.SecretKinds().Scrub(text, secrets...), Fix: fix})
	}
	switch {
	case settings.HasCredentials(cfg.APIURL):
		bad(EnvAPIURL, fmt.Sprintf("%s (from %s) must not contain credentials", EnvAPIURL, urlFrom),
			"put the API key in "+EnvAPIKey+" and set "+EnvAPIURL+" to the bare base URL, e.g. "+defaultOf(EnvAPIURL))
	case !settings.IsHTTPURL(cfg.APIURL):
		bad(EnvAPIURL, fmt.Sprintf("%s %s (from %s) is not an http(s) URL", EnvAPIURL, bot.SecretKinds().QuoteURL(cfg.APIURL, secrets...), urlFrom),
			"set it to the API base URL, e.g. "+defaultOf(EnvAPIURL))
	case !project.SecureURL(cfg.APIURL):
		bad(EnvAPIURL, fmt.Sprintf("%s %s (from %s)%s", EnvAPIURL, bot.SecretKinds().QuoteURL(cfg.APIURL, secrets...), urlFrom, insecure("docsbot sends the API key to it")),
			"set it to the API's https:// base URL, e.g. "+defaultOf(EnvAPIURL))
	default:
		cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	}
	if file != "" && bot.SecretKinds().Looks(file, secrets...) {
		bad(EnvProjectsFile, EnvProjectsFile+" holds a secret, not the path of a projects file",
			"keep keys where the projects file says (api_key_env, api_key_file); "+EnvProjectsFile+" is the file's path")
		return cfg, nil, problems
	}
	if file != "" && s.Flags[EnvAPIKey] != "" {
		bad(EnvAPIKey, "--api-key is not used with "+EnvProjectsFile+": each project's key is where the file says", "leave out --api-key")
	}
	if file != "" {
		set, err := e.loadProjects(s, file, cfg.APIURL)
		if err != nil {
			bad(EnvProjectsFile, EnvProjectsFile+": "+err.Error(), "fix the file: deploy/projects.example.yaml shows every field")
		}
		return cfg, set, problems
	}
	if cfg.APIKey == "" {
		problems = append(problems, Problem{Vars: []string{EnvAPIKey}, Missing: true,
			Text: EnvAPIKey + " is not set: create an admin API key on the API keys page of your docs dashboard and export " + EnvAPIKey + "=mint_...",
			Fix:  "(or put it in " + s.DotenvPath + ", or list your projects in " + EnvProjectsFile + ")"})
	}
	switch {
	case cfg.ProjectID == "":
		problems = append(problems, Problem{Vars: []string{EnvProject}, Missing: true,
			Text: EnvProject + " is not set: copy the project ID from the API keys page of your docs dashboard and export " + EnvProject + "=...",
			Fix:  "(or pass --project, or put it in " + s.DotenvPath + ")"})
	case bot.SecretKinds().Looks(cfg.ProjectID, secrets...):
		bad(EnvProject, EnvProject+" holds a secret, not a project ID: copy the project ID from the API keys page of your docs dashboard",
			"keep keys in "+EnvAPIKey+"; "+EnvProject+" is the project's ID, which is not secret")
	}
	if len(problems) == 0 && s.Flags[EnvAPIKey] != "" {
		fmt.Fprintln(e.Stderr, "docsbot: warning: --api-key is visible to other users in process lists; prefer "+EnvAPIKey+" in the environment or .env")
	}
	return cfg, project.Single(cfg.ProjectID, cfg.APIKey, cfg.APIURL), problems
}

// loadProjects loads the projects file at path (relative to the working
// directory), whose keys are in the environment or .env; apiURL is the API
// URL of the projects that name none.
func (e Env) loadProjects(s settings.Source, path, apiURL string) (*project.Set, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(e.Dir, path)
	}
	return project.Load(path, project.Options{DefaultAPIURL: apiURL, DefaultDiscoveryURL: discoveryURL(s), LookupEnv: func(name string) (string, bool) {
		if v, ok := e.LookupEnv(name); ok && strings.TrimSpace(v) != "" {
			return v, true
		}
		v, ok := s.Dotenv[name]
		return v, ok
	}})
}

// discoveryURL is DOCS_DISCOVERY_URL, without a trailing slash.
func discoveryURL(s settings.Source) string { return strings.TrimRight(s.Value(EnvDiscoveryURL), "/") }

// assistantSettings gives the implicit project of set the docs assistant of
// DOCS_ASSISTANT_KEY and DOCS_DOMAIN (with DOCS_DISCOVERY_URL and
// DOCS_SITE_URL) when both are set, and lists the problems: one of the two
// without the other, or the settings of one assistant beside a projects
// file, whose projects name their own. A set that could not be loaded (nil)
// stays nil.
func assistantSettings(s settings.Source, set *project.Set) (*project.Set, []Problem) {
	key, keyFrom := s.Get(EnvAssistantKey)
	domain, site := s.Value(EnvDomain), s.Value(EnvSiteURL)
	switch {
	case set == nil:
		return nil, nil
	case !set.Implicit():
		var given []string
		for _, env := range []string{EnvAssistantKey, EnvDomain, EnvSiteURL} {
			if s.Value(env) != "" {
				given = append(given, env)
			}
		}
		if len(given) == 0 {
			return set, nil
		}
		verb := " is"
		if len(given) > 1 {
			verb = " are"
		}
		return set, []Problem{{Vars: given,
			Text: strings.Join(given, " and ") + verb + " not used with " + EnvProjectsFile + ": each project of the file names its own assistant",
			Fix:  "give the projects that answer questions assistant_key_env (or assistant_key_file), domain and site_url in the file (deploy/projects.example.yaml), and remove " + strings.Join(given, " and ")}}
	case key != "" && domain != "":
		return set.WithAssistant(project.ImplicitName, project.Assistant{Key: project.NewSecret(key), KeyFrom: keyFrom, Domain: domain,
			DiscoveryURL: discoveryURL(s), SiteURL: site}), nil
	case key != "":
		return set, []Problem{{Vars: []string{EnvDomain},
			Text: EnvAssistantKey + " is set but " + EnvDomain + " is not: the assistant needs both",
			Fix:  "set " + EnvDomain + " to the docs site's domain, the last part of the dashboard's URL app.mintlify.com/ORG/DOMAIN (or remove " + EnvAssistantKey + " to turn the answers from the docs off)"}}
	case domain != "":
		return set, []Problem{{Vars: []string{EnvAssistantKey},
			Text: EnvDomain + " is set but " + EnvAssistantKey + " is not: the assistant needs both",
			Fix:  "create an assistant key on the API keys page of the docs dashboard and export " + EnvAssistantKey + "=" + docsapi.AssistantKeyPrefix + "... (or remove " + EnvDomain + ")"}}
	case site != "":
		// The docs site alone: no answers, but its links are unfurled.
		return set.WithAssistant(project.ImplicitName, project.Assistant{SiteURL: site}), nil
	}
	return set, nil
}

// Input names what sets a request field or setting of cfg: flagFor, or,
// for a project of the projects file, the file's fields.
func (cfg API) Input(field string) string {
	if cfg.Project == "" {
		return flagFor(field)
	}
	switch name := flagFor(field); name {
	case EnvAPIKey:
		if v, ok := strings.CutPrefix(cfg.KeyFrom, "environment variable "); ok {
			return v
		}
		return "api_key_file of project " + cfg.Project
	case EnvProject, EnvAPIURL:
		return map[string]string{EnvProject: "project_id", EnvAPIURL: "api_url"}[name] + " of project " + cfg.Project + " in " + EnvProjectsFile
	default:
		return name
	}
}

// AssistantInput names what sets a setting of the assistant of p, for
// term.ExplainAssistant: DOCS_ASSISTANT_KEY, DOCS_DOMAIN and
// DOCS_DISCOVERY_URL for the implicit project, else the fields of the
// projects file (the key's variable, when it is in one).
func AssistantInput(p project.Project) func(field string) string {
	return func(field string) string {
		if env, ok := map[string]string{"key": EnvAssistantKey, "domain": EnvDomain, "discoveryurl": EnvDiscoveryURL}[field]; ok && p.Implicit {
			return env
		}
		of := " of project " + p.Name + " in " + EnvProjectsFile
		switch field {
		case "key":
			if v, ok := strings.CutPrefix(p.Assistant.KeyFrom, "environment variable "); ok {
				return v
			}
			return "assistant_key_file" + of
		case "domain":
			return "domain" + of
		case "discoveryurl":
			return "discovery_url" + of + " (by default " + EnvDiscoveryURL + ")"
		}
		return field
	}
}

// flagFor names the flag, argument or setting that sets a request field.
func flagFor(field string) string {
	switch strings.ReplaceAll(strings.ToLower(field), " ", "") {
	case "prompt":
		return "--prompt"
	case "id", "jobid", "job":
		return "job ID"
	case "from", "datefrom", "fromdate":
		return "--from"
	case "to", "dateto", "todate":
		return "--to"
	case "interval":
		return "--interval"
	case "apikey", "key":
		return EnvAPIKey
	case "projectid", "project":
		return EnvProject
	case "baseurl", "url":
		return EnvAPIURL
	case "branch":
		return "BRANCH"
	case "statusid":
		return "status ID"
	}
	return field
}

// ProjectKeys are the keys the bot records each project's state by
// (bot.ProjectKey): "" alone without DOCSBOT_PROJECTS_FILE, else the name
// of each project of the file, in its order.
func (e Env) ProjectKeys(s settings.Source) ([]string, error) {
	file := s.Value(EnvProjectsFile)
	if file == "" {
		return []string{""}, nil
	}
	set, err := e.loadProjects(s, file, s.Value(EnvAPIURL))
	if err != nil {
		return nil, cli.Usage(EnvProjectsFile+": "+err.Error(), "fix the file (deploy/projects.example.yaml shows every field), or name one project with --project NAME")
	}
	var keys []string
	for _, p := range set.All() {
		keys = append(keys, bot.ProjectKey(p))
	}
	return keys, nil
}
