package project

import (
	"log/slog"
	"slices"
	"strings"

	"github.com/docsbot/docsbot/bot/roles"
)

// ImplicitName is the name of the project Single builds from today's settings.
const ImplicitName = "default"

// Project is one docs project docsbot serves.
type Project struct {
	// Name is the short name people type (project=NAME), lower case, safe in
	// Redis keys.
	Name string
	// ID is the docs platform's project id.
	ID string
	// APIKey is the project's API key.
	APIKey Secret
	// KeyFrom says where the key was read, for messages: "environment
	// variable DOCS_API_KEY_DOCS" or "file /run/secrets/docs-key"; never the key.
	KeyFrom string
	// APIURL is the base URL of the docs platform API for this project.
	APIURL string
	// Channels are the Slack channel ids this project is the default for.
	Channels []string
	// Editors may start jobs and send follow-ups in this project, besides
	// the editors of every project (DOCSBOT_EDITORS).
	Editors roles.Editors
	// Experts are called to a help channel's question of this project
	// (Ask an expert), besides DOCSBOT_EXPERTS.
	Experts roles.Editors
	// Teams are the workspaces (team ids) and organisations (enterprise
	// ids) the project serves when docsbot is installed in many (install
	// mode); empty serves every one. See Set.ForWorkspace.
	Teams []string
	// VisitorsBudget names the analytics budget this project draws on;
	// projects of one organisation share one. By default the project's name.
	VisitorsBudget string
	// Implicit marks the project built from today's settings by Single.
	Implicit bool
	// Workspace is the workspace (team id) that connected the project from
	// Slack; "" for a project of the projects file or the settings.
	Workspace string
	// Assistant is how the project's docs assistant is reached, for the
	// answers from the docs; its zero value (no key) answers nothing.
	Assistant Assistant
}

// Assistant is what reaches a project's docs assistant.
type Assistant struct {
	// Key is the assistant key (mint_dsc_…).
	Key Secret
	// KeyFrom says where the key was read, for messages: "environment
	// variable DOCS_ASSISTANT_KEY_DOCS" or "file /run/secrets/assistant-key";
	// never the key.
	KeyFrom string
	// Domain is the docs site's subdomain the assistant answers for.
	Domain string
	// DiscoveryURL is the discovery API's address; "" for the default.
	DiscoveryURL string
	// SiteURL is the public docs site, which sources link to; "" for none.
	SiteURL string
}

// Set reports whether the assistant has a key and a domain.
func (a Assistant) Set() bool { return !a.Key.IsZero() && a.Domain != "" }

// WithAssistant returns a copy of s whose project name has the assistant a
// (the settings' assistant for the implicit project).
func (s *Set) WithAssistant(name string, a Assistant) *Set {
	ps := s.All()
	for i := range ps {
		if ps[i].Name == name {
			ps[i].Assistant = a
		}
	}
	return newSet(ps, s.implicit)
}

// Secret holds a credential. It prints, formats, logs and encodes as
// [redacted]; only Reveal gives the value.
type Secret struct{ v string }

// NewSecret wraps s.
func NewSecret(s string) Secret { return Secret{v: s} }

// Reveal returns the secret itself, for the one place that sends it.
func (s Secret) Reveal() string { return s.v }

// IsZero reports whether the secret is empty.
func (s Secret) IsZero() bool { return s.v == "" }

const redacted = "[redacted]"

// String hides the secret.
func (s Secret) String() string { return redacted }

// GoString hides the secret from %#v.
func (s Secret) GoString() string { return redacted }

// LogValue hides the secret from log/slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalJSON hides the secret from encoding/json.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalText hides the secret from encoders that use text (YAML, CSV helpers).
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// Set is the projects of one docsbot, in the order of the file.
type Set struct {
	projects  []Project
	byName    map[string]int
	byChannel map[string]int
	implicit  bool
	// scoped is true when some project names the Teams it serves.
	scoped bool
}

// Single returns the set of one project built from today's settings: the
// project id, API key and API URL as the command already reads and checks
// them. The set is Implicit.
func Single(projectID, apiKey, apiURL string) *Set {
	p := Project{
		Name:           ImplicitName,
		ID:             projectID,
		APIKey:         NewSecret(apiKey),
		KeyFrom:        "the DOCS_API_KEY setting",
		APIURL:         apiURL,
		VisitorsBudget: ImplicitName,
		Implicit:       true,
	}
	return newSet([]Project{p}, true)
}

// newSet indexes projects, which were validated.
func newSet(ps []Project, implicit bool) *Set {
	s := &Set{projects: ps, byName: map[string]int{}, byChannel: map[string]int{}, implicit: implicit}
	for i, p := range ps {
		s.byName[p.Name] = i
		for _, c := range p.Channels {
			s.byChannel[c] = i
		}
		s.scoped = s.scoped || len(p.Teams) > 0
	}
	return s
}

// None is the set of no project: docsbot started without docs, to have
// them connected from Slack.
func None() *Set { return newSet(nil, false) }

// With returns s with extra after its own projects (those connected from
// Slack): a set of named projects, where a name already in s is left out.
// s itself when extra is empty.
func (s *Set) With(extra ...Project) *Set {
	if len(extra) == 0 {
		return s
	}
	ps := s.All()
	for _, p := range extra {
		if _, taken := s.byName[p.Name]; !taken {
			ps = append(ps, p.clone())
		}
	}
	return newSet(ps, false)
}

// ForWorkspace returns the projects of s that serve the workspace team of
// the organisation enterprise (either may be ""): those naming neither in
// Teams serve it only when they name no teams at all. It returns s itself
// when no project names teams. A workspace served by none gets an empty
// set, which resolves nothing (NoProjectsError).
func (s *Set) ForWorkspace(team, enterprise string) *Set {
	if !s.scoped {
		return s
	}
	var ps []Project
	for _, p := range s.projects {
		if len(p.Teams) == 0 || team != "" && slices.Contains(p.Teams, team) || enterprise != "" && slices.Contains(p.Teams, enterprise) {
			ps = append(ps, p.clone())
		}
	}
	return newSet(ps, s.implicit)
}

// Implicit reports whether the set was built from today's settings rather
// than a projects file.
func (s *Set) Implicit() bool { return s.implicit }

// Len is the number of projects.
func (s *Set) Len() int { return len(s.projects) }

// All returns the projects in the order of the file.
func (s *Set) All() []Project {
	out := make([]Project, len(s.projects))
	for i, p := range s.projects {
		out[i] = p.clone()
	}
	return out
}

// Names returns the projects' names in the order of the file.
func (s *Set) Names() []string {
	out := make([]string, len(s.projects))
	for i, p := range s.projects {
		out[i] = p.Name
	}
	return out
}

// Get returns the project named name, in any case.
func (s *Set) Get(name string) (Project, bool) {
	i, ok := s.byName[strings.ToLower(name)]
	if !ok {
		return Project{}, false
	}
	return s.projects[i].clone(), true
}

// ForChannel returns the project that channel is the default for.
func (s *Set) ForChannel(channel string) (Project, bool) {
	i, ok := s.byChannel[channel]
	if !ok {
		return Project{}, false
	}
	return s.projects[i].clone(), true
}

// clone returns p with lists of its own.
func (p Project) clone() Project {
	p.Channels = slices.Clone(p.Channels)
	p.Teams = slices.Clone(p.Teams)
	p.Editors.Users = slices.Clone(p.Editors.Users)
	p.Editors.Groups = slices.Clone(p.Editors.Groups)
	p.Experts.Users = slices.Clone(p.Experts.Users)
	p.Experts.Groups = slices.Clone(p.Experts.Groups)
	return p
}
