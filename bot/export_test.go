package bot

import "github.com/docsbot/docsbot/store"

// WorkOf is the work t claimed from st, as the inbox runner hands it to a
// handler, for tests of the work's own methods (step_test.go).
func WorkOf(st Inbox, t store.Taken) *Work { return &Work{Taken: t, st: st} }
