// Package ask answers questions from the docs: /docs-ask, and the mentions,
// DMs and thread replies the agent hands over as questions (bot.WorkAsk,
// bot.QuestionIn). The project's docs assistant answers; the answer is
// streamed into the thread under the question, with its sources, and a
// reply in that thread goes on with the conversation (store.Conversations).
//
// # An answer's lifecycle
//
// A question is a piece of inbox work (bot.WorkAsk), done once across
// replicas and restarts. Asking the assistant costs credits, so it is never
// repeated blindly: the work marks each step before it takes it, and an
// attempt that finds a step begun but not ended tells the person rather than
// asking again.
//
//	marks of the work            what the attempt does
//	(none)                       take the person's share of the hour (markShare)
//	share                        /docs-ask: post the question (markQuestion = its ts)
//	share [question]             mark asking, ask the assistant, stream the answer
//	                             (markStream = the answer's ts once it shows), save
//	                             the conversation, mark done
//	asking, no done              an earlier attempt asked and stopped (a crash, a
//	                             shutdown): the assistant may have answered, so it is
//	                             not asked again; an answer it left streaming is
//	                             stopped, saying it was cut, and the person is offered
//	                             Ask again; done
//	done                         nothing
//
// What the person reads when the assistant fails: its 429 is "too many
// questions", with when to try again; a stream cut or an error chunk is
// the part received, stopped, saying so, with Ask again; a thread the
// assistant no longer knows (404) starts a new conversation, saying so.
//
// # Slack calls per answer
//
// The answer streams (chat.startStream in the channel's posting turn,
// chat.appendStream, chat.stopStream with the sources and buttons): its
// first text as soon as the first delta arrives, then at most one call a
// second. Where Slack refuses streaming, one message is posted and edited at
// the same pace.
package ask
