package ask

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Marks of an answer's work (doc.go, "An answer's lifecycle").
const (
	markShare    = "share"    // the person's share of the hour and the workspace's taken, in one step
	markQuestion = "question" // /docs-ask: the ts of the message showing the question
	markAsking   = "asking"   // the assistant is being asked: never ask again
	markStream   = "stream"   // the ts of the answer's message, once shown
	markDone     = "done"     // the answer ended (shown, saved, or told why not); not written after one streamed whole (doc.go)
	markAudited  = "audited"  // the question is in the audit trail
)

// AuditAsk is the audit trail's action of a question answered from the docs.
const AuditAsk = "docs.ask"

// doAsk answers a question (bot.WorkAsk) by the table in doc.go.
func (a *answers) doAsk(ctx context.Context, w *bot.Work) error {
	var q bot.Question
	if err := json.Unmarshal(w.Payload, &q); err != nil {
		return fmt.Errorf("decoding a question: %w", err)
	}
	log := a.log.With("user", q.User, "channel", q.Channel, "via", q.Via, "work", w.Key)
	if w.Marked(markDone) != "" {
		return nil
	}
	if _, err := w.Outcome(asking); errors.Is(err, bot.ErrUnfinished) {
		return a.afterStop(ctx, w, q, log)
	}
	if refusal := a.core.Refusal(q.User, q.Channel); refusal != "" {
		a.tell(ctx, q, refusal, log)
		return a.done(ctx, w)
	}
	if !q.Unasked() && q.Via != bot.ViaDM {
		switch a.mode(ctx, q.Channel) {
		case bot.ModeOff:
			a.tell(ctx, q, offHere, log)
			return a.done(ctx, w)
		case bot.ModePrivate: // also when the mode cannot be read (helpchannels.Feature.AnswerMode)
			if q.Via == bot.ViaMention || q.Via == bot.ViaReply || q.Via == bot.ViaReaction {
				q.Via, q.Asked = bot.ViaPrivate, true // shown to the asker alone, sources or not
			}
		}
	}
	key, docs, note := a.docsFor(ctx, q)
	if docs.Assistant == nil {
		a.tell(ctx, q, note, log)
		return a.done(ctx, w)
	}
	// One step takes the person's share and the workspace's, or neither;
	// named by the work, so that an attempt after a crash before the mark
	// is granted again without taking twice.
	if _, err := w.Step(ctx, markShare, func(ctx context.Context) (string, error) {
		who := a.core.Sight(ctx, q.User, "").Spender(q.Team, q.User)
		limits := a.core.QuestionLimitsIn(ctx, a.cfg.Questions()) // the shares set in Slack, if any
		grant, err := a.store.Limits.Draw(ctx, limits.QuestionDraw(who, w.Key), 1)
		if err != nil {
			return "", err
		}
		if !grant.OK() {
			log.Info("question refused: a limit of the hour is reached", "refused", grant.Refused, "retry_after", grant.RetryAfter)
			a.tell(ctx, q, limits.Refusal(who, grant, time.Now()), log)
			return "", errRefused
		}
		return "1", nil
	}); errors.Is(err, errRefused) {
		return a.done(ctx, w)
	} else if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	thread, err := a.threadOf(ctx, w, q)
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	conv, err := a.store.Conversations.Conversation(ctx, conversationOf(thread, q))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if conv.Project != "" && conv.Project != key {
		if d, ok := a.docsOf(conv.Project); ok {
			key, docs = conv.Project, d // a conversation stays with its project
		}
	}
	a.core.Decorations().SetThreadStatus(ctx, q.Channel, thread.TS, "is looking in the docs…", log)
	a.core.Decorations().SetPaneSession(ctx, q.Channel, thread.TS, q.User, true, log)
	// The question's images, read before the paid call is marked
	// (images.go): an attempt that stops while reading them asks later.
	imgs := a.readImages(ctx, q)
	a.noteImages(ctx, w, q, imgs.note, log)
	asked := false
	_, err = w.Paid(ctx, asking, func(ctx context.Context) (string, error) {
		asked = true
		a.audit(ctx, w, q, key)
		return "", a.answer(ctx, w, q, thread, key, docs, conv, imgs, log)
	})
	if err != nil && !asked {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return err
}

// asking is the assistant's call, a paid one (bot.Work.Paid): marked
// before, its outcome kept by the answer (the stream's ts, done); an
// attempt that finds it asking ends the answer (afterStop).
var asking = bot.Call{Begun: markAsking}

// errRefused is why the share's step ends: a limit of the hour refused the
// question, and the person was told.
var errRefused = errors.New("ask: a limit of the hour refused the question")

// conversationOf is the conversation q goes on with in thread: the
// thread's, or, answered to its asker alone (bot.ViaPrivate), the asker's
// own there, which nobody else's question reads or writes (doc.go).
func conversationOf(thread store.Thread, q bot.Question) store.ConversationKey {
	if q.Via == bot.ViaPrivate {
		return store.ConversationKey{Thread: thread, Asker: q.User}
	}
	return store.ConversationKey{Thread: thread}
}

// reply is what an answer carries from the question to its end: the
// question, where the answer goes and from which project, the conversation
// it continues, and what the assistant said.
type reply struct {
	q      bot.Question
	thread store.Thread
	conv   store.ConversationKey // the conversation it goes on with (conversationOf)
	key    string                // the project's
	// stored is the thread's conversation as the work read it: the
	// version the answer's turns are written over (remember).
	stored store.Conversation
	// question is q's text as the assistant was sent it (cutQuestion);
	// images are the question's (images.go).
	question string
	images   images
	stream   *docsapi.AnswerStream
	wr       *writer // the answer's message
	// text is the answer's text without its suggestions, which are apart.
	text        string
	suggestions []docsapi.Suggestion
	// outcome is how the answer came out ("answered", "cut", "failed");
	// note what its message ends with ("" for a whole answer).
	outcome, note string
}

// answer asks the assistant and shows its answer in thread; the work is
// marked asking. It ends the work: whatever happens, the person sees an
// answer or is told why there is none.
func (a *answers) answer(ctx context.Context, w *bot.Work, q bot.Question, thread store.Thread, key string, docs Docs,
	conv store.Conversation, imgs images, log *slog.Logger) error {
	question, questionCut := cutQuestion(q.Text)
	r := reply{q: q, thread: thread, conv: conversationOf(thread, q), key: key, stored: conv, question: question, images: imgs}
	// Slack clears the thread's status when the app replies in the thread;
	// an answer told to the asker alone, or none, is no reply there, so the
	// status is cleared for it (else "is looking in the docs…" stays).
	defer func() {
		if r.wr == nil || r.wr.ts == "" {
			a.core.Decorations().SetThreadStatus(ctx, q.Channel, thread.TS, "", log)
		}
	}()
	stream, how, err := a.ask(ctx, docs, r, log)
	if err != nil {
		a.metrics.Answer("failed")
		a.tell(ctx, q, a.failure(err), log)
		log.Warn("the assistant did not answer", "err", err)
		return a.done(ctx, w)
	}
	defer stream.Close()
	// However the answer ends, the pane's session waits for the person again.
	defer a.core.Decorations().SetPaneSession(ctx, q.Channel, thread.TS, q.User, false, log)
	r.stream = stream
	r.wr = &writer{core: a.core, channel: q.Channel, thread: thread.TS, user: q.User, team: q.Team, interval: a.cfg.Interval, now: a.cfg.Now,
		sites: a.sites(docs), log: log, onStarted: func(ctx context.Context, ts string) error {
			return w.Mark(ctx, map[string]string{markStream: ts})
		}, hold: q.Unasked()}
	first := time.Time{}
	relayErr := relay(ctx, stream, r.wr, func() {
		if first.IsZero() {
			first = time.Now()
		}
	}, relayLimits{text: StreamTextMax, time: a.cfg.StreamTime}, log)
	r.text, r.suggestions = docsapi.ExtractSuggestions(r.wr.text.String())
	if errors.Is(relayErr, errStopped) {
		return a.stopped(ctx, w, r, log)
	}
	r.outcome, r.note = a.outcomeOf(ctx, relayErr)
	if r.outcome == "" {
		// docsbot is stopping: the next attempt stops this answer, saying
		// so (afterStop); the assistant is not asked again.
		return relayErr
	}
	r.note = noteOf(r.note, how.fresh, questionCut, imagesLine(imgs.names, how.filesRefused))
	if r.outcome != "answered" {
		log.Warn("the answer is incomplete", "outcome", r.outcome, "err", relayErr)
	}
	if q.Unasked() {
		return a.unasked(ctx, w, r, log)
	}
	again := ""
	if r.outcome != "answered" && !errors.Is(relayErr, errTooLong) {
		again = againOf(q.Text, key) // asked again, an answer too long would be as long
	}
	return a.show(ctx, w, r, again, first, log)
}

// ask asks the assistant r's question, with its images, in the
// conversation r continues (how says what became of them). When the
// assistant no longer knows that conversation (it answered 404, so it
// answered nothing), the question starts a new one (fresh); when it refuses
// the question's files (docsapi.ErrFilesRefused: it answered nothing), the
// question is asked again without them (filesRefused). Each at most once.
func (a *answers) ask(ctx context.Context, docs Docs, r reply, log *slog.Logger) (*docsapi.AnswerStream, askedHow, error) {
	history, left := historyOf(r.stored.Turns)
	if left > 0 {
		log.Info("the conversation is longer than the assistant is sent; its oldest turns are left out", "left_out", left)
	}
	files := r.images.files
	req := docsapi.AskRequest{Fingerprint: fingerprint(r.q), Messages: messagesOf(history, r.question, files),
		Thread: docsapi.Thread{ID: r.stored.ThreadID, Key: docsapi.ThreadKey(r.stored.ThreadKey)}}
	var how askedHow
	for {
		stream, err := docs.Assistant.Ask(ctx, req)
		switch {
		case errors.Is(err, docsapi.ErrThreadNotFound) && req.Thread.ID != "":
			log.Info("the assistant no longer knows the conversation; starting a new one")
			how.fresh, req.Thread, req.Messages = true, docsapi.Thread{}, messagesOf(nil, r.question, files)
		case errors.Is(err, docsapi.ErrFilesRefused) && len(files) > 0:
			log.Warn("the assistant refused the question's images; asking without them", "err", err)
			how.filesRefused, files = true, nil
			req.Messages[len(req.Messages)-1].Files = nil
		default:
			return stream, how, err
		}
	}
}

// askedHow is how a question was asked (ask): in a new conversation
// (fresh), without the images the assistant refused (filesRefused).
type askedHow struct {
	fresh, filesRefused bool
}

// noteOf is the note an answer ends with: note, what the person should
// know of how it was asked (a new conversation, a question cut), and the
// line about its images (imagesLine).
func noteOf(note string, fresh, questionCut bool, images string) string {
	if images != "" {
		note = strings.TrimSpace(note + "\n\n" + images)
	}
	if fresh {
		note = strings.TrimSpace(note + "\n\n_The earlier conversation in this thread had expired, so this answer starts a new one._")
	}
	if questionCut {
		note = strings.TrimSpace(note + fmt.Sprintf("\n\n_Your question is longer than the %s characters docsbot sends, so the docs assistant got its first %s._",
			humanize.Count(QuestionMax), humanize.Count(QuestionMax)))
	}
	return note
}

// show ends the answer of a question asked of docsbot: the conversation
// and the question's outcome record are kept before the answer's message
// ends, so that its buttons and a reply find them as soon as it shows
// whole (a press on a question with no record counts for nothing); the
// message ends with its sources and buttons (again: Ask again's question,
// "" for none). It ends the work.
func (a *answers) show(ctx context.Context, w *bot.Work, r reply, again string, first time.Time, log *slog.Logger) error {
	wr := r.wr
	turn := 0
	if r.outcome == "answered" || strings.TrimSpace(r.text) != "" {
		turn = a.remember(ctx, r, log)
	}
	recorded := wr.ts != "" // streamed: the message is there, its buttons not yet
	if recorded {
		a.answeredOutcome(ctx, r, wr.ts, log)
	}
	if err := wr.finish(ctx, r.note, answerBlocks(wr.sites, r.stream.Sources(), r.suggestions, again, turn)); haltedByStop(err) {
		// Stop was pressed after the last text: the answer shows whole
		// but for its sources and buttons.
		return a.stopped(ctx, w, r, log)
	} else if err != nil {
		log.Warn("ending the answer's message failed", "err", err)
		if wr.ts == "" || bot.TransientSlack(err) {
			// Nothing shows, or the message was left cut short: the next
			// attempt tells the person, or ends the message saying so
			// (afterStop).
			return a.later(ctx, w, wr, err, log)
		}
	}
	a.metrics.Answer(r.outcome)
	if !recorded && wr.ts != "" {
		a.answeredOutcome(ctx, r, wr.ts, log)
	}
	if !first.IsZero() {
		a.metrics.FirstText(wr.firstShown.Sub(first))
	}
	if !wr.fallback && wr.ts != "" && w.Marked(markStream) == wr.ts {
		// No done mark: Done follows at once, and an attempt after a lost
		// Done (a crash before it, Redis away past its retries) finds this
		// stream marked, stops it (afterStop) and hears it stopped already
		// (message_not_in_streaming_state): nothing shows, nothing is asked.
		return nil
	}
	return a.done(ctx, w)
}

// later hands an answer whose message could not be ended to the next
// attempt (afterStop), once its message's ts is recorded: an attempt that
// did not find it would tell the person nothing showed while a message cut
// short does.
func (a *answers) later(ctx context.Context, w *bot.Work, wr *writer, err error, log *slog.Logger) error {
	if wr.ts != "" && w.Marked(markStream) != wr.ts {
		if merr := w.Mark(ctx, map[string]string{markStream: wr.ts}); merr != nil {
			log.Warn("the answer's message cannot be recorded for the next attempt", "err", merr)
		}
	}
	return bot.Later(bot.RetryDelay(w.Attempt), err)
}

// relayLimits bound what relay reads of one answer: its text (bytes) and
// its time.
type relayLimits struct {
	text int
	time time.Duration
}

// Why relay stopped reading an answer before its end, within its limits.
var (
	errTooLong = errors.New("ask: the answer is longer than docsbot reads")
	errTooSlow = errors.New("ask: the answer took longer than docsbot reads")
)

// relay reads the answer's events and shows them through wr: the text as
// it comes, within wr's pace, and at the end what is left. It returns nil at
// the end of a complete answer, or why it ended early: errTooLong past
// lim.text of text (what came within it is kept), errTooSlow past
// lim.time. It starts one goroutine to read the stream and leaves none
// behind: the stream is closed when it returns.
func relay(ctx context.Context, s *docsapi.AnswerStream, wr *writer, onText func(), lim relayLimits, log *slog.Logger) error {
	type item struct {
		ev  docsapi.AnswerEvent
		err error
	}
	events := make(chan item)
	stop := make(chan struct{})
	go func() {
		defer close(events)
		for {
			ev, err := s.Next()
			select {
			case events <- item{ev, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() {
		close(stop)
		_ = s.Close() // a Next under way returns
		for range events {
		}
	}()
	var timer *time.Timer
	var tick <-chan time.Time
	deadline := time.NewTimer(lim.time)
	defer func() {
		deadline.Stop()
		if timer != nil {
			timer.Stop()
		}
	}()
	read := 0
	for {
		select {
		case it, ok := <-events:
			if !ok || errors.Is(it.err, io.EOF) {
				return nil
			}
			if it.err != nil {
				return it.err
			}
			if t, ok := it.ev.(docsapi.TextEvent); ok && t.Delta != "" {
				onText()
				if read+len(t.Delta) > lim.text {
					wr.add(cutBytes(t.Delta, lim.text-read))
					return errTooLong
				}
				read += len(t.Delta)
				wr.add(t.Delta)
			}
		case <-tick:
			tick = nil
		case <-deadline.C:
			return errTooSlow
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := wr.flush(ctx, time.Now()); haltedByStop(err) {
			return errStopped
		} else if err != nil {
			log.Warn("showing the answer as it comes failed; trying again with the next part", "err", err)
		}
		if tick == nil && wr.pending() {
			wait := max(wr.interval-time.Since(wr.last), time.Millisecond)
			if timer == nil {
				timer = time.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			tick = timer.C
		}
	}
}

// afterStop ends the work of an earlier attempt that asked the assistant
// and stopped before the end (doc.go): an answer left streaming is stopped,
// saying it was cut; with nothing shown, the person is told. Either way
// they are offered Ask again; the assistant is not asked again. The
// question goes in the audit trail unless the earlier attempt's record
// went in (its mark): a record held for the Done of an attempt that died
// died with it (bot.AuditTrail.Work).
func (a *answers) afterStop(ctx context.Context, w *bot.Work, q bot.Question, log *slog.Logger) error {
	key, _, _ := a.docsFor(ctx, q)
	a.audit(ctx, w, q, key)
	again := againOf(q.Text, key)
	if ts := w.Marked(markStream); ts != "" {
		_, _, err := a.core.SlackIn(ctx).StopStreamContext(ctx, q.Channel, ts,
			slack.MsgOptionMarkdownText("\n\n_docsbot stopped while answering, so this answer may be incomplete._"),
			slack.MsgOptionBlocks(slack.NewActionBlock("again", askAgainButton(again))))
		var se slack.SlackErrorResponse
		switch {
		case errors.As(err, &se) && se.Err == "message_not_in_streaming_state":
			// The earlier attempt ended the answer and stopped before
			// marking it: the person saw it whole.
			log.Info("the answer of an earlier attempt was complete")
		case err != nil:
			if bot.TransientSlack(err) {
				return bot.Later(bot.RetryDelay(w.Attempt), err)
			}
			log.Warn("stopping the answer an earlier attempt left failed", "err", err)
		default:
			a.metrics.Answer("cut")
			log.Warn("an earlier attempt stopped while answering; its answer was ended, saying so")
		}
		return a.done(ctx, w)
	}
	a.metrics.Answer("lost")
	log.Warn("an earlier attempt asked the assistant and stopped before showing the answer; the person is told")
	a.tellWith(ctx, q, "docsbot stopped before it could show the answer to your question, and does not ask the docs assistant twice on its own. "+
		"Press *Ask again* to ask it again.", []slack.Block{slack.NewActionBlock("again", askAgainButton(again))}, log)
	return a.done(ctx, w)
}

// giveUp tells the person their question could not be answered: it waited
// too long for Slack or Redis.
func (a *answers) giveUp(ctx context.Context, w *bot.Work) {
	var q bot.Question
	if json.Unmarshal(w.Payload, &q) != nil {
		return
	}
	a.tell(ctx, q, "docsbot could not answer your question: Slack or its storage was unavailable for too long. Please ask again.", a.log)
}

// done marks the work ended.
func (a *answers) done(ctx context.Context, w *bot.Work) error {
	if err := w.Mark(context.WithoutCancel(ctx), map[string]string{markDone: "1"}); err != nil {
		a.log.Warn("marking a question answered failed", "work", w.Key, "err", err)
	}
	return nil
}

// threadOf is the Slack thread the answer goes in: the question's thread,
// or under the person's message; for /docs-ask, under a message of the
// bot's showing the question, posted once (markQuestion).
func (a *answers) threadOf(ctx context.Context, w *bot.Work, q bot.Question) (store.Thread, error) {
	t := store.Thread{Team: q.Team, Channel: q.Channel, TS: cmp.Or(q.ThreadTS, q.TS)}
	if q.Via != bot.ViaAskCommand {
		return t, nil
	}
	ts, err := w.Step(ctx, markQuestion, func(ctx context.Context) (string, error) {
		return a.core.Post(ctx, q.Channel, bot.Plain{slack.MsgOptionText(mrkdwn.Mention(q.User)+" asked: "+mrkdwn.Defuse(mrkdwn.Escape(mrkdwn.Cut(q.Text, 2000))), false),
			slack.MsgOptionDisableLinkUnfurl()})
	})
	if ts != "" {
		t.TS = ts
	}
	return t, err
}

// outcomeOf is how an answer whose stream ended with relayErr (nil: whole)
// came out, for the metrics and the logs, and the note the answer ends
// with ("" for a whole answer); no outcome when docsbot is stopping.
func (a *answers) outcomeOf(ctx context.Context, relayErr error) (outcome, note string) {
	switch {
	case relayErr == nil:
		return "answered", ""
	case errors.Is(relayErr, docsapi.ErrAnswerFailed):
		return "failed", "_The docs assistant stopped with an error; this answer may be incomplete. Ask again in a moment._"
	case errors.Is(relayErr, docsapi.ErrStreamCut):
		return "cut", "_The answer was cut off before it ended. Ask again to get it whole._"
	case errors.Is(relayErr, errTooLong):
		return "cut", fmt.Sprintf("_The docs assistant's answer is longer than docsbot reads of one answer (%d KiB), so it was cut here._", StreamTextMax>>10)
	case errors.Is(relayErr, errTooSlow):
		return "cut", "_The docs assistant took longer than " + humanize.Duration(a.cfg.StreamTime) +
			" to answer, so docsbot stopped reading the answer here. Ask again to try once more._"
	case ctx.Err() != nil:
		return "", ""
	default:
		return "failed", "_docsbot could not show the whole answer. Ask again in a moment._"
	}
}

// docsFor decides which project answers q: the one it names, the one its
// pane implies (Question.Implied) when that has an assistant, the thread's
// or channel's (bot.Projects.Resolve), else the first that has an assistant.
// It returns the project's key and docs; a zero Docs with what to tell the
// person when none answers.
func (a *answers) docsFor(ctx context.Context, q bot.Question) (string, Docs, string) {
	if q.Project != "" {
		if d, ok := a.docsOf(q.Project); ok {
			return q.Project, d, ""
		}
	}
	if q.Project != "" && !q.Implied {
		return q.Project, Docs{}, "The docs project `" + mrkdwn.Escape(q.Project) + "` has no docs assistant set up, so docsbot cannot answer from it."
	}
	res, err := a.core.ProjectsIn(ctx).Resolve(ctx, project.Request{Team: q.Team, Channel: q.Channel, User: q.User, Text: q.Text})
	if err == nil && !res.Ask {
		if d, ok := a.docsOf(bot.ProjectKey(res.Project)); ok {
			return bot.ProjectKey(res.Project), d, ""
		}
	}
	for _, p := range a.core.ProjectsIn(ctx).All() {
		if d, ok := a.docsOf(bot.ProjectKey(p)); ok {
			return bot.ProjectKey(p), d, ""
		}
	}
	return "", Docs{}, "No docs project has a docs assistant set up, so docsbot cannot answer questions."
}

// remember keeps the conversation r goes on with (r.conv) for the next
// reply: its project, its asker (who asked first), the assistant's thread,
// the question and the answer (the store keeps the turns cut to what is
// sent again: store.Conversation.Keep) and, for an answer shown to its
// asker alone, the answer as Share in channel posts it; written over
// r.stored, the conversation as the work read it
// (store.Conversations.UpdateConversation: an answer written in the thread
// since is read again, not overwritten). It returns the answer's turn
// (store.Conversation.Answers), 0 when it was not kept.
func (a *answers) remember(ctx context.Context, r reply, log *slog.Logger) int {
	key, user, at, question, answer, sources := r.key, r.q.User, r.stream.Thread(), r.question, r.text, sourceKeys(r.stream.Sources())
	shared := ""
	if r.q.Via == bot.ViaPrivate {
		shared = mrkdwn.Cut(mrkdwn.FromMarkdown(answer, r.wr.sites), bot.SharedTextMax)
	}
	c, err := a.store.Conversations.UpdateConversation(context.WithoutCancel(ctx), r.conv, a.cfg.Keep, r.stored, func(c *store.Conversation) error {
		c.Project = key
		c.Workspace = bot.WorkspaceOf(ctx)
		if c.Asker == "" {
			c.Asker = user
		}
		if at.ID != "" {
			c.ThreadID = at.ID
		}
		if at.Key != "" {
			c.ThreadKey = string(at.Key)
		}
		c.Turns = append(c.Turns, store.Turn{Role: "user", Text: question}, store.Turn{Role: "assistant", Text: answer})
		c.Sources = sources
		c.Answers++
		c.Last = shared
		return nil
	})
	if err != nil {
		log.Warn("keeping the conversation failed; a reply in the thread will start a new one", "err", err)
		return 0
	}
	return c.Answers
}

// sourceKeys are the paths (else URLs) of an answer's sources, at most
// answerSources.
func sourceKeys(sources []docsapi.AnswerSource) []string {
	var out []string
	for _, s := range sources {
		if k := s.Key(); k != "" && !slices.Contains(out, k) && len(out) < answerSources {
			out = append(out, k)
		}
	}
	return out
}

// messagesOf is the conversation so far (history) and the new question
// with its files, as the assistant takes them.
func messagesOf(history []store.Turn, question string, files []docsapi.FilePart) []docsapi.UIMessage {
	var out []docsapi.UIMessage
	for i, t := range history {
		id := fmt.Sprintf("m%d", i+1)
		if t.Role == "assistant" {
			out = append(out, docsapi.AssistantText(id, t.Text))
		} else {
			out = append(out, docsapi.UserText(id, t.Text))
		}
	}
	last := docsapi.UserText(fmt.Sprintf("m%d", len(history)+1), question)
	last.Files = files
	return append(out, last)
}

// cutQuestion is question as the assistant is sent it, at most
// QuestionMax characters, and whether it was cut.
func cutQuestion(question string) (string, bool) {
	if utf8.RuneCountInString(question) <= QuestionMax {
		return question, false
	}
	return mrkdwn.Cut(question, QuestionMax), true
}

// historyOf is what of a conversation's turns goes with a question, at
// most HistoryMax characters in all, and how many turns are left out
// (store.History: the oldest exchanges first; the latest alone cut to fit).
func historyOf(turns []store.Turn) ([]store.Turn, int) { return store.History(turns, HistoryMax) }

// cutBytes is the longest start of s of at most n bytes that does not
// split a character.
func cutBytes(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:max(n, 0)]
}

// fingerprint identifies the person to the assistant without naming them:
// their team and user ids, which the assistant's analytics group by.
func fingerprint(q bot.Question) string { return q.Team + ":" + q.User }

// failure is what the person reads when the assistant did not answer.
func (a *answers) failure(err error) string {
	var api *docsapi.APIError
	switch {
	case errors.Is(err, docsapi.ErrRateLimited):
		wait := humanize.In(0, time.Now())
		if errors.As(err, &api) {
			wait = humanize.In(api.RetryAfter, time.Now())
		}
		return "The docs assistant is answering too many questions right now. Please ask again " + wait + "."
	case errors.As(err, &api) && (api.StatusCode == 401 || api.StatusCode == 403):
		return "The docs assistant refused docsbot's key, so docsbot cannot answer. Tell whoever runs docsbot (`docsbot doctor` shows it)."
	}
	return "The docs assistant could not answer just now (" + mrkdwn.Escape(mrkdwn.Cut(oneLine(err), 200)) + "). Please ask again in a minute."
}

// oneLine is err's message on one line.
func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// tell tells the person privately: through /docs-ask's response URL, else
// in the thread or channel.
func (a *answers) tell(ctx context.Context, q bot.Question, text string, log *slog.Logger) {
	a.tellWith(ctx, q, text, nil, log)
}

// tellWith is tell with blocks under the text.
func (a *answers) tellWith(ctx context.Context, q bot.Question, text string, blocks []slack.Block, log *slog.Logger) {
	p := bot.Private{User: q.User, Channel: q.Channel, ThreadTS: q.ThreadTS, ResponseURL: q.ResponseURL, Text: text, Blocks: blocks}
	if err := a.core.TellPrivately(ctx, p); err != nil {
		log.Warn("telling the person privately failed", "err", err)
	}
}

// audit records the question once: who asked what, where, of which project.
func (a *answers) audit(ctx context.Context, w *bot.Work, q bot.Question, key string) {
	a.core.Audit().Work(ctx, w, markAudited, store.AuditRecord{Team: q.Team, Channel: q.Channel, User: q.User, Action: AuditAsk,
		Outcome: "asked", Detail: q.Via, Instruction: q.Text, Project: key})
}
