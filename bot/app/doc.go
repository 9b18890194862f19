// Package app builds a docsbot replica: the core (bot.New) with every
// feature registered on it, each given the docs API clients of the projects
// it serves and the parts of the store it uses (store/doc.go, "Parts"). It
// is the one place a feature is wired: `docsbot serve`, the sandbox and
// every test harness build their bots with New, and adding a feature is one
// line in New (and a Features bit).
//
// Like cmd, it is a composition root: it imports the core and every
// feature, which never import each other; what one feature uses of another
// (the Home reads the agent's jobs and the visitors' cache) passes through
// here.
package app
