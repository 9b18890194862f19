package helpchannels

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	qoutcome "github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/store"
)

// Experts: Ask an expert (under an answer, or under the note that the docs
// do not cover a question) calls a project's experts (DOCSBOT_EXPERTS and
// the project's experts: in the projects file) to the question's thread,
// once per thread (store.HelpChannels.CallExpert), with Mark resolved;
// only a member of the organisation calls them, within their calls of the
// hour and the channel's, and in a channel shared with another
// organisation the call names no user group (calls.go). A
// call nobody answered is reminded once, ExpertReminder after it: its due
// time is in Redis, and each replica's reminder loop claims what is due
// under a lease (ClaimReminders), so one replica at a time holds it; the
// thread is read before the reminder is posted (an earlier reminder, carried
// by its metadata, or an answer ends it). Mark resolved, by the asker or an
// expert, adds ✅ to the question and says who; when an expert's reply is in
// the thread, an editor who resolves it (else the expert, when an editor)
// is offered Turn this into docs: the agent's form with the question and the
// expert's answer quoted as theirs (jobdraft.Draft.Expert).

// Defaults of the experts' settings.
const (
	// DefaultExpertReminder is how long an expert call waits for an answer
	// before its reminder (DOCSBOT_EXPERT_REMINDER).
	DefaultExpertReminder = 4 * time.Hour
	// DefaultExpertCallsPerUser is how many times one person may call the
	// experts an hour (DOCSBOT_EXPERT_CALLS_PER_USER).
	DefaultExpertCallsPerUser = 3
	// DefaultExpertCallsPerChannel is how many times the experts may be
	// called to one channel an hour (DOCSBOT_EXPERT_CALLS_PER_CHANNEL).
	DefaultExpertCallsPerChannel = 10
	// DefaultReminderCheck is how often each replica looks for reminders
	// due.
	DefaultReminderCheck = time.Minute
)

// reminderLease is how long a claimed reminder is held: past it, another
// replica takes it (the one that claimed it died).
const reminderLease = time.Minute

// Metadata event types of the experts' posts: the call (replies after it
// answer it) and the reminder (a replica finding one in the thread does
// not post another).
const (
	CallEvent     = "docsbot_expert_call"
	ReminderEvent = "docsbot_expert_reminder"
)

// Calls keeps the expert calls and their reminders (store.HelpChannels).
type Calls interface {
	CallExpert(ctx context.Context, c store.ExpertCall, due time.Time) (bool, error)
	ForgetCall(ctx context.Context, ref string) error
	ExpertCall(ctx context.Context, ref string) (store.ExpertCall, error)
	ClaimReminders(ctx context.Context, now time.Time, lease time.Duration, most int) ([]store.ExpertCall, error)
	EndReminder(ctx context.Context, ref string) error
	ResolveCall(ctx context.Context, ref, by, work string, at time.Time) (store.ExpertCall, bool, error)
}

// experts are the experts of the project keyed key: DOCSBOT_EXPERTS and
// the project's, or, when the workspace ctx names set experts in Slack,
// those alone.
func (f *Feature) experts(ctx context.Context, key string) roles.Editors {
	if e, ok := f.core.ExpertsIn(ctx); ok {
		return e
	}
	e := roles.Editors{Users: slices.Clone(f.cfg.Experts.Users), Groups: slices.Clone(f.cfg.Experts.Groups)}
	for _, p := range f.projects() {
		if bot.ProjectKey(p) == key {
			e.Users = append(e.Users, p.Experts.Users...)
			e.Groups = append(e.Groups, p.Experts.Groups...)
		}
	}
	return e
}

// HasExperts reports whether the project keyed key has experts to call
// (Ask an expert), what the answerer reads.
func (f *Feature) HasExperts(ctx context.Context, key string) bool {
	e := f.experts(ctx, key)
	return len(e.Users)+len(e.Groups) > 0
}

