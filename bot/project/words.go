package project

import (
	"errors"
	"strings"

	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// The words every feature says a project in: a project=NAME that names no
// project, nothing or two projects, the projects there are and how to name
// one, a project no longer served, and a project's name after a noun or in
// a command. noun is what the person wrote: "command", "instruction".

// Names are the names of the projects served, in the order of the file
// (Set, bot.Projects).
type Names interface{ Names() []string }

// NotConnected is the private answer in a workspace that no docs project
// serves (*NoProjectsError).
const NotConnected = "docsbot has no docs connected in this workspace yet, so it cannot do this. " +
	"An admin of the workspace connects them from the *Settings* of docsbot's *Home* tab (open docsbot under *Apps* in Slack's sidebar)."

// Problem is the private answer to text whose project=NAME words
// name no project (*UnknownError), no name at all
// (*EmptyNameError) or two projects (*TokenError), or to a command in a
// workspace no project serves (*NoProjectsError): what is
// wrong and the projects of set. The names shown are the person's, cut and
// escaped once. It is "" for any other error.
func Problem(err error, set Names, noun string) string {
	if _, ok := errors.AsType[*NoProjectsError](err); ok {
		return NotConnected
	}
	if _, ok := errors.AsType[*EmptyNameError](err); ok {
		return "Write a project name after `project=`. The projects are " + projectNames(set.Names()) + "."
	}
	if unknown, ok := errors.AsType[*UnknownError](err); ok {
		if unknown.Name == "" {
			return "Write a project name after `project=`. The projects are " + projectNames(set.Names()) + "."
		}
		return "There is no docs project " + projectCode(unknown.Name) + ". " + Hint(set, noun)
	}
	if two, ok := errors.AsType[*TokenError](err); ok {
		return "Your " + noun + " names two docs projects, " + projectCode(two.First) + " and " + projectCode(two.Last) +
			": name one. The projects are " + projectNames(set.Names()) + "."
	}
	return ""
}

// IsProblem reports whether err is one Problem words: a
// project=NAME the person must fix.
func IsProblem(err error) bool {
	_, unknown := errors.AsType[*UnknownError](err)
	_, token := errors.AsType[*TokenError](err)
	_, none := errors.AsType[*NoProjectsError](err)
	return unknown || token || none
}

// Which asks in words which project a command is for, where no
// buttons can be shown (a command's work answering by its response_url).
func Which(set Names, noun string) string {
	if len(set.Names()) == 0 {
		return NotConnected
	}
	return "Which docs project? " + Hint(set, noun)
}

// Hint lists the projects of set and says how to name one.
func Hint(set Names, noun string) string { return hint(set.Names(), noun) }

// hint lists the projects named names and says how to name one.
func hint(names []string, noun string) string {
	return "The projects are " + projectNames(names) + ": write `project=NAME` at the start or the end of your " + noun + "."
}

// projectNames shows projects' names, each in code, escaped.
func projectNames(names []string) string {
	shown := make([]string, len(names))
	for i, n := range names {
		shown[i] = projectCode(n)
	}
	return strings.Join(shown, ", ")
}

// projectCode shows a project's name as the person typed it (Slack's
// escaping undone), cut, in code, escaped once; a backtick cannot end the
// code span.
func projectCode(name string) string {
	return "`" + mrkdwn.Escape(strings.ReplaceAll(mrkdwn.Cut(mrkdwn.Unescape(name), 40), "`", "ˋ")) + "`"
}

// NotServed says that docsbot does not serve (or reach) the project keyed
// key.
func NotServed(key string) string {
	return "docsbot no longer serves the docs project `" + mrkdwn.Escape(key) + "`."
}

// Of is " of project *api*" after a noun, or "" for an unnamed project
// (name "").
func Of(name string) string {
	if name == "" {
		return ""
	}
	return " of project *" + mrkdwn.Escape(name) + "*"
}

// OfPlain is Of without formatting, for notification text and file titles.
func OfPlain(name string) string {
	if name == "" {
		return ""
	}
	return " of project " + mrkdwn.Escape(name)
}

// Arg is what a command needs to name the project: " project=api", or ""
// for an unnamed project.
func Arg(name string) string {
	if name == "" {
		return ""
	}
	return " project=" + mrkdwn.Escape(name)
}
