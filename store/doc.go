// Package store keeps docsbot's state in Redis: which Slack thread belongs to
// which agent job, the poll schedule shared by every replica, and the
// once-only markers used to drop redelivered Slack events.
//
// # Keys
//
// All keys live under one prefix (default "docsbot:"):
//
//	{p}job:{id}                    hash: the job record (short field names, see job.go)
//	{p}thread:{team}:{channel}:{ts} string: the job id linked to a thread
//	{p}sched                       sorted set: job id -> due time (unix ms, Redis clock)
//	{p}once:{key}                  string: a once-only marker (Once)
//	{p}visitors:{key}              string: a cached visitors export (SaveVisitors)
//	{p}budget:{name}               sorted set: requests taken in the sliding window
//	{p}budget:{name}:seq           string: sequence for request ids in the window
//	{p}budget:{name}:block         string: set while the API asked to wait (BlockBudget)
//	{p}inbox                       sorted set: work key -> due time (unix ms, Redis clock)
//	{p}in:{key}                    hash: one piece of acknowledged Slack work (inbox_scripts.go)
//	{p}retry:{team}:{channel}:{ts} string: a start offered to be tried again (OfferRetry)
//
// A job stays in {p}sched while it is unfinished or its finish is not yet
// reported. Once its finish is reported (or it is untracked), the record and
// its thread link expire after the retention period; a follow-up removes the
// expiry again.
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
// # Errors
//
// Every error the store returns says what kind of failure it was, decided
// in one place (errors.go) with go-redis's typed checks and the standard
// library's network errors, never by an error's text: errors.Is with
// ErrUnreachable, ErrAuth, ErrNoPerm, ErrReadOnly, ErrFull, ErrCannotPersist,
// ErrTLS, ErrLoading or ErrBadURL, besides the store's own ErrNotFound,
// ErrStale, ErrConflict and ErrInvalid. Temporary tells the failures that
// may pass by themselves (unreachable, failing over, loading) from those that
// will not. No error carries the password of the Redis URL; Cause gives the
// words of Redis or the network for a message that names the Redis already.
//
// Check tries a Redis with real commands for docsbot doctor; DeletePrefix
// removes a namespace (the sandbox's); Lag, UsedMemory and JobMemory are
// what the load tool measures. Nothing outside this package (and its test
// kit) imports go-redis.
//
// # Time and atomicity
//
// Every due time and lease is computed inside Redis from its TIME command, so
// replicas with skewed clocks agree. Every update that touches more than one key
// runs as one Lua script.
//
// # Sentinel and Cluster
//
// Open reads the topology from the URL (TopologyOf): one server, Sentinel
// (master_name and the sentinels' addresses; go-redis follows failovers), or
// Cluster (several addr seed nodes). With Sentinel, the writes that must
// survive a failover (Enqueue of new work, LinkJob, MarkNotified) wait for
// one replica to confirm them with WAIT, at most 100 ms (WithReplicaAcks).
// When no replica confirms in time the write stands on the primary alone and
// the call succeeds: a failover in that window can lose it. Run the nodes
// with min-replicas-to-write 1 (and two replicas, so that writes resume as
// soon as one is promoted): a primary that no replica follows, such as an
// old primary started again after a failover, then refuses writes
// (NOREPLICAS, classified ErrReadOnly and Temporary) instead of taking writes
// that its demotion would discard. For the inbox
// that is the same as a crash of Redis between the write and the ack, so
// Slack's redelivery of events covers it; a slash command acknowledged in
// that window is lost, and a link lost that way leaves a job unfollowed.
// Failures during a failover are ErrUnreachable or ErrReadOnly, both
// Temporary: callers retry.
//
// Scripts derive keys from the schedule and the inbox, so all keys of one
// installation must be in one hash slot: on a cluster, choose a prefix with
// a hash tag, such as "{docsbot}:" (DOCSBOT_REDIS_PREFIX). DeletePrefix scans
// every primary of a cluster. The package's tests run against one
// redis-server, and again against Sentinel and a three-node Cluster
// (DOCSBOT_TEST_REDIS=sentinel|cluster; make test does all three), besides a
// failover through real sentinels (TestSentinelFailover).
package store