// mentions are the experts as Slack mentions.
func mentions(e roles.Editors) string {
	var out []string
	for _, g := range e.Groups {
		out = append(out, "<!subteam^"+g+">")
	}
	for _, u := range e.Users {
		out = append(out, mrkdwn.Mention(u))
	}
	return strings.Join(out, " ")
}

// isExpert reports whether user is one of e, directly or in one of its
// groups (usergroups.users.list through the experts' cache: one read of a
// group for all the replies of a press).
func (f *Feature) isExpert(ctx context.Context, e roles.Editors, user string) bool {
	if e.Empty() {
		return false
	}
	v := f.expertGroups.Check(ctx, user, e)
	if v.Err != nil {
		f.log.Warn("could not read an experts' group", "err", v.Err)
	}
	return v.Editor
}

// clicked is a button's press: who, where, the thread its value names
// (and, for Ask an expert, what the button was under: expert).
type clicked struct {
	user, team, channel string
	ref                 bot.ThreadRef
	expert              bot.ExpertRef
	ic                  slack.InteractionCallback
}

// Work kinds of the help channels' buttons (bot.QueuePress): each press
// is recorded before its ack and done by the replica that claims it.
const (
	workAskExpert = "help.ask-expert"
	workResolve   = "help.mark-resolved"
	workShare     = "help.share"
)

// Marks of the buttons' steps (bot.Work.Step): the call or the resolution
// recorded (an attempt that finds it goes on to what follows instead of
// saying it was done already), and the post that says so.
const (
	markCalled      = "called"
	markSummoned    = "summoned"
	markExpertsTold = "experts-told"
	markResolved    = "resolved"
	markSaid        = "said"
	markShareOnce   = "share-once"
	markShared      = "shared"
)

func (f *Feature) onAskExpert(ctx context.Context, r *bot.InteractionRequest) {
	f.core.QueuePress(ctx, r, workAskExpert, "the experts were not called")
}

func (f *Feature) onResolve(ctx context.Context, r *bot.InteractionRequest) {
	f.core.QueuePress(ctx, r, workResolve, "the question was not marked resolved")
}

func (f *Feature) onShare(ctx context.Context, r *bot.InteractionRequest) {
	f.core.QueuePress(ctx, r, workShare, "the answer was not shared")
}

// passing reports whether a post of a press's work failed for a reason that
// may pass (Slack busy or away, this replica stopping: bot.TransientSlack):
// the work is then tried again, by any replica, from its marks.
func passing(err error) bool {
	return !errors.Is(err, errNoExpertTold) && bot.TransientSlack(err)
}

// giveUpPress tells the person who pressed that what they asked for was
// not done, or not wholly (text): Slack was unavailable for longer than
// the work may wait (bot.WorkMaxAge). What the work took once and did not
// post (a call of the experts, a share) is given back first, so that
// pressing again does it.
func (f *Feature) giveUpPress(text string) func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) {
	return func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) {
		c := clicked{user: ic.User.ID, team: ic.Team.ID, channel: cmp.Or(ic.Channel.ID, ic.Container.ChannelID), ic: ic}
		ref, ok := bot.ParseExpertRef(pressedValue(ic))
		if ok {
			c.ref = ref.ThreadRef
		}
		ctx = context.WithoutCancel(ctx)
		switch {
		case !ok:
		case w.Marked(markCalled) != "" && w.Marked(markSummoned) == "":
			f.uncall(ctx, w, c, f.log)
		case w.Marked(markShareOnce) != "" && w.Marked(markShared) == "":
			once := shareOnce(ref.ShareRef)
			if ref.Turn == 0 {
				once = earlierShareOnce(ref.Channel, ref.TS)
			}
			if err := f.store.Limits.ForgetOnce(ctx, once); err != nil {
				f.log.Warn("forgetting the share that did not go out failed", "err", err)
			}
		}
		f.tell(ctx, c, text)
	}
}

