// Package visitors is docsbot's /docs-visitors feature: a summary of a
// documentation site's visitors (human and AI) over a date range, posted in
// the channel.
//
// It holds the command's parser (ranges such as 7d, 2025-11-01..2025-11-07,
// last-month, and the top=, path= and sort= options), the cache of exports
// shared by every replica, the analytics request budget they share, the
// walk over the export's pages, the renderer of the summary, and its kind of
// inbox work (visitors.summary). It needs the docs API and Redis only through
// VisitorsAPI and VisitorsStore, and Slack only through the core (package
// bot).
//
// How work flows. Register puts the command and the work handler on a
// *bot.Bot. Help, refusals and input errors are answered in the ack; a
// summary is recorded in the core's inbox keyed by the command's trigger_id,
// then acked. The replica that takes the work reads the range as of when the
// command was received and answers from the cache when it is fresh. If not,
// it pays for each export request from the shared budget before sending it
// (as many as the last export took, reserved up front, then one per further
// page; what is unused is given back; a 429 blocks the budget for its
// Retry-After), walks the pages (docsapi.VisitorPages), caches the merged
// export and posts the summary through the command's response_url. When the
// budget is spent it answers from a stale copy, saying how old it is, or
// else tells the person privately when to try again.
package visitors
