// Package agent is docsbot's agent-job feature: /docs-agent, an @mention,
// a DM, the "Send to docs agent" message shortcut or the "Improve this page"
// button starts the docs platform's AI agent on an instruction and follows
// the job in a Slack thread, where replies go to the agent as follow-ups and
// the result is posted once per run.
//
// It holds the entry points (command.go; posts.go, the agent's rows of the
// core's table of posts, with mention.go and followup.go for mentions, DMs
// and replies; threadcontext.go for the thread passed on as
// context; modal.go and shortcut.go for the job modal; list.go for list and
// status), the one way text others wrote goes to the agent (quoted.go), the kinds of inbox work (agent.start, agent.followup, agent.list,
// agent.feedback), the poller that follows every unfinished job, the
// root-message views and texts (its plan of task cards, plan.go), the live status (progress.go) and the
// result message with its buttons (result.go, followupmodal.go,
// feedback.go).
//
// Where a job lives. A job started by /docs-agent or the modal opened by
// /docs-agent alone gets a new thread: the bot's root message is its
// parent. A job started by a mention, a DM, the shortcut or the button lives
// in the thread of the message it was asked from (the person's, the
// shortcut's message, the visitors summary): that message is the parent,
// the root message (the job's live status) is a reply in it, and the job is
// linked to the parent (store.Job.Root keeps the root message). One thread
// follows one job: a mention in a job's thread is a follow-up, and a modal
// submitted for a job's thread starts nothing and says so.
//
// Messages. The core hears every post and offers it to its owners in order
// (bot/posts.go); the agent owns the words it answers itself (help, list,
// status), a reply in a job's thread, and any other mention or DM, which
// starts a job. A reply in a job's thread is a follow-up (unless it was
// posted before the job started in the thread: a mention's job got the
// thread's earlier messages as context, so they are not sent again); a job
// start is queued as agent.start work keyed by the post after a mark
// (markStarting) on the post's work, which its owner mark sends straight
// back to the agent on a later attempt. The modal's submission is agent.start
// work keyed by the view id. A start in an existing thread claims it first
// (startclaim.go): of two posts starting a job in one thread at once, one
// creates the job and the other becomes its follow-up. Every entry point refuses people and channels
// outside the allow-lists privately before any API call. It needs the docs
// API and Redis only through JobsAPI, which *docsapi.Client satisfies, and
// the interfaces of Deps, which the store's parts satisfy (store.Jobs,
// store.RetryOffers, store.PendingStarts, store.Limits), and Slack only
// through the core (package bot).
//
// How work flows. Register puts the handlers on a *bot.Bot. A command is
// refused or answered in its ack when that needs no I/O (help, the
// allow-lists); otherwise it is recorded in the core's inbox as agent.start
// work keyed by its trigger_id and then acked. Any replica's inbox runner
// calls doStart, which posts the root message (bot.Post, paced per channel),
// marks the root and the intent to create, calls CreateJob once, links
// thread and job (store.Jobs.LinkJob schedules the first poll) and edits the root
// message (bot.Edit, coalesced). In a channel where docsbot's posts go out
// at once (bot.FreeToPost), a command's first attempt posts its root late
// (lateroot.go): it marks the intent alone, calls CreateJob, then posts the
// root showing the job and links it: one post, no edit. Each step leaves a mark on the work, so an
// attempt after a crash resumes instead of posting or creating twice; an
// attempt that cannot tell whether the create went through says so and
// offers "retry" in the thread (Starting a job, below). A person's reply in a job's thread is
// the post's work the agent claimed (doJobThread, replyInJobThread), which
// sends it once (SendMessage) and follows the job again. When it
// cannot tell whether the reply reached the agent (an attempt stopped while
// sending it, or the API did not confirm it), it never sends it again but
// follows the job all the same, so that what the agent does next is
// reported, and says so privately.
//
// Starting a job (doStart, start.go) runs five phases: decide (project,
// docs API, context, editors), ensureRoot (find or post the root message,
// under the thread's start claim), resume (what earlier attempts did; only
// on an attempt after the first or after an intent mark), create and link.
// The create call is a paid step (bot.Work.Paid: the intent, with the root,
// before it; its outcome the link or the outcome mark), the project, the
// queued notice, the outcome and the told note are steps (bot.Work.Step).
// What a phase does when it finds a mark on the work or a record in the
// store, in phase order; "end" ends the start, and later phases do not run:
//
//	found                      phase       does
//	project mark               decide      takes the project decided before; asks nothing
//	root mark (or req.Root)    decide      no editors' check, no remember; no docs API: goes on (create ends it)
//	                           ensureRoot  no search, no post
//	queued mark                decide      no editors' check, no remember
//	                           ensureRoot  no second queued notice (postRoot)
//	intent mark                decide      no editors' check, no remember (a late root's attempt died)
//	no root, attempt > 1       ensureRoot  the root message that names the work, if the channel shows one; else posts
//	outcome mark               ensureRoot  shows it (showOutcome), end: nothing claimed, posted or created
//	told mark                  showOutcome does not tell the person again
//	a command's first attempt, ensureRoot  no post: the root comes late, in link
//	new thread, channel free               (the intent is marked alone; a slow create
//	to post in (late root)                 tells the person it is starting: queued mark)
//	thread claim free or ours  ensureRoot  takes it (a start in an existing thread)
//	                           create      takes it again, for the call and the link; a failure: Later
//	thread claim, another's    ensureRoot  waits for it (Later, startWaitPoll)
//	thread linked              ensureRoot  no root, no intent: "reply in the thread", end (inJobThread); else goes on
//	job linked to the thread   resume      started before: audit "ok", root shows the job, end
//	intent mark, no job, a     resume      reads that job (GetJob, no create) and goes on to link it;
//	found late root naming one             a job the API does not know: end (unknown)
//	intent mark, no job        resume      end (unknown)
//	(any)                      create      marks root and intent in one write (a late root: the intent), then calls CreateJob once
//	no docs API                create      end (failed), no call made
//	create not confirmed       create      end (unknown)
//	create failed              create      end (failed)
//	the created job            link        links it (the claim becomes the link), audit "ok", root shows it working
//	the created job, late root link        posts the root showing it working first; refused or held
//	                                       past rootPostBudget: end (untracked), told privately
//	link failed                link        end (untracked)
//
// A start that follows no job ends in one of two ways. Before its root
// message (endBeforeRoot): the thread's claim is released and the person
// told why; only a refusal is audited. After it (start.end, with outcome
// failed, unknown or untracked): the claim is released, the start audited
// with the outcome, the outcome marked, the person told once (told mark) and
// the root message edited; unknown also offers "retry" in the thread. A late
// root not posted yet is posted first, so the end shows where the person
// asked (untracked aside: its post was refused), and where it cannot be
// posted the person is told privately alone. A
// start given up after bot.WorkMaxAge (giveUpStart) reads the outcome,
// told and intent marks to say what may have happened.
//
// Every replica runs the poller (runPoller, started by the core's Run): it
// claims due jobs from the shared schedule under a lease and a fencing token,
// calls GetJob, and reschedules with backoff or, on a final status, records
// the finish, checks the thread for a result already posted (message metadata
// FinishedEvent), posts it once, shows the end on the root message at once
// (an edit retried for a bounded time while Slack fails for a passing
// reason) and marks it notified: a replica that stops before the mark
// leaves the edit to the next claim, which finds the result in the thread
// and does not post it again. An edit that keeps failing does not hold the
// mark up (it is tried once more in the background), and a claim that
// cannot read the thread after an earlier attempt waits rather than post
// twice, up to a cap (then it posts, saying it may be a repeat). A job the
// docs API no longer knows (404) is shown as no longer followed on its root
// message at once, and only then untracked; while Slack fails that edit for
// a passing reason the job stays scheduled and the next poll tries again
// (jobGone).
//
// Projects (projects.go, choose.go). With several docs projects
// (bot.Config.Projects) each start decides its project in its work
// (bot.Projects.Resolve: project=NAME, taken out of the instruction, the
// channel's default, the person's last choice), or asks the person
// privately with a button per project (at most 25; past that, in words):
// the start waits in Redis (store.PendingStarts.SavePending) and a click is agent.choose
// work that queues the start with its project. A choice (project=NAME, a
// button, the modal's select) is remembered only once the start passed that
// project's editors. The job modal has a project select (a project=NAME in
// its instruction must agree with it), and the root message, while the job
// may run or when it did not start, a Switch project button that opens the
// modal again with the start kept in Redis for it (its whole instruction and
// context, switchID). The job records its project (store.Job.Project,
// bot.ProjectKey), and its create, follow-ups and polls use that project's
// docs API (bot.Bot.Project, by the recorded key); a job whose project is
// no longer served
// is no longer followed, and its requester is told.
//
// Progress (progress.go). The root message is a live status: who asked, the
// instruction, the status, the elapsed time, the model and branch. The
// poller that holds a job's claim refreshes it as it polls, never a timer
// over all jobs: an edit when the elapsed time shown changes, the thread's
// working status (assistant.threads.setStatus) before Slack lets it expire.
// Each refresh is made once across replicas (store.Limits.Once) and within a
// shared budget (store.Limits.TakeBudget), so that many jobs stay inside Slack's
// tier-3 limits; a replica refused a budget skips refreshes without asking
// Redis until the refusal said one fits; edits go through the core's coalescing edit queue and
// never hold up posts. The person's message that asked for a job (Origin:
// a mention or a DM; empty for a slash command or a modal) carries ⏳ while
// the agent works, then ✅, ❌ or 🗄 (bot.React, in order per message,
// idempotent).
//
// What the agent gets. A job's instruction is only ever what its editor
// typed (or the form's prefill, in docsbot's words alone); the context
// after it (startRequest.Context) is docsbot's words (a problem, a page's
// path, figures) as they are, and what others wrote (docs visitors'
// searches, comments and questions, the docs assistant's answers, a
// question asked in Slack, other people's messages in a thread or under
// the shortcut) as quoted data: a line naming the writers and saying it
// is data, not an instruction, then the text between markers it does not
// contain (renderContext, quoteData). The job form shows that context
// read-only, as the agent gets it, cut to contextShownMax (and says so);
// it travels in the view's private_metadata, after the target's JSON, so
// what was shown is what is sent. A mention in a thread has no form: its
// editor is told privately whose messages went with the job.
//
// Results (result.go, followupmodal.go, feedback.go). The result message is
// Block Kit with a text fallback: the outcome, a View pull request link
// button (http(s) links only), a Follow up button and 👍/👎 feedback buttons
// (a context_actions block). Follow up opens a modal at once with the
// interaction's trigger; its submission is recorded as agent.followup work
// keyed by the view, so a submission delivered twice is one follow-up. A
// feedback click is agent.feedback work: counted once per person and result
// (store.Limits.Once) in docsbot_feedback_total, logged, and thanked privately.
package agent