// pressedValue is the value of the button pressed in ic, "" for none.
func pressedValue(ic slack.InteractionCallback) string {
	if len(ic.ActionCallback.BlockActions) == 0 {
		return ""
	}
	return ic.ActionCallback.BlockActions[0].Value
}

// pressed reads the press of a help channels' button from its work and
// checks the allow-lists; ok false when there is nothing to do (the person
// was told why, where there is something to say).
func (f *Feature) pressed(ctx context.Context, ic slack.InteractionCallback) (clicked, bool) {
	c := clicked{user: ic.User.ID, team: ic.Team.ID, channel: cmp.Or(ic.Channel.ID, ic.Container.ChannelID), ic: ic}
	ref, ok := bot.ParseExpertRef(pressedValue(ic)) // a ThreadRef too
	if !ok {
		return c, false
	}
	c.ref, c.expert = ref.ThreadRef, ref
	if refusal := f.refusal(c.user, ref.Channel); refusal != "" {
		f.tell(ctx, c, refusal)
		return c, false
	}
	return c, true
}

// tell tells the person who pressed privately, in the thread.
func (f *Feature) tell(ctx context.Context, c clicked, text string, blocks ...slack.Block) {
	p := bot.Private{User: c.user, Channel: c.ref.Channel, ThreadTS: c.ref.TS, ResponseURL: c.ic.ResponseURL, Text: text, Blocks: blocks}
	if p.Channel == "" {
		p.Channel = c.channel
	}
	if err := f.tellPrivately(ctx, p); err != nil {
		f.log.Warn("telling the person privately failed", "user", c.user, "err", err)
	}
}

// root is the question of a thread: its first message.
func (f *Feature) root(ctx context.Context, ref bot.ThreadRef) (slack.Message, error) {
	msgs, err := f.replies(ctx, ref.Channel, ref.TS, 1, false)
	if err != nil {
		return slack.Message{}, err
	}
	if len(msgs) == 0 {
		return slack.Message{}, errors.New("helpchannels: the thread has no first message")
	}
	return msgs[0], nil
}

// questionShown is the question as the experts' call shows it: escaped,
// cut, quoted.
func questionShown(text string) string {
	// Quote escapes: the text is escaped once, there.
	return mrkdwn.Quote(mrkdwn.Defuse(mrkdwn.Cut(strings.TrimSpace(mrkdwn.Plain(text)), 1500)))
}

