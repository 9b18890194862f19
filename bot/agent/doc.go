// Package agent is docsbot's agent-job feature: /docs-agent starts the
// docs platform's AI agent on an instruction and follows the job in a Slack
// thread, where replies go to the agent as follow-ups and the result is
// posted once per run.
//
// It holds the slash command and message-event handlers, the two kinds of
// inbox work (agent.start, agent.reply), the poller that follows every
// unfinished job, and the root-message views and texts. It needs the docs
// API and Redis only through JobsAPI and JobStore, which *docsapi.Client and
// *store.Store satisfy, and Slack only through the core (package bot).
//
// How work flows. Register puts the handlers on a *bot.Bot. A command is
// refused or answered in its ack when that needs no I/O (help, the
// allow-lists); otherwise it is recorded in the core's inbox as agent.start
// work keyed by its trigger_id and then acked. Any replica's inbox runner
// calls doStart, which posts the root message (bot.Post, paced per channel),
// marks the root and the intent to create, calls CreateJob once, links
// thread and job (store.LinkJob schedules the first poll) and edits the root
// message (bot.Edit, coalesced). Each step leaves a mark on the work, so an
// attempt after a crash resumes instead of posting or creating twice; an
// attempt that cannot tell whether the create went through says so and
// offers "retry" in the thread. A person's reply in a job's thread is
// recorded as agent.reply work keyed by its event_id and done by doReply,
// which sends it once (SendMessage) and follows the job again.
//
// Every replica runs the poller (runPoller, started by the core's Run): it
// claims due jobs from the shared schedule under a lease and a fencing token,
// calls GetJob, and reschedules with backoff or, on a final status, records
// the finish, checks the thread for a result already posted (message metadata
// FinishedEvent), posts it once and marks it notified.
package agent
