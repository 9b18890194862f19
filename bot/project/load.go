package project

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slackid"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/secret"
)

// Options are what Load takes from the rest of the settings.
type Options struct {
	// DefaultAPIURL is the API URL of projects without api_url (DOCS_API_URL).
	DefaultAPIURL string
	// DefaultDiscoveryURL is the discovery API's URL of the projects with an
	// assistant and without discovery_url (DOCS_DISCOVERY_URL); "" leaves
	// it to the docs API client's default.
	DefaultDiscoveryURL string
	// LookupEnv reads an environment variable; os.LookupEnv when nil.
	LookupEnv func(name string) (string, bool)
}

// FileError is a problem with the projects file: which file, where in it and
// what. It never holds an API key.
type FileError struct {
	Path string
	// Line is the line of the problem; 0 when it concerns the whole file.
	Line int
	// Field is the field concerned, such as "channels"; "" for none.
	Field string
	Err   error
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString("projects file " + e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ", line %d", e.Line)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ", field %s", e.Field)
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

func (e *FileError) Unwrap() error { return e.Err }

// The fields of a project in the file.
const (
	fieldName     = "name"
	fieldID       = "project_id"
	fieldKeyEnv   = "api_key_env"
	fieldKeyFile  = "api_key_file"
	fieldAPIURL   = "api_url"
	fieldChannels = "channels"
	fieldEditors  = "editors"
	fieldExperts  = "experts"
	fieldBudget   = "visitors_budget"
	fieldTeams    = "teams"

	fieldAssistantKeyEnv  = "assistant_key_env"
	fieldAssistantKeyFile = "assistant_key_file"
	fieldDomain           = "domain"
	fieldSiteURL          = "site_url"
	fieldDiscoveryURL     = "discovery_url"
)

// fields are a project's fields, in the order errors list them.
var fields = []string{fieldName, fieldID, fieldKeyEnv, fieldKeyFile, fieldAPIURL, fieldChannels, fieldEditors, fieldExperts, fieldBudget, fieldTeams,
	fieldAssistantKeyEnv, fieldAssistantKeyFile, fieldDomain, fieldSiteURL, fieldDiscoveryURL}

// The shapes of names, ids and domains, checked byte by byte: every byte
// must be ASCII of the shape's classes, as in the regular expressions they
// were, whose bounded repetitions ({1,128}) compiled into programs that took
// a quarter of a megabyte of every replica's heap for as long as it ran.
// shapes_test.go checks each against its expression.

// validName: a project or budget name, `^[a-z0-9][a-z0-9_-]{0,31}$`: short,
// lower case, and without the characters that mean something in Redis keys
// or patterns.
func validName(s string) bool { return shaped(s, lowerOrDigit, nameByte, 32) }

// validID: a project id that is safe in a URL path, `^[A-Za-z0-9._-]{1,128}$`.
func validID(s string) bool { return shaped(s, idByte, idByte, 128) }

// validEnvName: an environment variable's name, `^[A-Za-z_][A-Za-z0-9_]*$`.
func validEnvName(s string) bool { return shaped(s, letterOrUnderscore, envByte, -1) }

// validDomainShape: a docs site's domain, safe in a URL path,
// `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`.
func validDomainShape(s string) bool { return shaped(s, letterOrDigit, idByte, 128) }

// shaped reports whether s is 1 to most bytes long (most < 0: no limit), its
// first byte one first accepts and every other one rest accepts.
func shaped(s string, first, rest func(byte) bool, most int) bool {
	if s == "" || most >= 0 && len(s) > most || !first(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !rest(s[i]) {
			return false
		}
	}
	return true
}

