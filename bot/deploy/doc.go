// Package deploy is /docs-deploy: a deployment of a docs project's site, or
// a preview of a branch, started from Slack and shown in one live message
// until it ends (queued, in progress, then the commit and the files changed,
// or the end of the logs), and `/docs-deploy status`, the ones started
// lately.
//
// # Asking first
//
// A bare /docs-deploy changes the live site, so it deploys nothing: the ack
// asks the person alone "Deploy the docs site of PROJECT now?" (the project
// decided in the ack, within a second, else by the work; a viewer of that
// project is refused there) with Deploy and Cancel (confirm.go). Deploy
// records the start work below, keyed by the question and the person who
// pressed it (act:deploy:<command's delivery id>:<user>), so that Slack
// sending the press again, or a second press, deploys nothing more; a
// question older than 10 minutes deploys nothing. The work checks the
// person again (bot.Editors.Refusal: a button that reached a viewer is
// refused) and answers in the question's place when it was the person's
// own. Cancel replaces the question. `/docs-deploy preview BRANCH` asks
// nothing: its work is queued by the command.
//
// # A deployment's lifecycle
//
// A deployment is started by a piece of inbox work (workStart), once across
// replicas and restarts. Starting one changes the live site, so the call is
// never repeated blindly: the work marks each step before it takes it. The
// share and the docs API's call are paid steps (bot.Work.Paid: begun
// before, done after); the start runs as phases (start.go: check, share,
// budget, post, call), after the marks of the call were read.
//
//	marks of the work          what the attempt does
//	(none)                     decide the project, check the editor, take one of the
//	                           person's share of the hour (markShare: "taking", with
//	                           the project (markProject), before, its token after;
//	                           DOCSBOT_DEPLOY_PER_USER, 10 deployments and previews an
//	                           hour by default, in Redis; spent: told privately when
//	                           to try again, done), take a call of the organisation's
//	                           budget (10 deployments each 10 s, 5 previews a minute,
//	                           in Redis; spent: the share is given back, told, done),
//	                           post the live message, mark its ts (markMessage) with
//	                           calling, call the docs API
//	share marked               the share is not taken again (an attempt that stopped
//	                           between "taking" and the take costs the person nothing)
//	calling, no started        an earlier attempt called and stopped, or the API's answer
//	                           was lost (ErrOutcomeUnknown): the deployment may have
//	                           started; the message and the person say so, with
//	                           `/docs-deploy status`; done
//	started (the status id)    record it (a record there is kept), queue its follow
//	                           work (not again: the inbox keeps its key); no done
//	                           mark, as an attempt after a lost end repeats nothing
//	done                       nothing
//
// The follow work (workFollow) reads the status once, edits the message,
// records the state (the record alone: the start listed it, queued), and
// looks again after the inbox's backoff (1 s doubling to 30 s: the first
// two waits in the handler, the work still claimed; heldLooks) until the
// deployment ends or Config.FollowFor passes; before it nears
// bot.WorkMaxAge it hands on to a new piece of follow work.
//
// # What a failure shows
//
// The logs, the summary and the commit message come from the build: before
// any of it reaches Slack it is taken out of keys and tokens by their shape
// (secret.Redact, over the whole logs before their end is cut), then
// escaped; what docsbot logs of the docs API's errors is redacted too. In a
// channel shared with another organisation, or with a guest or a person of
// another organisation in it (bot.Sight: or one Slack cannot say is not)
// the live message shows no logs and says they were sent privately; the person who deployed is told them once (markLogsTold
// on the follow work).
package deploy
