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
// asking again. The share and the question's message are steps
// (bot.Work.Step), asking the assistant a paid one (bot.Work.Paid on
// asking, its outcome the stream and done marks).
//
//	marks of the work            what the attempt does
//	(none)                       take the person's share of the hour and the
//	                             workspace's (DOCSBOT_ASK_BUDGET), both or neither,
//	                             in one step named by the work (store.Draw.ID: an
//	                             attempt after a crash before the mark is granted
//	                             again, not counted twice); mark share. Refused:
//	                             the person is told which limit and when to ask
//	                             again, privately; done, the assistant not asked
//	share                        /docs-ask: post the question (markQuestion = its ts)
//	share [question]             mark asking, ask the assistant (the question cut to
//	                             QuestionMax, the history to HistoryMax), stream the
//	                             answer (markStream = the answer's ts once it shows)
//	                             while it is within StreamTextMax and StreamTimeMax,
//	                             save the conversation (its asker the first time;
//	                             cut to what is sent again, store.Conversation.Keep),
//	                             mark done; not after an answer streamed whole,
//	                             which Done follows at once: an attempt after a
//	                             lost Done finds its stream stopped (below)
//	asking, no done              an earlier attempt asked and stopped (a crash, a
//	                             shutdown): the assistant may have answered, so it is
//	                             not asked again; the question is audited unless
//	                             marked audited (a replica that died took its held
//	                             record with it); an answer it left streaming is
//	                             stopped, saying it was cut, and the person is offered
//	                             Ask again (one Slack stopped already is left as it
//	                             is: the attempt ended it whole); done
//	done                         nothing
//
// Which replies are questions: in a channel, a conversation is its asker's:
// their replies in its thread go on with it, and anyone's mention of
// docsbot there is a question of the one who mentions (their share); the
// others' replies ("thanks") are left alone: claimed by the answers (the
// thread is theirs) and nothing queued (goesOnWith, posts.go). In a DM
// every reply goes on.
//
// Questions nobody asked (a help channel's, bot.Question.Unasked) are read
// whole and shown only when they cite the docs (unasked.go); a channel's
// mode (Deps.Help: the help channels' AnswerMode) may send a mention's, a
// reply's or a :question: reaction's answer to its asker alone (private;
// also when the mode cannot be read) or refuse it with a pointer (off).
// An answer shown to its asker alone goes on with the asker's own
// conversation in the thread (store.ConversationKey), never another's,
// and keeps its text as Share in channel posts it; the button names its
// asker and turn (bot.ShareRef).
//
// What an answer may show: it pings nobody and links only to the docs
// (bot/mrkdwn): the stream's pieces are cut by one rule (mrkdwn.NextCut)
// as the answer grows and at its end, each made safe whole
// (mrkdwn.Markdown); the posted and edited message is made safe whole
// (mrkdwn.FromMarkdown); links stay links only to the project's docs site
// and DOCSBOT_LINK_DOMAINS (mrkdwn.Sites), every other address (in the
// text, the Sources, See also) shows as code. A person's 👍/👎 counts once
// per answer in /metrics and the audit trail, and Ask the docs team posts
// once per question (store.Limits.Once).
//
// How the question came out: an answer shown starts the question's outcome
// record, and every 👍/👎 press (Slack's buttons toggle), another's reply in
// the thread and Ask the docs team are events of it (outcomes.go has where
// each is recorded; bot/outcome has the table that decides the outcome).
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
