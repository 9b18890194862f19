package roles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/docsbot/docsbot/bot/slackid"
)

// Editors are the Slack users and user groups that may change docs.
type Editors struct {
	// Users are user ids (U…, W…).
	Users []string
	// Groups are user group ids (S…).
	Groups []string
}

// ParseEditors sorts Slack ids into users and groups by their prefix: U or W
// for a user, S for a user group. Blank entries are skipped and repeats kept
// once. An id of another kind or with characters Slack ids never have is an
// error naming it.
func ParseEditors(ids []string) (Editors, error) {
	var e Editors
	for _, raw := range ids {
		id := strings.TrimSpace(raw)
		if id == "" {
			continue
		}
		if !validID(id) {
			return Editors{}, fmt.Errorf("editor %q: want a Slack user id (U…, W…) or user group id (S…)", id)
		}
		switch id[0] {
		case 'U', 'W':
			if !slices.Contains(e.Users, id) {
				e.Users = append(e.Users, id)
			}
		case 'S':
			if !slices.Contains(e.Groups, id) {
				e.Groups = append(e.Groups, id)
			}
		}
	}
	return e, nil
}

// validID reports whether id looks like a Slack user or user group id: U, W
// or S, then capital letters and digits (slackid.Valid), slackid.MaxLen
// characters at most.
func validID(id string) bool {
	return len(id) <= slackid.MaxLen && slackid.Valid(id, "UWS")
}

// Empty reports whether e names nobody.
func (e Editors) Empty() bool { return len(e.Users) == 0 && len(e.Groups) == 0 }

// merge returns the editors of all lists, each once, users and groups in the
// order the lists name them.
func merge(lists []Editors) Editors {
	var all Editors
	for _, l := range lists {
		for _, u := range l.Users {
			if !slices.Contains(all.Users, u) {
				all.Users = append(all.Users, u)
			}
		}
		for _, g := range l.Groups {
			if !slices.Contains(all.Groups, g) {
				all.Groups = append(all.Groups, g)
			}
		}
	}
	return all
}

// maxMentions is how many editors a refusal names before "and N more".
const maxMentions = 10

// Mentions names the editors as Slack mentions (<@U…>, <!subteam^S…>),
// groups first, at most ten and then how many more there are; "" when e is
// empty. The ids were checked by ParseEditors, so the text needs no escaping.
func (e Editors) Mentions() string {
	var m []string
	for _, g := range e.Groups {
		m = append(m, "<!subteam^"+g+">")
	}
	for _, u := range e.Users {
		m = append(m, "<@"+u+">")
	}
	if len(m) > maxMentions {
		more := len(m) - maxMentions
		return strings.Join(m[:maxMentions], ", ") + fmt.Sprintf(" and %d more", more)
	}
	return strings.Join(m, ", ")
}
