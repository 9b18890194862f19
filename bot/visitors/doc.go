// Package visitors is docsbot's /docs-visitors feature: a summary of a
// documentation site's visitors (human and AI) over a date range, posted in
// the channel.
//
// It holds the command's parser (ranges such as 7d, 2025-11-01..2025-11-07,
// last-month, and the top=, path= and sort= options), the cache of exports
// shared by every replica, the analytics request budget they share, the
// walk over the export's pages, the renderer of the summary, and its kind of
// inbox work (visitors.summary). It needs the docs API and Redis only through
// VisitorsAPI and Deps, and Slack only through the core (package
// bot).
//
// How work flows. Register puts the command and the work handler on a
// *bot.Bot. Help, refusals and input errors are answered in the ack; a
// summary is recorded in the core's inbox keyed by the command's trigger_id,
// then acked. The replica that takes the work reads the range as of when the
// command was received and answers from the cache when it is fresh, or when
// it was fetched once every day of its range was closed (store.DayClosed,
// store.Analytics.MarkClosedExport): such a copy cannot change, so it is reused past
// the TTL for as long as it is kept (last-month, the week before a 7d
// compare); a copy fetched while a day was open is not. If not,
// it pays for each export request from the shared budget before sending it
// (as many as the last export took, reserved up front, then one per further
// page; what is unused is given back; a 429 blocks the budget for its
// Retry-After), walks the pages (docsapi.VisitorPages), caches the merged
// export and posts the summary through the command's response_url. An
// export of several requests shows a private progress note, deleted before
// the answer is posted (progress.go), so it never outlives it. When the
// budget is spent it answers from a stale copy, saying how old it is, or
// else tells the person privately when to try again.
//
// Whole days. The analytics count in UTC days, and today is only partly
// counted. The summary and the CSV include today so far (spanNote says
// "today so far"). Chart and compare work on whole days (mode.wholeDays): a
// relative range (7d, 12w, this-month, a start date alone) ends with
// yesterday, the last closed day (dateRange.EndsYesterday; the answer reads
// "the last 7 whole days, Nov 16 – Nov 22, 2026" and says today is left
// out), and the history they may reach is counted back from yesterday. A
// range typed up to today is kept by chart, which draws today apart
// (insight.Trend.Partial); compare ends it with yesterday
// (dateRange.TodayLeftOut) and says so, and refuses a range of today alone
// in the ack. The digest reports whole UTC days of its own (digest.Slot).
//
// Beyond the summary. The same command, with one more word, asks for:
//
//   - chart (and the summary's "Show trend" button, which answers in the
//     summary's thread; kind visitors.trend): daily unique visitors, as
//     Slack's own line chart for up to 20 whole days known (native.go, with
//     the numbers in its text), else, or where Slack refuses charts, drawn by
//     package insight and uploaded with files.getUploadURLExternal and
//     files.completeUploadExternal. Each day costs one request (limit=1) and
//     is kept in the store's day cache for every replica (closed days for
//     400 days), so a chart drawn again costs nothing. The cost and what is
//     left of the budget are told privately before anything is spent; when
//     the budget cannot pay for every day, the latest days are fetched and
//     the rest drawn as gaps and named. A chart that would spend more than
//     askAbove (40) asks the person first, privately, with a Spend and a
//     Cancel button (spend.go, ActionSpend); only they may answer, Spend
//     queues the chart (visitors.trend) approved for that much, Cancel
//     spends nothing.
//   - compare: the range against the one before it (insight.Compare), from
//     the two exports (cached like the summary's).
//   - csv: every page of the export as a CSV file, its paths kept from being
//     read as formulas (csvexport.WriteVisitors, shared with the CLI).
//   - digest weekly|daily|off|status: a channel's subscription (store). The
//     core's digest loop on every replica (digests.Digests.Register, with
//     digestFeed) looks every Config.DigestTick
//     for postings owed (package digest, on Config.Now) and posts each once
//     across replicas: store.Digests.ClaimDigest hands it to one replica,
//     and the core posts it (digests.Digests.Post, its table in bot/digests):
//     the claim renewed right before posting and marked posted after, an
//     earlier post of the period (message metadata DigestEvent) looked for
//     by a claim taken over from a replica that died first, and a post Slack
//     refuses for good not tried again, the person who subscribed told in a
//     direct message (the subscription stopped when the channel cannot take
//     posts at all; another refusal skips the period, told once per kind).
//     Numbers that cannot be fetched (the analytics fail, the budget has no
//     room) hand the posting back to the next tick, until that tick would
//     come after the posting's window: then the period is skipped and the
//     subscriber told why (digests.Digests.HandBack).
//
// Projects. A bot with a projects file (bot.Config.Projects) serves several
// docs projects (projects.go). The ack decides each command's project with
// b.Projects().Resolve: project=NAME at the start or the end of the text (kept
// as the person's last choice by the work), the channel's default, the
// person's last choice; else it asks privately with a button per project
// (ActionChooseProject), whose value carries the command's text, and a click
// runs it there and remembers the choice. When the ack could not decide
// (the last choice could not be read in time), the work does, and asks or
// answers through the response_url, else in the channel, else in a direct
// message (tell.go). A project=NAME naming no project,
// or two, is answered privately in the ack with the projects' names, and
// nothing is asked of any API. Each project's numbers come from its own
// client (given to Register, by project name, the implicit one's included)
// and are cached under its project id; its requests are paid from the
// analytics budget its visitors_budget names (bot.AnalyticsBudgetName:
// "analytics:<name>", bot.Config.Analytics), so projects of one
// organisation share one, as does every other analytics feature. Each
// request is a draw of the person who asked (bot.AnalyticsLimits.Draw:
// their share an hour, a guest's or another organisation's person's the
// smaller one, bot.SpenderOf; never the digests' reserve) or of the digest
// (scheduled: the whole budget); a refusal tells the person what they have
// left, when it frees up and which limit is why. The Show trend and
// Improve this page buttons carry the project's key (bot.ProjectKey), a
// digest subscription records it (store.DigestSub.Project) and its postings
// are claimed per channel, project and period. Every answer says which
// project it is for. The implicit project (no projects file) keeps the keys,
// the budget "analytics" and the answers of before; a subscription made
// before projects existed is the implicit or only project's, else that of
// its channel's default, and gives way to one made for that project.
// `digest status` without project=NAME, when the bot serves several
// projects, decides no project: it lists every digest of the channel, one
// line per project (store.Digests.ChannelDigestSubs, digest_status.go).
//
// Options a mode has no use for are refused in the ack, before any request.
// Each page row of the summary (and of "fell most") has a button with
// action_id jobdraft.ActionImprovePage whose value is the page and its figures
// (JSON); the docs agent's feature handles it.
package visitors
