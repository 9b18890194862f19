// Package deploy is /docs-deploy: a deployment of a docs project's site, or
// a preview of a branch, started from Slack and shown in one live message
// until it ends (queued, in progress, then the commit and the files changed,
// or the end of the logs), and `/docs-deploy status`, the ones started
// lately.
//
// # A deployment's lifecycle
//
// A deployment is started by a piece of inbox work (workStart), once across
// replicas and restarts. Starting one changes the live site, so the call is
// never repeated blindly: the work marks each step before it takes it.
//
//	marks of the work          what the attempt does
//	(none)                     decide the project (markProject), check the editor,
//	                           take a call of the organisation's budget (10 deployments
//	                           each 10 s, 5 previews a minute, in Redis), post the live
//	                           message (markMessage), mark calling, call the docs API
//	calling, no started        an earlier attempt called and stopped, or the API's answer
//	                           was lost (ErrOutcomeUnknown): the deployment may have
//	                           started; the message and the person say so, with
//	                           `/docs-deploy status`; done
//	started (the status id)    record it, queue its follow work; done
//	done                       nothing
//
// The follow work (workFollow) reads the status once, edits the message,
// records the state, and comes back after the inbox's backoff (1 s doubling
// to 30 s) until the deployment ends or Config.FollowFor passes; before it
// nears bot.WorkMaxAge it hands on to a new piece of follow work.
package deploy