func lowerOrDigit(c byte) bool       { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
func letterOrDigit(c byte) bool      { return lowerOrDigit(c) || 'A' <= c && c <= 'Z' }
func letterOrUnderscore(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func nameByte(c byte) bool           { return lowerOrDigit(c) || c == '_' || c == '-' }
func idByte(c byte) bool             { return letterOrDigit(c) || c == '.' || c == '_' || c == '-' }
func envByte(c byte) bool            { return letterOrDigit(c) || c == '_' }

// ValidDomain reports whether d looks like the domain of a docs site as the
// assistant takes it (Assistant.Domain): the last part of the dashboard's
// URL, letters, digits, ., - or _, not a URL, and no key pasted there.
// DOCS_DOMAIN is checked by it too.
func ValidDomain(d string) bool { return validDomainShape(d) && !looksSecret(d) }

// looksSecret reports whether v holds a docs key or a Slack token.
func looksSecret(v string) bool {
	return secret.Kinds(append(slackid.TokenKinds(), docsapi.KeyPrefix)).Looks(v)
}

// quote is v in quotes for an error, or "this value" when it may be a
// secret: a key or a URL with credentials.
func quote(v string) string {
	if looksSecret(v) || strings.Contains(v, "@") {
		return "this value"
	}
	return strconv.Quote(v)
}

// validChannel reports whether c looks like a public or private channel id:
// C or G, then capital letters and digits (slackid.Valid), 3 to
// slackid.MaxLen characters.
func validChannel(c string) bool {
	return len(c) >= 3 && len(c) <= slackid.MaxLen && slackid.Valid(c, "CG")
}

// maxKeyFile is the largest key file Load reads.
const maxKeyFile = 4096

// Load reads the projects file at path and the API keys it points to. See the
// package documentation for what it checks; every error is a *FileError.
func Load(path string, opts Options) (*Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			err = fmt.Errorf("cannot read it: %w", pe.Err)
		}
		return nil, &FileError{Path: path, Err: err}
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	l := &loader{path: path, opts: opts}
	ps, err := l.parse(data)
	if err != nil {
		return nil, err
	}
	return newSet(ps, false), nil
}

// loader reads one projects file.
type loader struct {
	path string
	opts Options
}

// fail returns a *FileError at node n (nil: the whole file).
func (l *loader) fail(n *yaml.Node, field string, format string, args ...any) error {
	e := &FileError{Path: l.path, Field: field, Err: fmt.Errorf(format, args...)}
	if n != nil {
		e.Line = n.Line
	}
	return e
}

// entry is a project as read, with the nodes its checks point at.
type entry struct {
	p            Project
	node         *yaml.Node
	nameAt, idAt *yaml.Node
	// key and assistantKey are where the API key and the assistant key are.
	key, assistantKey keyRef
	domainAt          *yaml.Node
	channelAt         map[string]*yaml.Node
}

// keyRef is where the file says a key is: an environment variable or a
// file, with the nodes that name them.
type keyRef struct {
	env, file     string
	envAt, fileAt *yaml.Node
	// fieldEnv and fieldFile are the fields that name them; what is the
	// key's name in errors ("API key").
	fieldEnv, fieldFile, what string
}

// given reports whether the file names a place of the key.
func (k keyRef) given() bool { return k.envAt != nil || k.fileAt != nil }

func (l *loader) parse(data []byte) ([]Project, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, l.fail(nil, "", "the file is empty: list the projects under projects:")
		}
		return nil, l.fail(nil, "", "not valid YAML: %w", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, l.fail(&extra, "", "more than one YAML document; write one")
	}
	if len(doc.Content) == 0 {
		return nil, l.fail(nil, "", "the file is empty: list the projects under projects:")
	}
	top := deref(doc.Content[0])
	if top.Kind != yaml.MappingNode {
		return nil, l.fail(top, "", "want a mapping with projects: at the top")
	}
	var list *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], deref(top.Content[i+1])
		if k.Value != "projects" {
			return nil, l.fail(k, k.Value, "unknown field; the top level has only projects:")
		}
		if list != nil {
			return nil, l.fail(k, k.Value, "given twice")
		}
		list = v
	}
	if list == nil || list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		at := top
		if list != nil {
			at = list
		}
		return nil, l.fail(at, "projects", "want a list of at least one project")
	}
	entries := make([]*entry, 0, len(list.Content))
	for _, item := range list.Content {
		e, err := l.project(deref(item))
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	if err := l.checkUnique(entries); err != nil {
		return nil, err
	}
	ps := make([]Project, len(entries))
	for i, e := range entries {
		if err := l.readKeys(e); err != nil {
			return nil, err
		}
		ps[i] = e.p
	}
	return ps, nil
}

