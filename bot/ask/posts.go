package ask

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/store"
)

// The answers own two rows of the core's table of posts (bot/posts.go):
//
//	owner             order                  hears                       claims
//	ask.thread        bot.OrderAnswerThread  a reply with text           the thread has a conversation, or the poster has theirs in it (answered: the asker's reply or any mention; another's plain reply is left alone)
//	ask.question      bot.OrderQuestion      a mention, a DM, with text  a question (bot.QuestionIn) from someone the allow-lists let in
//
// Each claimed question is handed to the answer's own work (bot.WorkAsk)
// keyed by the post's work, so that a second attempt queues it once.

// Names of the answers' owners of posts.
const (
	ownerThread   = "ask.thread"
	ownerQuestion = "ask.question"
)

// ownPosts registers the answers' rows of the table above.
func (a *answers) ownPosts(routes bot.Router) {
	routes.OwnPosts(bot.PostOwner{Name: ownerThread, Order: bot.OrderAnswerThread, Hears: hearsThreadReply,
		Claims: a.claimsThread, Do: a.doThreadReply})
	routes.OwnPosts(bot.PostOwner{Name: ownerQuestion, Order: bot.OrderQuestion, Hears: hearsAddressed,
		Claims: a.claimsQuestion, Do: a.doQuestion})
}

func hearsThreadReply(_ context.Context, p bot.Post) bool { return p.InThread() && p.Text != "" }
func hearsAddressed(_ context.Context, p bot.Post) bool   { return p.Addressed() && p.Text != "" }

// claimsThread claims a reply in a thread that has a conversation, or in
// which its poster has their own (conversationOfPost).
func (a *answers) claimsThread(ctx context.Context, _ *bot.Work, p *bot.Post) (bool, error) {
	_, err := a.conversationOfPost(ctx, *p)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// doThreadReply goes on with the conversation of an answer's thread when
// the reply is its asker's, a mention or a DM's (goesOnWith); anyone else's
// reply there is people talking: it costs nothing.
func (a *answers) doThreadReply(ctx context.Context, w *bot.Work, p bot.Post) error {
	c, err := a.conversationOfPost(ctx, p)
	if errors.Is(err, store.ErrNotFound) {
		return nil // ended since it was claimed
	}
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if !goesOnWith(c.Asker, p) {
		a.log.Debug("a reply in another's answer thread; not a question", "work", w.Key)
		t := threadOfPost(p)
		a.recordOutcome(ctx, store.OutcomeRef{Team: t.Team, Channel: t.Channel, TS: t.TS}, nil, outcome.Event{Kind: outcome.Reply, By: p.User}, nil, a.log)
		return nil
	}
	return a.handOver(ctx, w, p, p.Text)
}

// goesOnWith reports whether post p goes on with the conversation asked by
// asker: in a direct message, or when it mentions the bot, always (a
// mention by someone else is a question of theirs); in a channel, a plain
// reply only when it is the asker's ("" when not known: a conversation
// kept before askers were).
func goesOnWith(asker string, p bot.Post) bool {
	return p.Mention || p.DM || asker == "" || asker == p.User
}

// claimsQuestion claims a mention or DM that is a question for the docs
// (bot.QuestionIn): anything from a person who may not start jobs, "ask …"
// or a question mark from one who may. When Slack cannot say which, only
// the explicit forms are questions, and a job start is "not now". A person
// the allow-lists do not let in is not claimed: the agent refuses them.
func (a *answers) claimsQuestion(ctx context.Context, _ *bot.Work, p *bot.Post) (bool, error) {
	if a.core.Refusal(p.User, p.Channel) != "" {
		return false, nil
	}
	refusal, notNow := a.core.Editors().Check(ctx, p.User, p.Channel, "")
	_, ok := bot.QuestionIn(p.Text, refusal == "" || notNow)
	return ok, nil
}

// doQuestion hands a question claimed by claimsQuestion to the answers.
func (a *answers) doQuestion(ctx context.Context, w *bot.Work, p bot.Post) error {
	// Claimed, it is a question whoever asks: QuestionIn as for a person
	// who may not start jobs only takes "ask" off its front.
	q, _ := bot.QuestionIn(p.Text, false)
	if _, err := w.Step(ctx, markJobsNote, func(ctx context.Context) (string, error) {
		a.noteNotAJob(ctx, p)
		return "1", nil
	}); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return a.handOver(ctx, w, p, q)
}

// markJobsNote marks a question's post once noteNotAJob was done.
const markJobsNote = "jobs_note"

// noteNotAJob tells the author of a post that reads as a job request (an
// editor's words would start a job) but comes from someone who may not start
// jobs, privately, that jobs are for editors and the post is answered as a
// question instead: otherwise "add a changelog page" gets an answer and no
// word of why no job started.
func (a *answers) noteNotAJob(ctx context.Context, p bot.Post) {
	if _, asked := bot.QuestionIn(p.Text, true); asked {
		return
	}
	refusal, notNow := a.core.Editors().Check(ctx, p.User, p.Channel, "")
	if refusal == "" || notNow {
		return
	}
	text := refusal + " docsbot answers your message as a question for the docs instead."
	if err := a.core.TellPrivately(ctx, bot.Private{User: p.User, Channel: p.Channel, ThreadTS: cmp.Or(p.ThreadTS, p.TS), Text: text}); err != nil {
		a.log.Warn("telling a person that jobs are for editors failed", "user", p.User, "err", err)
	}
}

// handOver queues the post p as the question q (bot.WorkAsk), keyed by the
// post's work so that a redelivery or a second attempt queues it once.
func (a *answers) handOver(ctx context.Context, w *bot.Work, p bot.Post, q string) error {
	via := bot.ViaMention
	switch {
	case p.InThread() && !p.Mention:
		via = bot.ViaReply
	case p.DM && !p.Mention:
		via = bot.ViaDM
	}
	payload, _ := json.Marshal(bot.Question{Team: p.Team, Channel: p.Channel, User: p.User, TS: p.TS, ThreadTS: p.ThreadTS, Text: q, Via: via,
		Project: p.Project, Implied: p.Project != "", // only the pane names it: the channel looked at
		Files: p.Attached})
	if _, err := a.core.QueueFromWork(ctx, store.Work{Key: "ask:" + w.Key, Kind: bot.WorkAsk, Payload: payload}); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	a.log.Info("handed to the answers from the docs", "via", via, "work", w.Key)
	return nil
}

// conversationOfPost is the conversation a reply in a thread goes on
// with: its poster's own there, where the thread is answered privately
// (conversationOf), else the thread's; ErrNotFound when neither is.
func (a *answers) conversationOfPost(ctx context.Context, p bot.Post) (store.Conversation, error) {
	t := threadOfPost(p)
	if p.User != "" {
		c, err := a.store.Conversations.Conversation(ctx, store.ConversationKey{Thread: t, Asker: p.User})
		if !errors.Is(err, store.ErrNotFound) {
			return c, err
		}
	}
	return a.store.Conversations.Conversation(ctx, store.ConversationKey{Thread: t})
}

// threadOfPost is the thread a reply is in.
func threadOfPost(p bot.Post) store.Thread {
	return store.Thread{Team: p.Team, Channel: p.Channel, TS: p.ThreadTS}
}
