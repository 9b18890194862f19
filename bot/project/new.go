package project

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
)

// New returns the set of projects given, in that order, checked like Load
// checks a projects file: each has a valid name and project id and an API
// key, an http(s) API URL when one is given, and channel ids; names and ids
// are unique and a channel is the default of one project at most. A
// VisitorsBudget left empty is the project's name. It is for composition
// roots that build their projects in code (the sandbox, the test kit);
// errors never hold a key.
func New(projects ...Project) (*Set, error) {
	if len(projects) == 0 {
		return nil, errors.New("projects: want at least one project")
	}
	ps := make([]Project, len(projects))
	names, ids, channels := map[string]string{}, map[string]string{}, map[string]string{}
	for i, p := range projects {
		p = p.clone()
		p.Implicit = false
		if err := checkProject(p); err != nil {
			return nil, err
		}
		if p.VisitorsBudget == "" {
			p.VisitorsBudget = p.Name
		}
		if _, ok := names[p.Name]; ok {
			return nil, fmt.Errorf("projects: %q is the name of two projects", p.Name)
		}
		names[p.Name] = p.Name
		if first, ok := ids[p.ID]; ok {
			return nil, fmt.Errorf("projects: project %q has the project id of %q", p.Name, first)
		}
		ids[p.ID] = p.Name
		for j, c := range p.Channels {
			if slices.Contains(p.Channels[:j], c) {
				return nil, fmt.Errorf("projects: project %q lists channel %s twice", p.Name, c)
			}
			if first, ok := channels[c]; ok {
				return nil, fmt.Errorf("projects: %s is already the default channel of project %q; a channel has one default project", c, first)
			}
			channels[c] = p.Name
		}
		ps[i] = p
	}
	return newSet(ps, false), nil
}

// checkProject checks one project given to New.
func checkProject(p Project) error {
	switch {
	case !validName(p.Name):
		return fmt.Errorf("projects: name %q: want 1 to 32 lower-case letters, digits, - or _, starting with a letter or digit", p.Name)
	case !validID(p.ID):
		return fmt.Errorf("projects: project %q: project id %q: want letters, digits, ., - or _", p.Name, p.ID)
	case p.APIKey.IsZero():
		return fmt.Errorf("projects: project %q has no API key", p.Name)
	case p.VisitorsBudget != "" && !validName(p.VisitorsBudget):
		return fmt.Errorf("projects: project %q: visitors budget %q: want 1 to 32 lower-case letters, digits, - or _", p.Name, p.VisitorsBudget)
	}
	if p.APIURL != "" {
		u, err := url.Parse(p.APIURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
			return fmt.Errorf("projects: project %q: API URL: want an http(s) URL without a user name or password", p.Name)
		}
	}
	for _, c := range p.Channels {
		if !validChannel(c) {
			return fmt.Errorf("projects: project %q: %q: want a channel id (C… or G…)", p.Name, c)
		}
	}
	for _, t := range p.Teams {
		if !validTeam(t) {
			return fmt.Errorf("projects: project %q: %q: want a workspace id (T…) or an organisation id (E…)", p.Name, t)
		}
	}
	return nil
}