// project reads and checks one project's mapping.
func (l *loader) project(n *yaml.Node) (*entry, error) {
	if n.Kind != yaml.MappingNode {
		return nil, l.fail(n, "", "want a project (name:, project_id:, ...), not a single value or a list")
	}
	e := &entry{node: n, channelAt: map[string]*yaml.Node{},
		key:          keyRef{fieldEnv: fieldKeyEnv, fieldFile: fieldKeyFile, what: "API key"},
		assistantKey: keyRef{fieldEnv: fieldAssistantKeyEnv, fieldFile: fieldAssistantKeyFile, what: "assistant key"}}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		field := k.Value
		if seen[field] {
			return nil, l.fail(k, field, "given twice")
		}
		seen[field] = true
		var err error
		switch field {
		case fieldName:
			e.nameAt = v
			e.p.Name, err = l.scalar(v, field)
		case fieldID:
			e.idAt = v
			e.p.ID, err = l.scalar(v, field)
		case fieldKeyEnv:
			e.key.envAt = v
			e.key.env, err = l.secretRef(v, field)
		case fieldKeyFile:
			e.key.fileAt = v
			e.key.file, err = l.secretRef(v, field)
		case fieldAssistantKeyEnv:
			e.assistantKey.envAt = v
			e.assistantKey.env, err = l.secretRef(v, field)
		case fieldAssistantKeyFile:
			e.assistantKey.fileAt = v
			e.assistantKey.file, err = l.secretRef(v, field)
		case fieldAPIURL:
			e.p.APIURL, err = l.url(v, field, "https://api.mintlify.com")
		case fieldDiscoveryURL:
			e.p.Assistant.DiscoveryURL, err = l.url(v, field, docsapi.DefaultDiscoveryURL)
		case fieldSiteURL:
			e.p.Assistant.SiteURL, err = l.url(v, field, "https://docs.example.com")
		case fieldDomain:
			e.domainAt = v
			e.p.Assistant.Domain, err = l.scalar(v, field)
			if err == nil && e.p.Assistant.Domain != "" && !ValidDomain(e.p.Assistant.Domain) {
				err = l.fail(v, field, "%s: want the docs site's domain, the last part of the dashboard's URL app.mintlify.com/ORG/DOMAIN (letters, digits, ., - or _; not a URL, not a key)", quote(e.p.Assistant.Domain))
			}
		case fieldChannels:
			err = l.channels(v, e)
		case fieldTeams:
			err = l.teams(v, e)
		case fieldEditors:
			e.p.Editors, err = l.editors(v, fieldEditors)
		case fieldExperts:
			e.p.Experts, err = l.editors(v, fieldExperts)
		case fieldBudget:
			e.p.VisitorsBudget, err = l.scalar(v, field)
			if err == nil && !validName(e.p.VisitorsBudget) {
				err = l.fail(v, field, "%q: want 1 to 32 lower-case letters, digits, - or _, starting with a letter or digit", e.p.VisitorsBudget)
			}
		case "api_key":
			err = l.fail(k, field, "the key itself never goes in this file: name the environment variable holding it in %s, or the file holding it in %s", fieldKeyEnv, fieldKeyFile)
		case "assistant_key":
			err = l.fail(k, field, "the key itself never goes in this file: name the environment variable holding it in %s, or the file holding it in %s", fieldAssistantKeyEnv, fieldAssistantKeyFile)
		default:
			err = l.fail(k, field, "unknown field; a project has %s", strings.Join(fields, ", "))
		}
		if err != nil {
			return nil, err
		}
	}
	return e, l.complete(e)
}

