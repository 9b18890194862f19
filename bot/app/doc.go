// Package app builds a docsbot replica: the core (bot.New) with every
// feature registered on it, each given the docs API clients of the projects
// it serves and the parts of the store it uses (store/doc.go, "Parts"). It
// is the one place a feature is wired: `docsbot serve`, the sandbox and
// every test harness build their bots with New from one Config, and adding
// a feature is one line in features (features.go).
//
// It also gathers what the features declare to Slack (Declarations: each
// feature's declare.Declaration, what its Register routes): the Slack app
// manifests are made of them (Manifest; deploy/slack-app-manifest*.yaml,
// checked by its test), doctor checks the bot token's scopes against them
// and the sandbox offers their commands.
//
// Like cmd, it is a composition root: it imports the core and every
// feature, which never import each other; what one feature uses of another
// (the Home reads the agent's jobs and the visitors' cache) passes through
// here.
package app
