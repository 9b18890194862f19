package bot

import (
	"errors"
	"strings"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
)

// The words every feature answers a project=NAME with that names no
// project, nothing or two projects, and that list the projects there are.
// noun is what the person wrote: "command", "instruction".

// ProjectNames are the names of the projects served, in the order of the
// file (project.Set, Bot.Projects).
type ProjectNames interface{ Names() []string }

// ProjectProblem is the private answer to text whose project=NAME words
// name no project (*project.UnknownError), no name at all
// (*project.EmptyNameError) or two projects (*project.TokenError): what is
// wrong and the projects of set. The names shown are the person's, cut and
// escaped once. It is "" for any other error.
func ProjectProblem(err error, set ProjectNames, noun string) string {
	if _, ok := errors.AsType[*project.EmptyNameError](err); ok {
		return "Write a project name after `project=`. The projects are " + projectNames(set.Names()) + "."
	}
	if unknown, ok := errors.AsType[*project.UnknownError](err); ok {
		if unknown.Name == "" {
			return "Write a project name after `project=`. The projects are " + projectNames(set.Names()) + "."
		}
		return "There is no docs project " + projectCode(unknown.Name) + ". " + ProjectsHint(set, noun)
	}
	if two, ok := errors.AsType[*project.TokenError](err); ok {
		return "Your " + noun + " names two docs projects, " + projectCode(two.First) + " and " + projectCode(two.Last) +
			": name one. The projects are " + projectNames(set.Names()) + "."
	}
	return ""
}

// IsProjectProblem reports whether err is one ProjectProblem words: a
// project=NAME the person must fix.
func IsProjectProblem(err error) bool {
	_, unknown := errors.AsType[*project.UnknownError](err)
	_, token := errors.AsType[*project.TokenError](err)
	return unknown || token
}

// WhichProject asks in words which project a command is for, where no
// buttons can be shown (a command's work answering by its response_url).
func WhichProject(set ProjectNames, noun string) string {
	return "Which docs project? " + ProjectsHint(set, noun)
}

// ProjectsHint lists the projects of set and says how to name one.
func ProjectsHint(set ProjectNames, noun string) string { return projectsHint(set.Names(), noun) }

func projectsHint(names []string, noun string) string {
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