// complete checks what a project must have and fills in the defaults.
func (l *loader) complete(e *entry) error {
	p := &e.p
	switch {
	case e.nameAt == nil || p.Name == "":
		return l.fail(e.node, fieldName, "missing: every project needs a short name")
	case !validName(p.Name):
		return l.fail(e.nameAt, fieldName, "%q: want 1 to 32 lower-case letters, digits, - or _, starting with a letter or digit", p.Name)
	case e.idAt == nil || p.ID == "":
		return l.fail(e.node, fieldID, "missing in project %q", p.Name)
	case !validID(p.ID):
		return l.fail(e.idAt, fieldID, "%q: want the project id from the API keys page of the dashboard (letters, digits, ., - or _)", p.ID)
	case !e.key.given():
		return l.fail(e.node, fieldKeyEnv, "project %q needs %s or %s", p.Name, fieldKeyEnv, fieldKeyFile)
	}
	if err := l.checkKeyRef(p.Name, e.key, "DOCS_API_KEY_"); err != nil {
		return err
	}
	if err := l.checkKeyRef(p.Name, e.assistantKey, "DOCS_ASSISTANT_KEY_"); err != nil {
		return err
	}
	// An assistant needs its key and its domain; the URLs alone are let be.
	switch a := &p.Assistant; {
	case e.assistantKey.given() && a.Domain == "":
		return l.fail(e.node, fieldDomain, "project %q has an assistant key (%s) but no %s: give the docs site's domain, the last part of the dashboard's URL app.mintlify.com/ORG/DOMAIN",
			p.Name, e.assistantKey.field(), fieldDomain)
	case !e.assistantKey.given() && a.Domain != "":
		return l.fail(e.domainAt, fieldAssistantKeyEnv, "project %q has a %s but no assistant key: name the environment variable holding its mint_dsc_ key in %s, or the file in %s",
			p.Name, fieldDomain, fieldAssistantKeyEnv, fieldAssistantKeyFile)
	case e.assistantKey.given() && a.DiscoveryURL == "":
		a.DiscoveryURL = l.opts.DefaultDiscoveryURL
	}
	if p.APIURL == "" {
		p.APIURL = l.opts.DefaultAPIURL
	}
	if p.VisitorsBudget == "" {
		p.VisitorsBudget = p.Name
	}
	return nil
}

// checkKeyRef checks where a key of project name is: in a variable or a
// file, not both, and a variable's name (like hint followed by the
// project's name). No place at all is the caller's to judge.
func (l *loader) checkKeyRef(name string, k keyRef, hint string) error {
	switch {
	case k.envAt != nil && k.fileAt != nil:
		return l.fail(k.fileAt, k.fieldFile, "project %q has both %s and %s; give one", name, k.fieldEnv, k.fieldFile)
	case k.envAt != nil && !validEnvName(k.env):
		return l.fail(k.envAt, k.fieldEnv, "want the name of an environment variable, such as %s%s", hint, strings.ToUpper(strings.ReplaceAll(name, "-", "_")))
	}
	return nil
}

// field is the field that names the key's place.
func (k keyRef) field() string {
	if k.envAt != nil {
		return k.fieldEnv
	}
	return k.fieldFile
}

// checkUnique refuses repeated names and ids, and a channel that is the
// default of two projects.
func (l *loader) checkUnique(entries []*entry) error {
	names := map[string]*entry{}
	ids := map[string]*entry{}
	channels := map[string]*entry{}
	for _, e := range entries {
		if first, ok := names[e.p.Name]; ok {
			return l.fail(e.nameAt, fieldName, "%q is the name of the project at line %d too", e.p.Name, first.nameAt.Line)
		}
		names[e.p.Name] = e
		if first, ok := ids[e.p.ID]; ok {
			return l.fail(e.idAt, fieldID, "project %q has the project id of %q (line %d)", e.p.Name, first.p.Name, first.idAt.Line)
		}
		ids[e.p.ID] = e
		for _, c := range e.p.Channels {
			if first, ok := channels[c]; ok {
				return l.fail(e.channelAt[c], fieldChannels, "%s is already the default channel of project %q (line %d); a channel has one default project", c, first.p.Name, first.channelAt[c].Line)
			}
			channels[c] = e
		}
	}
	return nil
}

