// Package store keeps docsbot's state in Redis: which Slack thread belongs to
// which agent job, the poll schedule shared by every replica, the inbox of
// acknowledged Slack work (which also drops redelivered events), the
// visitors cache and the API request budgets. It owns everything about
// Redis: connecting, the key layout, what a failure means, and the checks of
// docsbot doctor.
//
// # Keys
//
// All keys live under one prefix {p} (default "docsbot:"). The poll
// schedule and the inbox are split into Shards (16) parts; the shard of a
// job is a hash of its thread (team, channel, ts), that of a piece of work a
// hash of its key, and each shard's keys carry the shard's hash tag {sN}, so
// that everything a script touches together is in one Redis Cluster slot
// and the 16 slots spread over the primaries:
//
//	{p}{sN}:job:<id>                     hash: the job record (short field names, see job.go)
//	{p}{sN}:thread:<team>:<channel>:<ts> string: the job id linked to a thread
//	{p}{sN}:starting:<team>:<channel>:<ts>
//	                                     string: the work starting a job in the thread (ClaimStart)
//	{p}{sN}:sched                        sorted set: job id -> due time (unix ms, Redis clock)
//	{p}{sN}:inbox                        sorted set: work key -> due time (unix ms, Redis clock)
//	{p}{sN}:in:<key>                     hash: one piece of acknowledged Slack work, with its workspace (ws); a string once done (inbox_scripts.go)
//	{p}budget:{<name>}                   sorted set: requests taken in the sliding window
//	{p}budget:{<name>}:seq               string: sequence for request ids in the window
//	{p}budget:{<name>}:block             string: set while the API asked to wait (BlockBudget)
//	{p}budget:{<name>}:who:<who>         sorted set: one spender's requests in the window, their share (Draw)
//	{p}visitors:<key>                    hash: a cached visitors export (d) and when it was saved (at)
//	{p}report:<key>                      hash: a cached analytics report other than the visitors export (d) and when it was saved (at):
//	                                     a docs health view (health:...), the page figures links are unfurled with (unfurl:...)
//	{p}closed:<key>                      string: the export under visitors:<key> was fetched after its range's days closed (MarkClosedExport)
//	{p}retry:<team>:<channel>:<ts>       string: a start offered to be tried again (OfferRetry)
//	{p}recent:<team>:<user>              sorted set: job id -> created (unix ms); a person's last RecentKeep jobs
//	{p}running:<team>:<channel>          sorted set: job id -> created (unix ms); a channel's running jobs
//	{p}once:<name>                       string: the event name happened (Once), such as a person's
//	                                     feedback on a result (vote:...) or a job's live status shown; a
//	                                     replica reading the unfurls' page figures (unfurl-read:...), an
//	                                     assistant pane thread titled (assistant-title:...)
//	{p}day:{<project>}:<YYYY-MM-DD>      string: one day's unique visitors, "human,ai,total" (SaveDays)
//	{p}days:<project>:<first>..<last>    string: a range's unique visitors, "human,ai,total" (SaveRangeTotals)
//	{p}digest:subs                       hash: <team>:<channel>[:<project>] -> a channel's digest
//	                                     subscription to a project (JSON); no <project> for the implicit one
//	{p}digest:run:<team>:<channel>[:<project>]:<period>
//	                                     hash: the claims of one digest posting (tk, at, le, p; digest_run.go)
//	{p}digest:health:subs, {p}digest:health:run:...
//	                                     the same for the docs health digest (HealthDigests)
//	{p}choice:<team>:<user>              string: the project the person chose last (SetLastProject)
//	{p}homeseen:<team>:<user>            string: the person opened the App Home (NoteHomeOpened)
//	{p}pending:<id>                      string: a job start waiting for its project, or kept for Switch project (SavePending)
//	{p}deploy:<team>:<id>                string: a deployment's or preview's record (JSON, SaveDeploy, AddDeploy, UpdateDeploy)
//	{p}deploys:<team>                    sorted set: record id -> started (unix ms); a workspace's latest DeploysKept
//	{p}conv:<team>:<channel>:<ts>        string: an answer thread's conversation with the docs assistant (JSON,
//	                                     its asker and thread key included; UpdateConversation), kept while it may go on,
//	                                     cut to the turns sent again and the last answer as shown (Conversation.Keep)
//	{p}conv:<team>:<channel>:<ts>:<asker>
//	                                     string: the same, one asker's own in a thread answered privately
//	{p}help:modes                        hash: <channel> -> a channel's answer mode as set (JSON, SetMode)
//	{p}help:{calls}                      sorted set: <channel>:<ts> -> when a thread's expert reminder is due (ClaimReminders)
//	{p}help:{calls}:<channel>:<ts>       string: a thread's expert call (JSON, CallExpert, ResolveCall)
//	{p}help:{calls}:resolved:<project>   sorted set: <channel>:<ts> -> when its call was resolved (ResolveCall, ResolvedCalls)
//	{p}outcome:{p:<project>}:<team>:<channel>:<ts>
//	                                     string: a question's outcome record (JSON, UpdateOutcome; bot/outcome's table)
//	{p}outcome-ref:<team>:<channel>:<ts> string: "<project> <question ts>" for a question's message and its answer's
//	{p}outcomes:{p:<project>}:<team>:<YYYY-MM-DD> hash: a day's counts of the project's questions in a workspace (questions, o:<outcome>, sources,
//	                                     rated, helpful, others_up, others_down; OutcomeDays)
//	{p}outcome-asks:{p:<project>}:<team>:<YYYY-MM-DD> hash: a day's details of the same questions (ft:<tenths of a second> to
//	                                     the first text, t:<outcome>:<topic>, x:<topic> a question of it; OutcomeDays)
//	{p}outcome-teams:{p:<project>}       set: the workspaces the project's day counts hold (OutcomeTeams)
//	{p}pane:<team>:<dm>:<ts>             string: the channel looked at beside a pane thread (<ts> "" for the DM's), SetPaneContext
//	{p}wsset:<team>                      hash: setting key -> a workspace's setting set in Slack (JSON, WorkspaceSettings.Apply; Of reads one of several)
//	{p}audit                             stream: the audit trail, one entry per record (audit.go)
//	{p}confirm                           string: a counter each wait for the replicas increments, so that
//	                                     WAIT has a write of its own connection to wait for (WithReplicaAcks)
//
// (Braces are literal: they are the hash tags. A budget's keys share the tag
// of its name, its spenders' shares too, so that a Draw takes from the budget
// and a share in one script; a project's cached days share the project's tag,
// so that LoadDays reads a range with one MGET on a cluster too; a
// project's outcome records, day counts and details share the project's
// tag, so that one script changes a record and its day's counts; every other
// key is one key per command or script.) Keys of analytics and budgets name
// their project through their callers (the project id in the cache key, the
// project's visitors_budget): projects need nothing else of the store.
//
// A job's record, link and schedule entry are in its thread's shard, so
// JobByThread, FollowUp given the record, and every write of a claim find
// the shard at once; a lookup by id alone (Job, FollowUp given the id only,
// LinkJob's check that the id is not linked in another shard) asks all 16
// shards in one pipeline, and so do Lag, Tracked and Queued. The job lists
// (recent, running; joblists.go) are indexes written right after the script
// that changed a record, not inside it, since a person's jobs are in many
// shards (on one server, where a script may touch keys of any slot,
// LinkJob's and FollowUp's scripts write them); a failure to
// write them is logged, not returned: the change stands, and a caller told
// of an error would retry it.
//
// A prefix that has a hash tag itself (such as "{docsbot}:", which earlier
// versions asked for on a cluster) puts every key in that one slot: Redis
// hashes the first tag of a key only. That still works, but the shards then
// do not spread; the default prefix needs no tag.
//
// # Claiming at rest
//
// A Store keeps, per shard of the poll schedule and of the inbox, when its
// head is due (heads.go). Claim and ClaimWork run the claim script only on
// the shards due by what it knows, starting at a shard that rotates from call
// to call: no command when nothing is due. Its claim loops sleep until the
// earliest head (ClaimWait) or until Changed says one moved. Each claim
// script's reply sets the heads; they are lowered by:
//
//	what                                    how
//	this Store's own schedule writes        at once (LinkJob, FollowUp, Reschedule,
//	                                        a Finish that notifies, Enqueue, Defer)
//	a hand-back (Release, ReleaseWork), or  PUBLISH {p}wake "j<shard>" or "w<shard>":
//	  a write by a Store that does not      every Store's subscription lowers that head
//	  claim (docsbot-load, tests)
//	anything else (a lost wake-up, a        a read of every shard of both schedules in
//	writer that died before its wake-up)    one pipeline, at least every lookEvery (5 s)
//
// A lease that runs out needs no wake-up: the claim left the entry at its
// lease's end. So an entry is taken late only when both its writer's claim
// loop and its wake-up failed, and then at most lookEvery late. The agent's
// poller also waits a gather after a claim that caught up
// (claim.Runner.Gather), so that polls of a shard coming due together
// share one claim script, and the Reschedules of the jobs one script took
// are written by one script (settle.go). TestClaimCommands pins what that
// costs: a replica at rest sends 33 commands every 5 s (plus its gauges,
// Tracked and Queued, every 30 s), and a poll 3 + 6/k commands when a claim
// takes k jobs of a shard (9 for one).
//
// # Parts
//
// A Store is one connection and one namespace; what it keeps is split by
// concern into parts (parts.go), each a small value over the Store's
// connection and prefix (st.Jobs(), st.Inbox(), ...). The builder (bot/app)
// hands each part to what uses it, which declares the methods it calls in
// an interface of its own. The keys (under {p}) of each part:
//
//	Jobs           {sN}:job, {sN}:thread, {sN}:starting, {sN}:sched, recent, running
//	Inbox          {sN}:inbox, {sN}:in
//	Choices        choice
//	RetryOffers    retry
//	PendingStarts  pending
//	Limits         budget, once
//	Analytics      visitors, report, closed, day, days
//	Digests        digest:subs, digest:run (HealthDigests: digest:health:*)
//	HomeSeen       homeseen
//	Conversations  conv
//	Deploys        deploy, deploys
//	HelpChannels   help:modes, help:{calls}
//	AuditLog       audit
//	PaneContexts   pane
//	Outcomes       outcome, outcome-ref, outcomes, outcome-asks, outcome-teams
//	Installations  install:{i} (tokens sealed, seal.go), install:changed (pub/sub)
//	Connections    conn:{c} (docs keys sealed), conn:changed (pub/sub)
//	WorkspaceSettings  wsset (the settings set in Slack, per workspace), wsset:changed (pub/sub)
//	Stats          (reads only: INFO, MEMORY USAGE, the schedule's shards)
//
// The Store itself keeps what is about the whole connection or namespace:
// Open, Close, Ping, Topology, Check (docsbot doctor), DeletePrefix (the
// sandbox) and {p}confirm (WithReplicaAcks). A new piece of state goes in
// the part of its concern, or in a new part when it is a concern of its own.
// What the load tool (docsbot-load) measures is a part of its own, Stats
// (st.Stats(): Lag, UsedMemory, ServerStats, JobMemory; stats.go), that
// writes nothing; it uses Jobs and Inbox too: it links the jobs it seeds,
// and counts and checks what the bot left.
//
// # Exactly-once reporting
//
// Replicas take due jobs with Claim, which moves them a lease into the future
// and bumps the job's fencing token. Every later write of that claim
// (Reschedule, Finish, Untrack) checks the token and fails with ErrStale when
// another claim or a follow-up came in between. Finish hands out a
// notification while the job's generation is not yet reported and keeps the
// job scheduled a lease ahead, so that a replica dying before MarkNotified
// leaves the job to be claimed again; Job.NotifyAttempts tells a later
// attempt that an earlier one may already have posted. A digest's posting is
// claimed the same way (ClaimDigest), and so is the start of a job in a
// thread (ClaimStart), so that two posts starting one at once create one.
// StopFollowing (Stop in the assistant pane) marks a run no longer followed
// ('uf' on the record, read with every claim): its live message is edited
// no more, and its result is still handed out once as above.
//
// # The inbox
//
// Every piece of Slack work docsbot acknowledges (a slash command, a thread
// reply) is written with Enqueue before the ack, once per delivery key, so a
// redelivered envelope is dropped in the same write. Replicas take work with
// ClaimWork under a lease and a fencing token, exactly as they take polls: a
// replica that dies leaves its work to the next one when the lease ends. A
// replica whose claim loop has a free worker writes the work already claimed
// by itself, in the same script, and its next ClaimWork hands it out without
// a claim script (preclaim.go): the same lease and token, one script less. Mark
// records checkpoints that a later attempt reads (a checkpoint leaves the
// lease as it is, an empty Mark extends it); Done keeps only the record a
// redelivery needs to be dropped. Work is never expired while it waits.
//
// So what people wrote lives in Redis only while its work waits or runs:
// every message in a thread of a channel the bot is in is recorded before
// the ack (only the work can tell whether the thread is a job's), and a
// reply in a thread that is not a job's is dropped, with its text, as soon
// as the work has looked; a follow-up's text once it was sent. (The audit
// trail keeps an instruction's text only with AuditOptions.KeepText.)
//
// # Handing back
//
// A lease covers a crash: the next claim comes when it ends, long after any
// request the dead replica sent has landed. A graceful stop hands its claims
// back instead (Release, ReleaseWork, ReleaseDigest; claim.Runner
// decides): a claim its handler left unsettled comes due at once, but one
// whose handler was still running after the shutdown grace, and so was
// cancelled, comes due only after the landing window (bot.Config.
// LandingWindow). A request that left the process is not undone by
// cancelling its context: Slack or the docs API carries it out all the same,
// up to the landing window later. So a handler never treats a cancelled
// request as one that did not happen: the next attempt's check, made by every
// attempt after the first (Job.NotifyAttempts, Taken.Attempt,
// DigestClaim.Attempt), sees what it did; a cancelled create or follow-up
// call still reads as unknown (its intent mark says so) and the person is
// told.
//
// Work a replica queued claimed for itself and did not hand out yet goes
// back first, the moment its claim loop stops (Inbox.StopClaiming): from
// then on the replica, whose Slack socket stays open until its acks are
// out, queues what it records unclaimed and wakes the others for it, so no
// acknowledged work waits out a lease through a rolling update.
//
// # Audit records
//
// A record of the audit trail (AuditLog) is appended at least once. The bot
// writes a piece of work's records with the end of that work: on one server
// Inbox.Done appends them in its script, after the fencing check, so they
// are written once with the work's end or not at all (bot.AuditTrail.Work).
// Work that ends otherwise (deferred, handed back, its Done failing, on a
// Cluster where the trail is in another slot) appends them then, each with
// a mark of that work: a later attempt at the same work sees the mark and
// does not append again. A replica dying between an append and its mark
// appends it a second time, so every record carries the key of its work or delivery
// (AuditRecord.Work, the "work" column of `docsbot audit`): records with the
// same Work and Action are one event, and an export dedupes on that pair. A
// job's result carries "result:<job id>:<generation>".
//
// # Errors
//
// Every error the store returns says what kind of failure it was, decided in
// one place (the table of failures in errors.go, which classify and
// Temporary read) and read with errors.Is, besides the store's own
// ErrNotFound, ErrStale, ErrConflict and ErrInvalid. The original error
// stays in the chain (%w) for logs, unless its text held the URL's password:
// then only its scrubbed text is kept, so no error carries the password;
// Cause gives the words of Redis or the network for a message that names the
// Redis already. Nothing outside this package (and its test kit,
// store/redistest) imports go-redis, and no exported name of the package
// carries a go-redis type.
//
// # Time and atomicity
//
// Every due time and lease is computed inside Redis from its TIME command,
// so replicas with skewed clocks agree. A Reschedule reads no TIME: its
// Redis time is its claim's moved on by the replica's monotonic clock since
// the claim's reply came, so at most that reply's way early, never late (a
// Claim not made by Claim holds no clock: its Reschedule reads TIME). Every
// update that touches more than one key runs as one Lua script.
//
// # Sentinel and Cluster
//
// Open reads the topology from the URL (TopologyOf): one server, Sentinel
// (master_name and the sentinels' addresses; go-redis follows failovers), or
// Cluster (several addr seed nodes). With Sentinel, the writes that must
// survive a failover wait for one replica to confirm them, at most 100 ms
// (WithReplicaAcks). WAIT waits only for the last write of the connection
// it is sent on, and the client is a pool, so the wait writes {p}confirm and
// WAITs in one pipeline (one connection): the replication stream is ordered,
// so a replica that has that write has every write made before it.
//
// Enqueue, after which Slack is acknowledged, returns only once a replica
// has the record, whether the work is new or seen before (a redelivery is
// acknowledged on the strength of that record), or fails with
// ErrUnconfirmed, the record standing on the primary. The bot tries again
// within its budget (a retry finds the work seen and confirms it). If its
// budget runs out while the record is still unconfirmed, the bot
// acknowledges rather than tell a person that work about to run was not
// taken: only a failover in that moment can lose it, and a record so lost
// while a replica holds it comes back: the holder's next fenced write finds
// nothing (ErrNotFound, which nothing else causes: a done record stays as its
// trace) and writes it back as it knows it, with every checkpoint, claimed by
// itself (Inbox.Restore; bot/inbox.go). What a failover can
// lose besides: the sentinels could promote a replica that did not confirm
// a write (with two replicas, the other one; Sentinel prefers the most
// advanced replica but does not guarantee it), and the later writes (a
// work's checkpoints (Mark), LinkJob, a Finish that hands out a
// notification, MarkNotified, digest and audit records) wait the same way
// but succeed unconfirmed: they are made after the acknowledgement and have
// retries of their own, and one lost in a failover within their 100 ms is
// done again (a lost checkpoint repeats its step; a lost link leaves a job
// unfollowed). Run the nodes with min-replicas-to-write 1 (and two
// replicas, so that writes resume as soon as one is promoted): a primary
// that no replica follows, such as an old primary started again after a
// failover, then refuses writes (NOREPLICAS, classified ErrReadOnly and
// Temporary) instead of taking writes that its demotion would discard.
// Failures during a failover are ErrUnreachable or ErrReadOnly, both
// Temporary: callers retry.
//
// Scripts derive keys from the schedule and the inbox only within one
// shard, so docsbot runs on a cluster with any prefix without a hash tag.
// DeletePrefix scans every primary of a cluster. The package's tests run
// against one redis-server, and again against Sentinel and a three-node
// Cluster (DOCSBOT_TEST_REDIS=sentinel|cluster; make test does all three),
// besides a failover through real sentinels (TestSentinelFailover).
package store
