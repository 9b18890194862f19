package project

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// LastChoices keeps the project each person chose last, per workspace
// (store.Choices implements it).
type LastChoices interface {
	// LastProject returns the name the person chose last, or "" if none.
	LastProject(ctx context.Context, team, user string) (string, error)
	// SetLastProject remembers the person's choice.
	SetLastProject(ctx context.Context, team, user, name string) error
}

// Source says how a Resolver decided.
type Source int

const (
	// Asking: nothing decided; the caller asks with buttons.
	Asking Source = iota
	// Only: the set has one project.
	Only
	// ByToken: the command said project=NAME.
	ByToken
	// ByChannel: the channel's default project.
	ByChannel
	// ByLastChoice: the project the person chose last.
	ByLastChoice
)

func (s Source) String() string {
	switch s {
	case Only:
		return "only"
	case ByToken:
		return "token"
	case ByChannel:
		return "channel"
	case ByLastChoice:
		return "last choice"
	}
	return "ask"
}

// Request is a command to route.
type Request struct {
	Team, Channel, User string
	// Text is the command's text, which may carry project=NAME.
	Text string
}

// Resolution is where a command goes.
type Resolution struct {
	// Project is the project decided on; zero when Ask.
	Project Project
	// Source says how it was decided.
	Source Source
	// Text is the command's text without the project=NAME word.
	Text string
	// Ask is true when nothing decided: the caller asks the person with
	// buttons, one for each of Choices, and calls Remember with the answer.
	Ask bool
	// Choices are the projects to ask about, in the order of the file.
	Choices []Project
}

// UnknownError is a project=NAME naming no project. Name is the person's
// text: escape it before showing it in Slack.
type UnknownError struct {
	Name  string
	Known []string
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("project %q is not one of %s", e.Name, strings.Join(e.Known, ", "))
}

// TokenError is a command with two different project=NAME words.
type TokenError struct{ First, Last string }

func (e *TokenError) Error() string {
	return fmt.Sprintf("the command names two projects, %q and %q; name one", e.First, e.Last)
}

// EmptyNameError is a project= word with no name after it. It unwraps to an
// *UnknownError of the empty name, so that a caller that knows only
// UnknownError still takes it for a name the person must fix; a caller that
// knows it asks for a name instead (errors.As).
type EmptyNameError struct {
	// Known are the names of the projects, when the Resolver found it.
	Known []string
}

func (e *EmptyNameError) Error() string { return "project= names no project" }

// Unwrap returns the *UnknownError of the empty name.
func (e *EmptyNameError) Unwrap() error { return &UnknownError{Name: "", Known: e.Known} }

// NoProjectsError is a command in a workspace that no project serves
// (Set.ForWorkspace gave none): its docs are not connected yet.
type NoProjectsError struct{}

func (e *NoProjectsError) Error() string { return "no docs project serves this workspace" }

// Resolver decides which project a command is for.
type Resolver struct {
	set  *Set
	last LastChoices
}

// NewResolver returns a Resolver over set, remembering choices in last.
func NewResolver(set *Set, last LastChoices) *Resolver {
	return &Resolver{set: set, last: last}
}