// readKeys reads the project's API key, and its assistant key when it has
// one, from where the file says. An assistant key of another docs kind (the
// admin key) is refused: it cannot work.
func (l *loader) readKeys(e *entry) error {
	key, from, err := l.readKey(e.p.Name, e.key)
	if err != nil {
		return err
	}
	e.p.APIKey, e.p.KeyFrom = key, from
	if !e.assistantKey.given() {
		return nil
	}
	key, from, err = l.readKey(e.p.Name, e.assistantKey)
	if err != nil {
		return err
	}
	if v := key.Reveal(); strings.HasPrefix(v, docsapi.KeyPrefix) && !strings.HasPrefix(v, docsapi.AssistantKeyPrefix) {
		k := e.assistantKey
		at := k.envAt
		if at == nil {
			at = k.fileAt
		}
		return l.fail(at, k.field(), "project %q: the %s holds another kind of docs key (an admin API key?), not an assistant key: create an assistant key (%s…) on the API keys page of the docs dashboard",
			e.p.Name, from, docsapi.AssistantKeyPrefix)
	}
	e.p.Assistant.Key, e.p.Assistant.KeyFrom = key, from
	return nil
}

// readKey reads a key of project name from where k says, and says where
// that is: "environment variable X" or "file P".
func (l *loader) readKey(name string, k keyRef) (Secret, string, error) {
	if k.envAt != nil {
		v, ok := l.opts.LookupEnv(k.env)
		v = strings.TrimSpace(v)
		if !ok || v == "" {
			return Secret{}, "", l.fail(k.envAt, k.fieldEnv, "the environment variable %s of project %q is not set", k.env, name)
		}
		if strings.ContainsAny(v, " \t\r\n") {
			return Secret{}, "", l.fail(k.envAt, k.fieldEnv, "the environment variable %s of project %q holds more than one word; want the %s alone", k.env, name, k.what)
		}
		return NewSecret(v), "environment variable " + k.env, nil
	}
	path := k.file
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(l.path), path)
	}
	f, err := os.Open(path)
	if err != nil {
		return Secret{}, "", l.fail(k.fileAt, k.fieldFile, "project %q: %w", name, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return Secret{}, "", l.fail(k.fileAt, k.fieldFile, "project %q: %w", name, err)
	}
	v := strings.TrimSpace(string(data))
	switch {
	case len(data) > maxKeyFile:
		return Secret{}, "", l.fail(k.fileAt, k.fieldFile, "project %q: %s is larger than a key (%d bytes at most)", name, path, maxKeyFile)
	case v == "":
		return Secret{}, "", l.fail(k.fileAt, k.fieldFile, "project %q: %s is empty", name, path)
	case strings.ContainsAny(v, " \t\r\n"):
		return Secret{}, "", l.fail(k.fileAt, k.fieldFile, "project %q: %s holds more than one word; want the %s alone", name, path, k.what)
	}
	return NewSecret(v), "file " + path, nil
}

// scalar returns a single value; null is "".
func (l *loader) scalar(n *yaml.Node, field string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", l.fail(n, field, "want a single value, not a list or a mapping")
	}
	if n.Tag == "!!null" {
		return "", nil
	}
	return strings.TrimSpace(n.Value), nil
}

// secretRef is scalar for the fields naming where a key is (api_key_env,
// api_key_file, assistant_key_env, assistant_key_file), whose errors never
// quote the value: it might be the key, put there by mistake.
func (l *loader) secretRef(n *yaml.Node, field string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", l.fail(n, field, "want one name")
	}
	v := strings.TrimSpace(n.Value)
	if looksSecret(v) {
		return "", l.fail(n, field, "this looks like a key itself; the key never goes in this file: name the environment variable or file that holds it")
	}
	if v == "" {
		return "", l.fail(n, field, "want one name")
	}
	return v, nil
}

// list returns the values of a list of single values; null is none.
func (l *loader) list(n *yaml.Node, field string) ([]*yaml.Node, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, l.fail(n, field, "want a list, such as [%s]", map[string]string{fieldChannels: "C0123ABCD", fieldTeams: "T0123ABCD, E0456EFGH", fieldEditors: "U0123ABCD, S0456EFGH", fieldExperts: "U0123ABCD, S0456EFGH"}[field])
	}
	out := make([]*yaml.Node, len(n.Content))
	for i, item := range n.Content {
		item = deref(item)
		if item.Kind != yaml.ScalarNode {
			return nil, l.fail(item, field, "want single values in the list")
		}
		out[i] = item
	}
	return out, nil
}

