// Package project knows the docs projects one docsbot serves and decides
// which of them a Slack command is for.
//
// # The projects file
//
// DOCSBOT_PROJECTS_FILE names a YAML file (deploy/projects.example.yaml)
// listing the projects: for each a short name (what people type in
// project=NAME, and part of Redis keys), the project id, where its API key is
// (api_key_env: an environment variable; api_key_file: a file, relative to the
// projects file), and optionally the API URL, the channels it is the default
// for, its editors (Slack user and user group ids, see bot/roles) and the
// visitors budget it draws on. The key itself is never in the file: Load reads
// it from where the file says, keeps it in a Secret (which prints and logs as
// [redacted]) and names only the variable or file in its errors.
//
// A project whose docs answer questions (/docs-ask, Project.Assistant) has
// an assistant key, the docs site's discovery key (mint_dsc_…), named like the
// API key by assistant_key_env or assistant_key_file, and its domain (the last
// part of the dashboard's URL app.mintlify.com/ORG/DOMAIN); one without the
// other is refused, and so is an assistant key of another docs kind. Optional
// beside them: site_url, the public docs site that sources link to, and
// discovery_url, the discovery API (Options.DefaultDiscoveryURL,
// DOCS_DISCOVERY_URL, by default). A project without them answers no
// questions.
//
// Load decodes strictly: unknown fields, repeated fields, values of the wrong
// shape and invalid names are refused, and every error names the file, the line
// and the field (*FileError). Names are unique and safe inside a Redis key;
// project ids are unique; a channel is the default of one project at most.
//
// Without the file, Single builds one project from today's settings
// (DOCS_PROJECT_ID, DOCS_API_KEY, DOCS_API_URL), and Set.WithAssistant gives
// it the assistant of DOCS_ASSISTANT_KEY and DOCS_DOMAIN. Such a set is Implicit:
// commands are used as they are (no project= token is taken out of them) and
// callers keep today's Redis keys and budget, so nothing changes for an
// installation that does not use the file.
//
// # Visitors budgets
//
// The docs platform allows 100 analytics requests an hour per organisation,
// shared by all its projects. Projects of one organisation therefore name the
// same visitors_budget; a project without one has a budget of its own, named
// like the project.
//
// # Which project a command is for
//
// A Resolver decides, in this order: a project=NAME word at the start or the
// end of the command's text (taken out of the text), the channel's default
// project, the person's last choice (LastChoices, kept in Redis by the store),
// and otherwise nothing: the caller asks with buttons (Resolution.Ask, with the
// choices). A set of one project always resolves to it.
package project
