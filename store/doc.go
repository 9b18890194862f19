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
//	{p}{sN}:in:<key>                     hash: one piece of acknowledged Slack work (inbox_scripts.go)
//	{p}budget:{<name>}                   sorted set: requests taken in the sliding window
//	{p}budget:{<name>}:seq               string: sequence for request ids in the window
//	{p}budget:{<name>}:block             string: set while the API asked to wait (BlockBudget)
//	{p}budget:{<name>}:who:<who>         sorted set: one spender's requests in the window, their share (Draw)
//	{p}visitors:<key>                    hash: a cached visitors export (d) and when it was saved (at)
//	{p}report:<key>                      hash: a cached analytics report other than the visitors export (d) and when it was saved (at)
//	{p}closed:<key>                      string: the export under visitors:<key> was fetched after its range's days closed (MarkClosedExport)
//	{p}retry:<team>:<channel>:<ts>       string: a start offered to be tried again (OfferRetry)
//	{p}recent:<team>:<user>              sorted set: job id -> created (unix ms); a person's last RecentKeep jobs
//	{p}running:<team>:<channel>          sorted set: job id -> created (unix ms); a channel's running jobs
//	{p}once:<name>                       string: the event name happened (Once), such as a person's
//	                                     feedback on a result (vote:...) or a job's live status shown
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
//	{p}deploy:<team>:<id>                string: a deployment's or preview's record (JSON, SaveDeploy)
//	{p}deploys:<team>                    sorted set: record id -> started (unix ms); a workspace's latest DeploysKept
//	{p}conv:<team>:<channel>:<ts>        string: an answer thread's conversation with the docs assistant (JSON,
//	                                     its asker and thread key included; UpdateConversation), kept while it may go on
//	{p}audit                             stream: the audit trail, one entry per record (audit.go)
//	{p}confirm                           string: a counter each wait for the replicas increments, so that
//	                                     WAIT has a write of its own connection to wait for (WithReplicaAcks)
//
// The two job lists (joblists.go) are indexes written by plain commands
// right after the script that changed a record, never inside it, since a
// person's or a channel's jobs are in many threads (and shards); their
// readers check every id against its record (with Job, which asks every
// shard). A failure to write them after the record changed is logged
// (WithLogger), not returned: the change stands, and a caller told of an
// error would retry it.
//
// (Braces are literal: they are the hash tags. The budget's keys share the
// tag of its name, its spenders' shares too, so that a Draw takes from the
// budget and a share in one script; a project's cached days share the project's tag, so that
// LoadDays reads a range with one MGET on a cluster too; the visitors
// cache, retry offers, once markers, choices, Home records, digest
// subscriptions, digest runs and the audit stream are one key per command or
// script.)
// A job's record, link and schedule entry are in its thread's shard, so
// JobByThread and every write of a claim find the shard at once; a lookup
// by id alone (Job, FollowUp, and LinkJob's check that the id is not linked
// to a thread of another shard) asks all 16 shards in one pipeline.
//
// Claim and ClaimWork run the claim script on the shards whose head is due
// by what the Store knows (see "Claiming at rest"), starting at a shard that
// rotates from call to call, until they have max: no command when nothing
// is due, and at most 16 scripts. Lag, Tracked and Queued read all
// shards in one pipeline.
//
// # Claiming at rest
//
// A Store keeps, per shard of the poll schedule and of the inbox, when its
// head is due (heads.go; a Redis time converted to the replica's monotonic
// clock when read, so skewed clocks still agree). Its claim loops sleep
// until the earliest of them (ClaimWait) or until Changed says it moved.
// The heads are set by each claim script's reply and lowered by:
//
//	what                                    how
//	this Store's own schedule writes        at once (LinkJob, FollowUp, Reschedule,
//	                                        a Finish that notifies, Enqueue, Defer)
//	a hand-back (Release, ReleaseWork)      PUBLISH {p}wake "j<shard>" or "w<shard>":
//	                                        every Store's subscription lowers that head
//	a write by a Store that does not claim  PUBLISH as above (docsbot-load, tests)
//	anything else (a lost wake-up, a        a read of every shard of both schedules in
//	writer that died before its wake-up)    one pipeline, at least every lookEvery (5 s)
//
// A lease that runs out needs no wake-up: the claim left the entry at its
// lease's end, which the next read of every shard sees. So work or a poll
// is taken late only when both its writer's claim loop and its wake-up
// failed, and then at most lookEvery late; besides, the agent's poller
// waits a gather after a claim that caught up (bot.ClaimRunner.Gather: a
// twentieth of the poll interval, at most 250 ms), so a poll is taken up
// to that late and polls of a shard coming due meanwhile share one claim
// script (the inbox's loop does not gather). A replica at rest sends 33
// commands every 5 s (6.6 a second), plus its gauges (Tracked, Queued) every
// 30 s; a claim of k due
// entries of one shard is EVALSHA, TIME, ZRANGE, ZADD and per entry HGETALL
// and HSET (the token, and the count of claims: a job's polls, inbox work's
// attempts). The Reschedules of the jobs one claim script took are written
// by one script (settle.go), once each of those jobs has settled (by a
// Reschedule, or by another fenced write or a Release) or at most 25 ms
// after the first came: EVALSHA, per job HMGET, one ZADD, and an HSET only
// for a status that changed (TestClaimCommands counts them). So a poll costs
// 3 + 6/k commands when a claim takes k jobs of a shard, 9 when it takes
// one; the agent's poller gathers polls due together (below) so that k
// grows with the load. A Reschedule reads no TIME: its Redis
// time is the claim's (the TIME its script read) moved on by the replica's
// monotonic clock since the reply came, so at most that reply's way early,
// never late; a due time set so is the Redis clock's as every other, and
// leases and tokens are not involved (a Claim not made by Claim holds no
// clock: its Reschedule reads TIME).
//
// A prefix that has a hash tag itself (such as "{docsbot}:", which earlier
// versions asked for on a cluster) puts every key in that one slot: Redis
// hashes the first tag of a key only. That still works, but the shards then
// do not spread; the default prefix needs no tag.
//
// A job stays in its schedule while it is unfinished or its finish is not
// yet reported. Once its finish is reported (or it is untracked), the record
// and its thread link expire after the retention period (Retention, 30
// days); a follow-up removes the expiry again.
//
// FollowUp is idempotent by the follow-up's key (the delivery key of the
// person's reply): the script that counts the generation also stores the key
// in the record (field fk), and a call with the key already there changes
// nothing and returns the record as it is. A caller may therefore retry it
// after an error (even one whose write went through, such as a reply lost in
// a failover) or after a crash before it recorded the outcome. Only the last
// follow-up's key is kept: a repeat after a later follow-up of the same job
// would count again, which needs a crash and the next person's reply both
// within the first one's lease.
//
// # Parts
//
// A Store is one connection and one namespace; what it keeps is split by
// concern into parts (parts.go), each a small value over the Store's
// connection and prefix, taken from the Store (st.Jobs(), st.Inbox(), ...).
// The builder (bot/app) hands each part to what uses it, which declares
// the methods it calls in an interface of its own:
//
//	part           keys (under {p})             used by
//	Jobs           {sN}:job, {sN}:thread,       the agent (agent.JobStore.Jobs)
//	               {sN}:starting, {sN}:sched,
//	               recent, running
//	Inbox          {sN}:inbox, {sN}:in          the core (bot.WorkStore.Inbox)
//	Choices        choice                       the core (bot.WorkStore.LastChoices)
//	RetryOffers    retry                        the agent (agent.JobStore.RetryOffers)
//	PendingStarts  pending                      the agent (agent.JobStore.PendingStarts)
//	Limits         budget, once                 the agent's live status and feedback
//	                                            (agent.JobStore.Limits); the analytics
//	                                            budget and people's shares, as Draws
//	                                            (visitors.VisitorsStore.Budgets)
//	Analytics      visitors, closed, day, days, the visitors (visitors.VisitorsStore.Analytics)
//	               report                       and the docs health (health.HealthStore.Reports)
//	Digests        digest:subs, digest:run      the visitors
//	                                            (visitors.VisitorsStore.Digests)
//	HealthDigests  digest:health:*              the docs health (health.HealthStore.Digests)
//	HomeSeen       homeseen                     the App Home (home.Config.Seen)
//	Conversations  conv                         the answers from the docs (their threads'
//	                                            conversations with the assistant)
//	Deploys        deploy, deploys              the deployments and previews (/docs-deploy status)
//	AuditLog       audit                        the core (bot.Config.Audit);
//	                                            docsbot audit
//
// The load tool (docsbot-load) uses Jobs and Inbox too: it links the jobs it
// seeds, and counts and checks what the bot left.
//
// The Store keeps what is about the whole connection or namespace: Open and
// Close, Ping, Topology, the checks of docsbot doctor (Check),
// DeletePrefix (the sandbox), what
// the load tool measures (Lag, UsedMemory, ServerStats, JobMemory) and
// {p}confirm (WithReplicaAcks). A new piece of state goes in the part of its
// concern, or in a new part when it is a concern of its own.
//
// # Exactly-once reporting
//
// Replicas take due jobs with Claim, which moves them a lease into the future
// and bumps the job's fencing token. Every later write of that claim
// (Reschedule, Finish, Untrack) checks the token and fails with ErrStale when
// another claim or a follow-up came in between. Finish hands out a
// notification while the job's generation is not yet reported and keeps the
// job scheduled a lease ahead, so that a replica dying before MarkNotified
// leaves the job to be claimed again. Each record keeps the number of such
// hand-outs (Job.NotifyAttempts) so that a later attempt knows an earlier one
// may already have posted.
//
// # The inbox
//
// Every piece of Slack work docsbot acknowledges (a slash command, a thread
// reply) is written with Enqueue before the ack: SET-NX-like on its delivery
// key, so a redelivered envelope is dropped in the same write. Replicas take
// work with ClaimWork under a lease and a fencing token, exactly as they take
// polls: a replica that dies leaves its work to the next one when the lease
// ends. Mark records checkpoints (the root message posted, the create call
// about to be made) that a later attempt reads, and extends the lease; Done
// removes the work and keeps its record for the dedupe window; Defer hands it
// back for later. Work is never expired while it waits.
//
// The record kept after Done holds no payload and no checkpoint: its key,
// kind, times and fencing token are all a redelivery needs to be dropped
// (Enqueue looks only at the key), and nothing reads done work again. So
// what people wrote lives in Redis only while its work waits or runs:
// every message in a thread of a channel the bot is in is recorded before
// the ack (only the work can tell whether the thread is a job's), and a
// reply in a thread that is not a job's is dropped, with its text, as soon
// as the work has looked; a follow-up's text once it was sent. (The audit
// trail keeps an instruction's text only with AuditOptions.KeepText.)
//
// Two posts may start a job in the same thread at once (two mentions, a
// mention and the message shortcut on its parent). ClaimStart gives the
// start to one piece of work, before any create call, for a time that
// covers the start: its owner takes it again on every attempt, the others
// get ErrStartHeld and wait. LinkJob turns the claim into the thread's link
// in the same script, ReleaseStart drops it after a start that linked
// nothing, and it expires by itself when the replica holding it dies.
//
// # Handing back
//
// A lease covers a crash: the next claim comes when it ends, long after any
// request the dead replica sent has landed. A graceful stop hands its
// claims back instead (Release, ReleaseWork, ReleaseDigest), and the rule
// for what it hands back is:
//
//	handler at the stop                       hand-back           next attempt
//	ended, claim settled                      none                -
//	ended unsettled, nothing sent             due now             does the step
//	still running after the shutdown grace,   due after the       checks what the first
//	  so cancelled (a request may be in       landing window      may have done (the
//	  flight: a post, an update, an upload,   (bot.Config.        thread for the result,
//	  a create or follow-up call)             LandingWindow)      the root, the digest)
//
// A request that left the process is not undone by cancelling its context:
// Slack or the docs API carries it out all the same, up to the landing
// window later. So a handler never treats a cancelled request as one that
// did not happen: it either finishes within the grace (the bot gives work
// in flight and polls the shutdown grace) or is handed back past the window,
// where the next attempt's check, made by every attempt after the first
// (Job.NotifyAttempts, Taken.Attempt, DigestClaim.Attempt), sees what it
// did. A cancelled create or follow-up call still reads as unknown: its
// intent mark says so and the person is told.
//
// # The day cache and the digest
//
// The trend chart needs each day's unique visitors, one request a day. The
// day cache keeps them per project, one key a day: a closed day (older than
// the OpenDays latest, so its counts no longer change) for ClosedDayKeep
// (400 days), the open days for as short as the caller says. SaveDays writes
// any number of days in one pipeline, LoadDays reads a range with one MGET
// and lists the days missing, which the caller fetches or shows as gaps.
// A range's own unique totals (not the sum of its days: a visitor of two days
// is one visitor) are cached beside them (SaveRangeTotals), as long as the
// range's last day is closed.
//
// Digest subscriptions are one hash without expiry, so they outlive every
// replica. A channel has one subscription per docs project (DigestSub.Project,
// the bot's project key): the field of the implicit project, and of
// subscriptions made before projects existed, stays <team>:<channel>, another
// project's adds its name. The visitors cache, the cached days and the
// budgets need no change for projects: their callers name the project in the
// key (the project id) and the analytics budget (its visitors_budget). Each posting of
// a digest (a channel, a project and a period, such as "2026-W48") is posted
// once across replicas: ClaimDigest gives it to one
// claimer for a lease (Redis clock) and bumps a fencing token; the others get
// ErrDigestHeld until the lease ends, so a replica that dies before posting
// leaves the posting to the next claim. MarkDigestPosted records the post
// (even from a claim overtaken meanwhile, since a message went out), after
// which every claim gets ErrDigestPosted; ExtendDigest, called right before
// posting, tells a claimer that it was overtaken (ErrStale) or that the post
// is done. A claim's Attempt above 1 warns that an earlier claimer may have
// posted and died before its mark: look for its message first. The record
// expires keep after its first claim, which must outlast the time replicas
// try the period. When Slack refuses a digest for good, NoteDigestFailure
// records in the subscription each kind of refusal its subscriber was told
// about (told once per kind), and StopDigest ends a subscription whose
// channel cannot take posts; both leave alone a subscription made again
// since (WATCH on the hash, compared by CreatedAt).
//
// # The App Home's viewers
//
// A change of a person's job republishes their App Home only if they have
// opened it: NoteHomeOpened records an open in one key per person and
// workspace, {p}homeseen:<team>:<user>, that expires HomeSeenRetention (90
// days) after their last open, and HomeOpened reads it. One key a person,
// read or written by one command, needs no hash tag and spreads over a
// cluster's slots. Someone who has not opened the Home for that long gets
// no more publishes until they open it again, when it is published anyway.
//
// # The audit trail
//
// AuditLog appends a record for every job start, follow-up, result, refusal
// and settings change to one stream, {p}audit, with an id from the Redis clock.
// A record holds who, where, which project, what and how it ended, and an
// instruction's SHA-256 and length; the instruction's text only when the log
// keeps text (AuditOptions.KeepText, DOCSBOT_AUDIT_TEXT). Records are kept for
// the retention (AuditOptions.Retention, 90 days by default): every append
// drops the stream nodes wholly older than that (XADD MINID ~, cheap), Trim
// drops the rest exactly (XTRIM MINID =), and readers never see a record
// older than that either way. Page and Each read oldest first with XRANGE and
// COUNT, a page at a time, from Since and for one Project.
//
// A record is appended at least once. The bot writes a piece of work's record
// together with a mark of that work (bot.AuditWork): a later attempt at the
// same work sees the mark and does not append again. A replica dying between
// the append and the mark appends it a second time, so every record carries
// the key of its work or delivery (AuditRecord.Work, the "work" column of
// `docsbot audit`): records with the same Work and Action are one event, and
// an export dedupes on that pair. A job's result carries "result:<job
// id>:<generation>".
//
// # Errors
//
// Every error the store returns says what kind of failure it was, decided
// in one place (classify in errors.go) and read with errors.Is:
//
//	ErrUnreachable    no connection: refused, timed out, DNS, closed, no pooled connection in time
//	ErrAuth           the credentials were refused (NOAUTH, WRONGPASS)
//	ErrNoPerm         the ACL user may not run a command or touch a key (NOPERM)
//	ErrReadOnly       no writes now: a replica (READONLY), or a primary without replicas (NOREPLICAS)
//	ErrFull           out of memory (OOM)
//	ErrCannotPersist  writes refused because a snapshot failed (MISCONF)
//	ErrLoading        not ready yet (LOADING, CLUSTERDOWN, TRYAGAIN, MASTERDOWN)
//	ErrUnconfirmed    a write the replicas did not confirm in time (Enqueue with WithReplicaAcks)
//	ErrTLS            the TLS handshake failed
//	ErrBadURL         REDIS_URL does not parse
//
// besides the store's own ErrNotFound, ErrStale, ErrConflict and ErrInvalid.
// The classifier uses go-redis's typed checks of Redis's error replies
// (redis.IsAuthError, IsReadOnlyError, ...) and the standard library's
// network errors, never an error's text; the one reply go-redis has no check
// for, MISCONF, is told by the protocol's error code (redis.HasErrorPrefix).
// The original error stays in the chain (%w) for logs, unless its text held
// the URL's password: then only its scrubbed text is kept. Temporary tells the
// failures that may pass by themselves (unreachable, failing over, loading,
// unconfirmed) from those that will not. No error carries the password of the Redis URL;
// Cause gives the words of Redis or the network for a message that names the
// Redis already.
//
// Check does what docsbot doctor's Redis check needs with real commands
// (PING, then SET, GET and DEL of a probe key that expires by itself, and
// the memory policy when CONFIG GET is allowed) and returns a Report (with
// the primary the sentinels name, or the number of cluster primaries), or a
// *CheckError naming the step that failed, with a classified cause. The
// command decides its advice with errors.Is on that cause.
//
// DeletePrefix removes a namespace (the sandbox's) with SCAN and UNLINK in
// batches; Lag, UsedMemory and JobMemory are what the load tool measures;
// SetClientLogger sends the Redis client's own log lines to a *slog.Logger.
// Nothing outside this package (and its test kit, store/redistest) imports
// go-redis, and no exported name of the package carries a go-redis type.
//
// # Time and atomicity
//
// Every due time and lease is computed inside Redis from its TIME command, so
// replicas with skewed clocks agree; a Reschedule's due time is its claim's
// TIME moved on by the replica's monotonic clock (no wall clock of the
// replica; see "Claiming at rest"). Every update that touches more than one key
// runs as one Lua script.
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
// acknowledged on the strength of that record): when none confirms in time
// it fails with ErrUnconfirmed, Temporary, the record standing on the
// primary (its queued result still says whether this call wrote it; the
// confirmation of a write made is waited for past the caller's deadline,
// so that ErrUnconfirmed, not a timeout, tells the caller the record
// stands). The bot tries again within its budget (a retry finds the work
// seen and confirms it). If its budget runs out while the record is still
// unconfirmed, the record stands on the primary and will be done, so the
// bot acknowledges rather than tell a person that work about to run was
// not taken: only a failover in that moment can lose it. Otherwise work
// Slack was told is taken is on a replica as well as the primary. What
// remains besides: the sentinels could still promote a replica that
// did not confirm it (with two replicas, the other one; Sentinel prefers the
// most advanced replica but does not guarantee it), and the later writes
// (a work's checkpoints (Mark), LinkJob, a Finish that hands out a
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
// shard, so docsbot runs on a cluster with any prefix without a hash tag
// (see Keys). DeletePrefix scans every primary of a cluster. The package's tests run against one
// redis-server, and again against Sentinel and a three-node Cluster
// (DOCSBOT_TEST_REDIS=sentinel|cluster; make test does all three), besides a
// failover through real sentinels (TestSentinelFailover).
package store