func (l *loader) channels(n *yaml.Node, e *entry) error {
	return l.ids(n, fieldChannels, validChannel, "want a channel id (C… or G…, from the channel's details), not its name", func(c string, at *yaml.Node) {
		e.p.Channels = append(e.p.Channels, c)
		e.channelAt[c] = at
	})
}

// teams reads the workspaces (team ids, T…) and organisations (enterprise
// ids, E…) a project serves.
func (l *loader) teams(n *yaml.Node, e *entry) error {
	return l.ids(n, fieldTeams, validTeam, "want a workspace id (T…) or an organisation id (E…, for an org-wide install), as `docsbot workspaces` lists them", func(t string, _ *yaml.Node) {
		e.p.Teams = append(e.p.Teams, t)
	})
}

// ids reads the list of ids of field: each valid (else want says what is
// wanted), none twice, each given to add with its node.
func (l *loader) ids(n *yaml.Node, field string, valid func(string) bool, want string, add func(id string, at *yaml.Node)) error {
	items, err := l.list(n, field)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, item := range items {
		id := strings.TrimSpace(item.Value)
		if !valid(id) {
			return l.fail(item, field, "%q: %s", id, want)
		}
		if seen[id] {
			return l.fail(item, field, "%s is listed twice", id)
		}
		seen[id] = true
		add(id, item)
	}
	return nil
}

// validTeam: a Slack team (T…) or enterprise (E…) id, upper-case letters
// and digits.
func validTeam(s string) bool {
	if len(s) < 2 || len(s) > 32 || (s[0] != 'T' && s[0] != 'E') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !('A' <= s[i] && s[i] <= 'Z' || '0' <= s[i] && s[i] <= '9') {
			return false
		}
	}
	return true
}

// editors reads a list of user and user group ids (editors, experts).
func (l *loader) editors(n *yaml.Node, field string) (roles.Editors, error) {
	items, err := l.list(n, field)
	if err != nil {
		return roles.Editors{}, err
	}
	ids := make([]string, len(items))
	for i, item := range items {
		if _, err := roles.ParseEditors([]string{item.Value}); err != nil {
			return roles.Editors{}, l.fail(item, field, "%w", err)
		}
		ids[i] = item.Value
	}
	return roles.ParseEditors(ids)
}

// url is scalar for a URL field: an https URL without credentials (http
// only to this machine: SecureURL), such as example; null is "".
func (l *loader) url(n *yaml.Node, field, example string) (string, error) {
	raw, err := l.scalar(n, field)
	if err != nil || raw == "" {
		return raw, err
	}
	u, err := url.Parse(raw)
	switch {
	case err == nil && u.User != nil:
		return "", l.fail(n, field, "the URL carries a user name or password; keys go where %s, %s, %s or %s say", fieldKeyEnv, fieldKeyFile, fieldAssistantKeyEnv, fieldAssistantKeyFile)
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		return "", l.fail(n, field, "%s: want an http(s) URL such as %s", quote(raw), example)
	case !SecureURL(raw):
		why := "docsbot sends the project's key to it"
		if field == fieldSiteURL {
			why = "the sources of answers link people to it"
		}
		return "", l.fail(n, field, "%s: want an https:// URL such as %s, as %s and over http anyone on the way could read or change what passes "+
			"(http:// only to this machine: 127.0.0.1, [::1], localhost)", quote(raw), example, why)
	}
	return raw, nil
}

// deref follows an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// ValidID reports whether s may be a project id (safe in a URL path).
func ValidID(s string) bool { return validID(s) }

// NameFrom makes a project name of s (a docs domain, say): lower case,
// every byte a name may not hold a -, at most 32 bytes; "docs" when
// nothing is left.
func NameFrom(s string) string {
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if !nameByte(c) {
			b[i] = '-'
		}
	}
	name := strings.Trim(string(b[:min(len(b), 32)]), "-_")
	if !validName(name) {
		return "docs"
	}
	return name
}
