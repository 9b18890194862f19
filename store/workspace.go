package store

import "strings"

// Workspace is the Slack workspace a piece of work or a record belongs to:
// its team id and, on Enterprise Grid, its enterprise (organisation) id.
// The store keeps the ids as they are and knows nothing more of Slack.
//
// The zero Workspace is "the one workspace": what a docsbot serving a
// single workspace (its tokens from the environment) records, and what
// records written before work named its workspace read as.
type Workspace struct {
	Team       string
	Enterprise string
}

// IsZero reports whether w names no workspace.
func (w Workspace) IsZero() bool { return w == Workspace{} }

// String is w as the store keeps it: "team", "team@enterprise" on
// Enterprise Grid, "" for the zero Workspace.
func (w Workspace) String() string {
	if w.Enterprise == "" {
		return w.Team
	}
	return w.Team + "@" + w.Enterprise
}

// ParseWorkspace reads what Workspace.String wrote; "" is the zero
// Workspace.
func ParseWorkspace(s string) Workspace {
	team, enterprise, _ := strings.Cut(s, "@")
	return Workspace{Team: team, Enterprise: enterprise}
}

// MarshalText writes w as String does: records keep it as one string.
func (w Workspace) MarshalText() ([]byte, error) { return []byte(w.String()), nil }

// UnmarshalText reads what MarshalText wrote.
func (w *Workspace) UnmarshalText(b []byte) error {
	*w = ParseWorkspace(string(b))
	return nil
}