// Resolve decides req's project: project=NAME in the text, else the
// channel's default, else the person's last choice, else Ask. A set of one
// project always resolves to it (an Implicit set without reading the text at
// all). A name that is no project is an *UnknownError, two names a
// *TokenError, a project= word without a name an *EmptyNameError, a set
// of none a *NoProjectsError; an error of LastChoices is returned wrapped. Resolve
// remembers nothing: call Remember when the person chose (by project=NAME or
// by a button).
func (r *Resolver) Resolve(ctx context.Context, req Request) (Resolution, error) {
	if r.set.Len() == 0 {
		return Resolution{Text: req.Text}, &NoProjectsError{}
	}
	if r.set.Implicit() {
		return Resolution{Project: r.set.projects[0].clone(), Source: Only, Text: req.Text}, nil
	}
	name, rest, found, err := CutToken(req.Text)
	if empty, ok := errors.AsType[*EmptyNameError](err); ok {
		empty.Known = r.set.Names()
		return Resolution{}, empty
	}
	if err != nil {
		return Resolution{}, err
	}
	res := Resolution{Text: rest}
	if found {
		p, ok := r.set.Get(name)
		if !ok {
			return Resolution{}, &UnknownError{Name: name, Known: r.set.Names()}
		}
		res.Project, res.Source = p, ByToken
		return res, nil
	}
	if r.set.Len() == 1 {
		res.Project, res.Source = r.set.projects[0].clone(), Only
		return res, nil
	}
	if p, ok := r.set.ForChannel(req.Channel); ok {
		res.Project, res.Source = p, ByChannel
		return res, nil
	}
	if r.last != nil && req.User != "" {
		last, err := r.last.LastProject(ctx, req.Team, req.User)
		if err != nil {
			return Resolution{}, fmt.Errorf("project: last choice of %s: %w", req.User, err)
		}
		if p, ok := r.set.Get(last); ok && last != "" {
			res.Project, res.Source = p, ByLastChoice
			return res, nil
		}
	}
	res.Ask, res.Source, res.Choices = true, Asking, r.set.All()
	return res, nil
}

// Remember keeps name as the person's last choice. A name that is no project
// is an *UnknownError.
func (r *Resolver) Remember(ctx context.Context, team, user, name string) error {
	p, ok := r.set.Get(name)
	if !ok {
		return &UnknownError{Name: name, Known: r.set.Names()}
	}
	if r.last == nil || r.set.Implicit() {
		return nil
	}
	if err := r.last.SetLastProject(ctx, team, user, p.Name); err != nil {
		return fmt.Errorf("project: remember %s for %s: %w", p.Name, user, err)
	}
	return nil
}

// tokenKey starts the word that names a project.
const tokenKey = "project="

// CutToken finds project=NAME as the first or the last word of text (the key
// in any case) and returns NAME in lower case and the text without that word,
// its other spacing kept. A project=NAME elsewhere is part of the text. Two
// words naming different projects are a *TokenError; a project= word with
// no name (first or last) is an *EmptyNameError.
func CutToken(text string) (name, rest string, found bool, err error) {
	rest = text
	if n, r, ok := cutFirst(rest); ok {
		if n == "" {
			return "", text, false, &EmptyNameError{}
		}
		name, rest, found = n, r, true
	}
	if n, r, ok := cutLast(rest); ok {
		if n == "" {
			return "", text, false, &EmptyNameError{}
		}
		if found && n != name {
			return "", text, false, &TokenError{First: name, Last: n}
		}
		name, rest, found = n, r, true
	}
	return name, rest, found, nil
}

// tokenName returns the name in word if word is project=NAME.
func tokenName(word string) (string, bool) {
	if len(word) < len(tokenKey) || !strings.EqualFold(word[:len(tokenKey)], tokenKey) {
		return "", false
	}
	return strings.ToLower(word[len(tokenKey):]), true
}

func cutFirst(text string) (name, rest string, ok bool) {
	trimmed := strings.TrimLeftFunc(text, unicode.IsSpace)
	end := strings.IndexFunc(trimmed, unicode.IsSpace)
	if end < 0 {
		end = len(trimmed)
	}
	name, ok = tokenName(trimmed[:end])
	if !ok {
		return "", text, false
	}
	return name, strings.TrimLeftFunc(trimmed[end:], unicode.IsSpace), true
}

func cutLast(text string) (name, rest string, ok bool) {
	trimmed := strings.TrimRightFunc(text, unicode.IsSpace)
	start := strings.LastIndexFunc(trimmed, unicode.IsSpace) + 1
	name, ok = tokenName(trimmed[start:])
	if !ok {
		return "", text, false
	}
	return name, strings.TrimRightFunc(trimmed[:start], unicode.IsSpace), true
}
