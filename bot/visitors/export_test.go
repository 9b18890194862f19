package visitors

// Names of the package's inbox work and checkpoints, for tests that play a
// replica which died mid-work.
const (
	WorkVisitors = workVisitors
	MarkNote     = markNote
	NoteShown    = noteShown
	NoteCleared  = noteCleared
)