// doAskExpert calls the experts to the question's thread, once per thread,
// for a member of the organisation, within their calls of the hour and the
// channel's (calls.go). Its steps: the shares drawn (named by the work, so
// taken once across attempts), the call recorded (markCalled: an attempt
// after it goes on to post it), the call posted (markSummoned).
func (f *Feature) doAskExpert(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error {
	c, ok := f.pressed(ctx, ic)
	if !ok {
		return nil
	}
	log := f.log.With("user", c.user, "channel", c.ref.Channel, "thread", c.ref.TS, "work", w.Key)
	e := f.experts(ctx, c.ref.Project)
	// called: an earlier attempt recorded the call, after these checks;
	// it is this press's to post, and a read that fails now waits.
	called := w.Marked(markCalled) != ""
	if !called && len(e.Users)+len(e.Groups) == 0 {
		f.tell(ctx, c, "No experts are set up to call (DOCSBOT_EXPERTS, experts: in the projects file, or Experts in docsbot's Settings).")
		return nil
	}
	if refusal := f.callRefusal(ctx, c.user); !called && refusal != "" {
		log.Info("the experts were not called: the caller is not a member of the organisation")
		f.tell(ctx, c, refusal)
		return nil
	}
	q, err := f.root(ctx, c.ref)
	switch {
	case err != nil && called && bot.TransientSlack(err):
		return bot.Later(bot.RetryDelay(w.Attempt), fmt.Errorf("reading the question: %w", err))
	case err != nil:
		log.Warn("reading the question failed", "err", err)
		if called {
			f.uncall(ctx, w, c, log)
		}
		f.tell(ctx, c, "docsbot could not read the question, so the experts were not called: "+bot.Describe(err)+".")
		return nil
	}
	switch err := f.recordCall(ctx, w, c, q, e, log); {
	case errors.Is(err, bot.ErrNoMark):
		return nil
	case err != nil:
		return err
	}
	switch err := f.summon(ctx, w, c, q, e, log); {
	case errors.Is(err, errNoExpertTold):
		// The call shows in the thread, with Mark resolved; the experts
		// of the other organisation's channel were not told directly.
		log.Warn("the experts' call is posted, but no expert could be told directly")
		f.tell(ctx, c, "The call is in the thread, but docsbot could not message any of the experts directly. "+
			"If you can, mention one of them in the thread.")
	case err != nil && passing(err):
		return bot.Later(bot.RetryDelay(w.Attempt), fmt.Errorf("posting the experts' call: %w", err))
	case err != nil:
		log.Warn("calling the experts failed", "err", err)
		f.uncall(ctx, w, c, log)
		f.tell(ctx, c, "docsbot could not call the experts: "+bot.Describe(err)+". Try again in a minute.")
		return nil
	}
	log.Info("experts called to a help channel's question")
	if err := f.recordOutcome(ctx, w, store.OutcomeRef{Team: c.team, Channel: c.ref.Channel, TS: c.ref.TS}, qoutcome.Event{Kind: qoutcome.Handoff}); err != nil {
		return err
	}
	f.doneInPlace(ctx, c.ic, expertAskedBy(c.user), f.expertAgain(c, q))
	return nil
}

// recordCall is doAskExpert's first step (markCalled): the shares of the
// hour drawn, then the call recorded, once per thread. It returns
// bot.ErrNoMark when the person was told why the experts were not called;
// a call an earlier attempt of w recorded is w's own, to post.
func (f *Feature) recordCall(ctx context.Context, w *bot.Work, c clicked, q slack.Message, e roles.Editors, log *slog.Logger) error {
	t := f.callTake(w, c)
	_, err := w.Step(ctx, markCalled, func(ctx context.Context) (string, error) {
		out, err := f.draw(ctx, &t)
		switch {
		case err != nil:
			log.Warn("taking the expert call's share failed", "err", err)
			f.tell(ctx, c, "docsbot cannot reach its storage right now, so the experts were not called. Try again in a minute.")
			return "", bot.ErrNoMark
		case !out.ok:
			log.Info("the experts were not called: a limit of the hour", "by_person", out.byPerson, "retry_after", out.refused.RetryAfter)
			f.tell(ctx, c, f.callsRefusal(out))
			return "", bot.ErrNoMark
		}
		call := store.ExpertCall{Channel: c.ref.Channel, TS: c.ref.TS, Team: c.team, Enterprise: bot.WorkspaceOf(ctx).Enterprise, Asker: q.User, CalledBy: c.user,
			Experts: append(slices.Clone(e.Groups), e.Users...), Project: c.ref.Project, Called: f.cfg.Now(), Work: w.Key}
		first, err := f.store.Calls.CallExpert(ctx, call, call.Called.Add(f.cfg.ExpertReminder))
		if err == nil && !first {
			// An attempt of this press that recorded the call and stopped
			// before marking it: the call is this press's to post.
			if made, rerr := f.store.Calls.ExpertCall(ctx, c.ref.Thread()); rerr == nil && made.Work == w.Key {
				return "", nil
			}
		}
		if err != nil || !first {
			f.giveBackLogged(ctx, &t, log)
		}
		switch {
		case err != nil:
			log.Warn("recording the expert call failed", "err", err)
			f.tell(ctx, c, "docsbot cannot reach its storage right now, so the experts were not called. Try again in a minute.")
			return "", bot.ErrNoMark
		case !first:
			f.doneInPlace(ctx, c.ic, expertAskedBy(f.calledBy(ctx, c)), f.expertAgain(c, q))
			f.tell(ctx, c, "The experts were called to this thread already.")
			return "", bot.ErrNoMark
		}
		return "", nil
	})
	if errors.Is(err, bot.ErrUnmarked) {
		// The call is recorded: posting it once more at worst beats not at all.
		log.Warn("the expert call's mark was not written", "err", err)
		return nil
	}
	return err
}

// callTake is the shares of the hour a press's call of the experts takes:
// the person's and the channel's, each named by the press's work, so that
// an attempt after a crash is granted them again without taking.
func (f *Feature) callTake(w *bot.Work, c clicked) take {
	t := take{person: f.callsOf(c.team, c.user), channel: f.callsIn(c.ref.Channel)}
	t.person.ID, t.channel.ID = w.Key, w.Key
	return t
}

// uncall forgets the call of c's thread that w recorded and did not post,
// and gives back its shares of the hour (drawn again first: an attempt
// after the one that took them holds no tokens; the draw, named by w, is
// granted again without taking), so that pressing again calls them.
func (f *Feature) uncall(ctx context.Context, w *bot.Work, c clicked, log *slog.Logger) {
	ctx = context.WithoutCancel(ctx)
	if err := f.store.Calls.ForgetCall(ctx, c.ref.Thread()); err != nil {
		log.Warn("forgetting the call that was not posted failed", "err", err)
	}
	t := f.callTake(w, c)
	if out, err := f.draw(ctx, &t); err != nil || !out.ok {
		log.Warn("the shares of the hour of a call not made cannot be given back", "err", err)
		return
	}
	f.giveBackLogged(ctx, &t, log)
}

// calledBy is who called the experts to c's thread, c's presser when the
// call cannot be read.
func (f *Feature) calledBy(ctx context.Context, c clicked) string {
	if call, err := f.store.Calls.ExpertCall(ctx, c.ref.Thread()); err == nil && call.CalledBy != "" {
		return call.CalledBy
	}
	return c.user
}

// expertAgain builds again the person's own message that held c's Ask an
// expert (inplace.go): the note that the docs do not cover q, or their
// private answer.
func (f *Feature) expertAgain(c clicked, q slack.Message) rebuilt {
	if !c.expert.Answer {
		return f.uncoveredAgain(c, q)
	}
	if c.expert.Turn > 0 {
		return f.privateAgain(c.team, c.expert.ShareRef, c.expert.Sourced)
	}
	return nil
}

// resolveButton is Mark resolved of the thread ref.
func resolveButton(ref bot.ThreadRef) *slack.ButtonBlockElement {
	return slack.NewButtonBlockElement(bot.ActionMarkResolved, ref.String(), slack.NewTextBlockObject(slack.PlainTextType, "Mark resolved", false, false))
}

// doResolve marks a thread resolved, once, by its asker or an expert:
// ✅ on the question and a line saying who; then Turn this into docs to an
// editor when an expert's reply is in the thread. Its steps: the
// resolution recorded (markResolved: an attempt after it goes on to what
// follows), the line posted (markSaid); the outcome, the ✅ and the offer
// are harmless to do again.
func (f *Feature) doResolve(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error {
	c, ok := f.pressed(ctx, ic)
	if !ok {
		return nil
	}
	log := f.log.With("user", c.user, "channel", c.ref.Channel, "thread", c.ref.TS, "work", w.Key)
	call, err := f.store.Calls.ExpertCall(ctx, c.ref.Thread())
	if err != nil {
		log.Warn("reading the expert call failed", "err", err)
		f.tell(ctx, c, "docsbot cannot read this thread's call right now. Try again in a minute.")
		return nil
	}
	e := f.experts(ctx, call.Project)
	if c.user != call.Asker && !f.isExpert(ctx, e, c.user) {
		f.tell(ctx, c, "Only the person who asked, or an expert, can mark this question resolved.")
		return nil
	}
	_, err = w.Step(ctx, markResolved, func(ctx context.Context) (string, error) {
		resolved, first, err := f.store.Calls.ResolveCall(ctx, c.ref.Thread(), c.user, w.Key, f.cfg.Now())
		switch {
		case err != nil:
			log.Warn("resolving the expert call failed", "err", err)
			f.tell(ctx, c, "docsbot cannot reach its storage right now, so the question was not marked resolved. Try again in a minute.")
			return "", bot.ErrNoMark
		case !first && resolved.ResolvedWork == w.Key:
			// An attempt of this press resolved it and stopped before
			// marking it: what follows is this press's to do.
		case !first:
			f.doneInPlace(ctx, c.ic, resolvedBy(resolved.ResolvedBy), nil)
			f.tell(ctx, c, mrkdwn.Mention(resolved.ResolvedBy)+" marked this question resolved already.")
			return "", bot.ErrNoMark
		}
		return "", nil
	})
	switch {
	case errors.Is(err, bot.ErrNoMark):
		return nil
	case errors.Is(err, bot.ErrUnmarked):
		log.Warn("the resolution's mark was not written", "err", err)
	case err != nil:
		return err
	}
	f.doneInPlace(ctx, c.ic, resolvedBy(c.user), nil)
	if err := f.recordOutcome(ctx, w, store.OutcomeRef{Team: c.team, Channel: c.ref.Channel, TS: c.ref.TS},
		qoutcome.Event{Kind: qoutcome.Resolve, By: c.user, ByAnyone: true, Replied: f.othersReplied(ctx, call, log)}); err != nil {
		return err
	}
	f.react(ctx, c.ref.Channel, c.ref.TS, "white_check_mark", log)
	_, err = w.Step(ctx, markSaid, func(ctx context.Context) (string, error) {
		_, err := f.post(ctx, c.ref.Channel, slack.MsgOptionTS(c.ref.TS),
			slack.MsgOptionText("✅ "+mrkdwn.Mention(c.user)+" marked this question resolved.", false))
		return "", err
	})
	if err = bot.Settle(err, log, "the line saying who resolved the question is posted, its mark was not written"); err != nil {
		if passing(err) {
			return bot.Later(bot.RetryDelay(w.Attempt), fmt.Errorf("saying who resolved the question: %w", err))
		}
		log.Warn("saying who resolved the question failed", "err", err)
	}
	log.Info("a help channel's question resolved")
	f.offerDocs(ctx, c, call, e, log)
	return nil
}

// offerDocs offers Turn this into docs, when an expert's reply is in the
// thread, to the resolver if an editor, else to that expert if an editor.
func (f *Feature) offerDocs(ctx context.Context, c clicked, call store.ExpertCall, e roles.Editors, log *slog.Logger) {
	msgs, err := f.replies(ctx, call.Channel, call.TS, 200, false)
	if err != nil {
		log.Warn("reading the thread for the expert's answer failed", "err", err)
		return
	}
	var question, answer slack.Message
	for _, m := range msgs {
		switch {
		case m.Timestamp == call.TS:
			question = m
		case m.BotID == "" && m.User != "" && m.User != call.Asker && f.isExpert(ctx, e, m.User):
			answer = m // the latest expert's reply
		}
	}
	if answer.Timestamp == "" || question.Timestamp == "" {
		return
	}
	to := c
	if refusal, _ := f.editorCheck(ctx, c.user, call.Channel, call.Project); refusal != "" {
		if refusal, _ := f.editorCheck(ctx, answer.User, call.Channel, call.Project); refusal != "" {
			return
		}
		to = clicked{user: answer.User, team: c.team, channel: call.Channel, ref: c.ref}
	}
	j := jobdraft.Draft{Channel: call.Channel, Thread: call.TS, Project: call.Project, Expert: true, By: answer.User,
		Question: strings.TrimSpace(mrkdwn.Plain(question.Text)), Answer: strings.TrimSpace(mrkdwn.Plain(answer.Text))}
	text := "An expert answered this question. Turn the answer into docs: the agent gets the question and " +
		mrkdwn.Mention(answer.User) + "'s answer, quoted, and its pull request comes back in this thread."
	f.tell(ctx, to, text, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil),
		slack.NewActionBlock("docs", slack.NewButtonBlockElement(jobdraft.ActionJobFromAnswer, j.Value(),
			slack.NewTextBlockObject(slack.PlainTextType, "Turn this into docs", false, false)).WithStyle(slack.StylePrimary)))
}

// remind posts the reminders due, each claimed by this replica alone.
func (f *Feature) remind(ctx context.Context) {
	calls, err := f.store.Calls.ClaimReminders(ctx, f.cfg.Now(), reminderLease, 20)
	if err != nil {
		if ctx.Err() == nil {
			f.log.Warn("claiming the expert reminders due failed", "err", err)
		}
		return
	}
	for _, call := range calls {
		log := f.log.With("channel", call.Channel, "thread", call.TS)
		if err := f.remindOne(ctx, call, log); err != nil {
			log.Warn("the expert reminder is not posted yet; it is tried again after its lease", "err", err)
			continue
		}
		if err := f.store.Calls.EndReminder(context.WithoutCancel(ctx), call.Ref()); err != nil {
			log.Warn("ending the expert reminder failed; the next claim finds it posted", "err", err)
		}
	}
}

// remindOne reminds the experts of call in its thread, unless it is
// resolved, someone other than the asker replied after the call, or a
// reminder is there already.
func (f *Feature) remindOne(ctx context.Context, call store.ExpertCall, log *slog.Logger) error {
	ctx = bot.WithWorkspace(ctx, bot.Workspace{Team: call.Team, Enterprise: call.Enterprise}) // its Slack calls are its workspace's
	if call.ResolvedBy != "" {
		return nil
	}
	msgs, err := f.replies(ctx, call.Channel, call.TS, 200, true)
	if err != nil {
		if bot.TransientSlack(err) {
			return err
		}
		log.Warn("the thread of an expert call cannot be read; no reminder", "err", err)
		return nil
	}
	called := false
	for _, m := range msgs {
		switch {
		case m.Metadata.EventType == ReminderEvent:
			return nil
		case m.Metadata.EventType == CallEvent:
			called = true
		case called && m.BotID == "" && m.User != "" && m.User != call.Asker:
			return nil // answered after the call
		}
	}
	e := roles.Editors{}
	for _, id := range call.Experts {
		if strings.HasPrefix(id, "S") {
			e.Groups = append(e.Groups, id)
		} else {
			e.Users = append(e.Users, id)
		}
	}
	waited := "has had no answer for " + humanize.Duration(f.cfg.ExpertReminder) + "."
	text := mentions(e) + ": a reminder: " + mrkdwn.Mention(call.Asker) + "'s question above " + waited
	shared := f.shared(ctx, call.Channel)
	if shared { // named by nobody here: the experts are reminded directly (calls.go)
		text = "A reminder: " + mrkdwn.Mention(call.Asker) + "'s question above " + waited + " docsbot reminded the experts directly."
	}
	_, err = f.post(ctx, call.Channel, slack.MsgOptionTS(call.TS), slack.MsgOptionText(text, false),
		slack.MsgOptionBlocks(slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil),
			slack.NewActionBlock("resolve", resolveButton(bot.ThreadRef{Channel: call.Channel, TS: call.TS, Project: call.Project}))),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: ReminderEvent, EventPayload: map[string]any{"thread": call.Ref()}}))
	if err != nil {
		return err
	}
	if shared {
		f.tellExperts(ctx, call.Channel, call.TS, e, "A reminder: "+mrkdwn.Mention(call.Asker)+"'s question in <#"+call.Channel+
			">, which you were called to, "+waited, log)
	}
	log.Info("the experts were reminded of a question nobody answered")
	return nil
}
