package app

// Features is a set of the features New registers. The zero value is All:
// a harness that tests one feature alone names it.
type Features uint

const (
	// Agent is the docs agent's jobs (bot/agent).
	Agent Features = 1 << iota
	// Visitors is /docs-visitors and its digests (bot/visitors).
	Visitors
	// Home is the App Home tab (bot/home); it needs the agent.
	Home
	// Ask is the answers from the docs (bot/ask), for the projects that
	// have a docs assistant.
	Ask
	// Deploy is /docs-deploy: deployments and previews (bot/deploy).
	Deploy
	// Health is /docs-health: the docs health from the analytics
	// (bot/health).
	Health

	// All is every feature: what `docsbot serve` runs.
	All = Agent | Visitors | Home | Ask | Deploy | Health
)

// has reports whether f holds every feature of g; a zero f holds All.
func (f Features) has(g Features) bool {
	if f == 0 {
		f = All
	}
	return f&g == g
}
