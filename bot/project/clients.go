package project

import (
	"fmt"

	"github.com/docsbot/docsbot/docsapi"
)

// ClientError is Clients' error: the docs API client of Project could not
// be built, for Err (a *docsapi.ValidationError, say).
type ClientError struct {
	// Project is the name of the project.
	Project string
	Err     error
}

func (e *ClientError) Error() string {
	return fmt.Sprintf("the docs API client of project %s: %v", e.Project, e.Err)
}

func (e *ClientError) Unwrap() error { return e.Err }

// Clients builds one docs API client per project of set, keyed by the
// project's name: each with the project's key, id and URL, then opts (an
// HTTP client, a logger, a retry policy). It fails with a *ClientError
// naming the first project whose client could not be built.
func Clients(set *Set, opts ...docsapi.Option) (map[string]*docsapi.Client, error) {
	clients := make(map[string]*docsapi.Client, set.Len())
	for _, p := range set.All() {
		c, err := Client(p, opts...)
		if err != nil {
			return nil, err
		}
		clients[p.Name] = c
	}
	return clients, nil
}

// Client builds p's docs API client: its key, id and URL (the client's
// default when p has none), then opts. An error is a *ClientError.
func Client(p Project, opts ...docsapi.Option) (*docsapi.Client, error) {
	if p.APIURL != "" {
		opts = append([]docsapi.Option{docsapi.WithBaseURL(p.APIURL)}, opts...)
	}
	c, err := docsapi.NewClient(p.APIKey.Reveal(), p.ID, opts...)
	if err != nil {
		return nil, &ClientError{Project: p.Name, Err: err}
	}
	return c, nil
}

// Views is clients seen as a feature's view of the docs API (as says how),
// by the same names: the APIs bot/app gives a feature's Register.
func Views[T any](clients map[string]*docsapi.Client, as func(*docsapi.Client) T) map[string]T {
	out := make(map[string]T, len(clients))
	for name, c := range clients {
		out[name] = as(c)
	}
	return out
}

// Assistants builds the docs assistant of each project that has one
// (Project.Assistant), by project name, with opts added to its settings. A
// client that cannot be built is a *ClientError.
func Assistants(set *Set, opts ...docsapi.Option) (map[string]*docsapi.Assistant, error) {
	out := map[string]*docsapi.Assistant{}
	for _, p := range set.All() {
		a, err := AssistantOf(p, opts...)
		if err != nil {
			return nil, err
		}
		if a != nil {
			out[p.Name] = a
		}
	}
	return out, nil
}

// AssistantOf builds p's docs assistant, nil when p has none
// (Assistant.Set). An error is a *ClientError.
func AssistantOf(p Project, opts ...docsapi.Option) (*docsapi.Assistant, error) {
	if !p.Assistant.Set() {
		return nil, nil
	}
	if p.Assistant.DiscoveryURL != "" {
		opts = append([]docsapi.Option{docsapi.WithDiscoveryURL(p.Assistant.DiscoveryURL)}, opts...)
	}
	a, err := docsapi.NewAssistant(p.Assistant.Key.Reveal(), p.Assistant.Domain, opts...)
	if err != nil {
		return nil, &ClientError{Project: p.Name, Err: err}
	}
	return a, nil
}
