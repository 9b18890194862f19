// Package home is docsbot's App Home tab: what a person sees when they open
// the app in Slack. It shows their recent docs agent jobs (status, age,
// thread and pull request links), a "New docs job" button that opens the
// agent's job modal, a summary of the docs' visitors over the last 7 days
// taken from the visitors cache only, and the docs project the workspace is
// connected to; when the bot serves projects from a file, it lists them with
// the channels each is the default of, each job with its project (when the
// agent gives the jobs' records, JobRecords), and each project's cached
// visitors under its name.
//
// Editors also see how the questions docsbot answered came out over the
// last 7 days, against the 7 before (Quality, the docs health's figures,
// read from the store at each publish: counts, nobody's words).
//
// It reads the other features only through the small interfaces it
// declares: Jobs (the agent's recent jobs and its job-change hook) and
// Visitors (a project's cached summary), which *agent.Feature and
// *visitors.Feature satisfy; the builder (bot/app) passes them to
// Register. The button's action id
// is the core's jobdraft.ActionNewJob and the agent handles it: its value is the
// person's direct-message channel with docsbot, where the job starts a
// thread.
//
// How a Home is published. app_home_opened is an event like any other: it
// is recorded in the inbox as home.publish work keyed by its event_id
// before the ack, so a redelivery publishes nothing more. A change of one
// of a person's jobs (linked, followed up, finished) queues the same kind of
// work, keyed by the job, its run and its status. The work builds the whole
// view from what is stored now and calls views.publish, which replaces the
// Home: publishing twice shows the same, so a retried attempt is harmless.
// views.publish is rate tier 3 (about 50 a minute): the Slack client waits
// out a 429, and the publishes one replica is asked for the same person
// while one is under way collapse into one more (publisher). The person's
// direct-message channel comes with app_home_opened; a job change asks
// conversations.open (im:write) for it.
//
// A job change publishes only the Homes people look at: with Config.Seen
// (the store), the publish of an app_home_opened records that the person
// opened the Home (kept 90 days from their last open), and a job change of
// someone with no such record queues nothing; their next open publishes
// the Home as it is then. When the record cannot be read, the job change
// publishes anyway: better a wasted publish than a stale Home. Without
// Config.Seen every job change publishes. A person's /docs-visitors
// summary or chart and /docs-health summary republish their Home the same
// way (Fetches: the visitors' and the docs health's OnFetched, keyed by the
// command's work), so that a Home left open shows what was just fetched.
//
// The visitors summary and the docs health never spend the analytics
// budget: they are read from what the commands cached. The visitors are
// the export of the last 7 days ("/docs-visitors 7d"), else the totals a
// chart of them cached ("/docs-visitors 7d chart" counts the 7 whole days
// up to yesterday: visitors.Feature.CachedProjectSummary reads both); the
// docs health is the summary of the last 30 days ("/docs-health"), each
// project's under its name with a projects file. When none is cached, the
// Home says so and points to the command (with a projects file, for each
// project without one, "... project=NAME"), whose answer fills the cache
// for the next look. It offers no button that would fetch, because a Home
// has no channel to post a summary in and opening it must cost nothing.
package home
