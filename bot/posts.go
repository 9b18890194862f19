package bot

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// One owner per post. Every person's post that docsbot may act on (a channel
// message, a mention, a DM, a thread reply, a message in the pane) is heard
// by the core alone: the features that act on posts register as owners
// (Router.OwnPosts), and each post is offered to them in the order of the
// table below; the first that claims it owns it.
//
//	order             owner (feature)   claims
//	OrderCommand      agent             a mention (or top-level DM) that is help, list or status
//	OrderPane         pane              a prompt typed in a pane thread; names the project of the rest
//	OrderJobThread    agent             a reply in a job's thread (or "retry" where one is offered)
//	OrderAnswerThread ask               a reply in an answer's thread
//	OrderHelpChannel  helpchannels      a top-level question nobody addressed, in a help channel
//	OrderQuestion     ask               a mention or DM that is a question
//	OrderJobStart     agent             any other mention or DM: a job start
//	OrderUnderWay     agent             (claims none) a reply in a thread whose job may be starting: offered again shortly
//
// A post is heard in the event's ack (Hears, in order, until one may want
// it): a post no owner may want is acked and costs nothing more. One that
// some owner may want is recorded before the ack as WorkPost work keyed by
// the message (team, channel, ts), so that the app_mention event and the
// message event Slack sends for one mention are one piece of work. The work
// offers the post in order (Hears, then Claims); the owner that claims it is
// marked on the work (markOwner, with the project an earlier owner named)
// before its Do runs, so a later attempt goes straight to it and no other
// owner ever sees the post.

// Orders of the owners of posts (PostOwner.Order): lower is offered first.
const (
	OrderCommand = 10 * (iota + 1)
	OrderPane
	OrderJobThread
	OrderAnswerThread
	OrderHelpChannel
	OrderQuestion
	OrderJobStart
	OrderUnderWay
)

// WorkPost is the kind of inbox work of a person's post; LegacyWorkPost is
// the kind earlier versions recorded posts with (the agent's), done the same
// way.
const (
	WorkPost       = "post"
	LegacyWorkPost = "agent.reply"
)

// postOwnerElsewhere is logged when a post's marked owner is not on this
// replica.
const postOwnerElsewhere = "post claimed by an owner this replica does not have; left to another replica"

// Marks of a post's work.
const (
	markOwner       = "post.owner"   // the owner that claimed the post
	markPostProject = "post.project" // the project an earlier owner named
)

// Post is a person's message as the owners get it: Slack's escaping and
// markup undone, the bot's mention taken out. Its JSON is that of the
// records of earlier versions (LegacyWorkPost).
type Post struct {
	Team     string `json:"team"`
	Channel  string `json:"channel"`
	User     string `json:"user"`
	TS       string `json:"ts"`
	ThreadTS string `json:"thread_ts"`
	Text     string `json:"text"`
	// Mention: the post mentions the bot. DM: it is in a direct message
	// with the bot. Files: it has files attached (subtype file_share).
	Mention bool `json:"mention,omitempty"`
	DM      bool `json:"dm,omitempty"`
	Files   bool `json:"files,omitempty"`
	// Attached are the files attached, to be read (ReadRefs) by the owner
	// that takes them.
	Attached []FileRef `json:"attached,omitempty"`
	// Project is the docs project an owner that did not claim the post
	// named for those after it (the pane: the default of the channel the
	// person looks at); "" to decide as for any post.
	Project string `json:"-"`
}

// InThread reports whether the post is a reply in a thread.
func (p Post) InThread() bool { return p.ThreadTS != "" && p.ThreadTS != p.TS }

// Addressed reports whether the post was addressed to the bot: a mention or
// a direct message.
func (p Post) Addressed() bool { return p.Mention || p.DM }

// Thread is the thread the post is in, or starts.
func (p Post) Thread() store.Thread {
	return store.Thread{Team: p.Team, Channel: p.Channel, TS: cmp.Or(p.ThreadTS, p.TS)}
}

// PostOwner is a feature's claim on people's posts (the table above).
type PostOwner struct {
	// Name is marked on a post's work when the owner claims it; unique.
	Name string
	// Order places the owner in the table (OrderCommand, ...).
	Order int
	// Hears reports whether the owner may want p: in the ack (to record
	// the post at all) and in the work (before Claims). It must be cheap:
	// what it reads of Redis it bounds itself, and it says true when it
	// cannot tell.
	Hears func(ctx context.Context, p Post) bool
	// Claims reports, in the post's work, whether the owner takes p. It
	// reads; what it writes must be keyed by the post's work (w.Key), so
	// that doing it again changes nothing. It may name p.Project for the
	// owners after it. An error offers the post again later (a Later error
	// after the wait it says). Nil claims whatever Hears hears.
	Claims func(ctx context.Context, w *Work, p *Post) (bool, error)
	// Do acts on a post the owner claimed, resumably (w's marks).
	Do func(ctx context.Context, w *Work, p Post) error
}

// posts are the owners registered, in order.
type posts struct {
	owners []PostOwner
}

// OwnPosts registers o as an owner of people's posts. With an owner, the
// core hears the events that deliver posts (message, app_mention) that
// some feature declares (routePosts). Register before Run.
func (r Router) OwnPosts(o PostOwner) {
	b := r.b
	if i := slices.IndexFunc(b.posts.owners, func(x PostOwner) bool { return x.Name == o.Name }); i >= 0 {
		panic(fmt.Sprintf("bot: two owners of posts named %q", o.Name))
	}
	if len(b.posts.owners) == 0 {
		h := WorkHandler{Do: b.doPost, GiveUp: b.giveUpPost}
		r.HandleWork(WorkPost, h)
		r.HandleWork(LegacyWorkPost, h)
	}
	b.posts.owners = append(b.posts.owners, o)
	slices.SortStableFunc(b.posts.owners, func(x, y PostOwner) int { return x.Order - y.Order })
	r.routePosts()
}

// routePosts routes each event type that delivers posts, once it is both
// declared (by any feature, before or after) and owned (OwnPosts): what is
// declared is what is routed (CheckRoutes).
func (r Router) routePosts() {
	b := r.b
	if len(b.posts.owners) == 0 {
		return
	}
	handlers := map[string]EventHandler{string(slackevents.Message): b.onMessage, string(slackevents.AppMention): b.onMention}
	for _, d := range b.declared {
		for _, e := range d.Events {
			if h, ok := handlers[e.Type()]; ok && b.routes.events[e.Type()] == nil {
				r.HandleEvent(slackevents.EventsAPIType(e.Type()), h)
			}
		}
	}
}

// subtypeFileShare is the subtype of a person's message with files attached.
const subtypeFileShare = "file_share"

// personsPost reports whether a message event of the subtype is a person's
// new post: a plain message, a thread reply also sent to the channel, or a
// message with files.
func personsPost(subtype string) bool {
	return subtype == "" || subtype == "thread_broadcast" || subtype == subtypeFileShare
}

// notAPersonsPost reports whether a message event is ignored whoever the
// bot is: not a person's new post (an edit, a join, a bot_message), or one
// with a bot's id, or of no user.
func notAPersonsPost(subtype, botID, user string) bool {
	return !personsPost(subtype) || botID != "" || user == ""
}

// onMessage hears message events: a person's post is offered (acceptPost);
// the bot's own and other bots' messages, edits and joins are acked and
// ignored.
func (b *Bot) onMessage(ctx context.Context, req *EventRequest) {
	ev, ok := req.Event.InnerEvent.Data.(*slackevents.MessageEvent)
	if !ok || notAPersonsPost(ev.SubType, ev.BotID, ev.User) || b.Self(ctx).OwnOrBot(ev) {
		req.Ack(nil)
		return
	}
	p := b.readPost(ctx, req.Event.TeamID, ev.Channel, ev.User, ev.TimeStamp, ev.ThreadTimeStamp, ev.Text)
	p.DM = ev.ChannelType == "im"
	p.Files = ev.SubType == subtypeFileShare
	if p.Files {
		p.Attached = fileRefs(eventFiles(req.Event))
	}
	b.acceptPost(ctx, req, p)
}

// onMention hears app_mention events, the same way as the message event
// Slack sends for the same post.
func (b *Bot) onMention(ctx context.Context, req *EventRequest) {
	ev, ok := req.Event.InnerEvent.Data.(*slackevents.AppMentionEvent)
	if !ok || b.Self(ctx).OwnOrBot(&slackevents.MessageEvent{User: ev.User, BotID: ev.BotID}) {
		req.Ack(nil)
		return
	}
	p := b.readPost(ctx, req.Event.TeamID, ev.Channel, ev.User, ev.TimeStamp, ev.ThreadTimeStamp, ev.Text)
	p.Files, p.Attached = len(ev.Files) > 0, fileRefs(ev.Files)
	b.acceptPost(ctx, req, p)
}

// readPost reads a person's message as the owners get it.
func (b *Bot) readPost(ctx context.Context, team, channel, user, ts, threadTS, text string) Post {
	self := b.Self(ctx)
	tag := "<@" + self.UserID + ">"
	mention := self.UserID != "" && strings.Contains(text, tag)
	text = strings.TrimSpace(mrkdwn.Plain(strings.ReplaceAll(text, tag, "")))
	return Post{Team: team, Channel: channel, User: user, TS: ts, ThreadTS: threadTS, Text: text, Mention: mention}
}

// heard reports whether some owner may want p.
func (b *Bot) heard(ctx context.Context, p Post) bool {
	return slices.ContainsFunc(b.posts.owners, func(o PostOwner) bool { return o.Hears(ctx, p) })
}

// acceptPost records a post some owner may want as WorkPost work keyed by
// the message, then acks the event; a post no owner may want is acked and
// nothing more. If Redis cannot take the post, the event is left unacked
// for Slack to send again; on Slack's last try the person is told
// privately that the post was not taken, when it was addressed to the bot
// (a mention, a DM, a reply in a thread of the bot's).
func (b *Bot) acceptPost(ctx context.Context, req *EventRequest, p Post) {
	if !b.heard(ctx, p) {
		req.Ack(nil)
		return
	}
	payload, _ := json.Marshal(p)
	key := "msg:" + p.Team + ":" + p.Channel + ":" + p.TS
	if !b.AcceptEnvelope(ctx, store.Work{Key: key, Kind: WorkPost, Payload: payload}, RedeliveredPost) {
		if !req.LastDelivery {
			return // not acknowledged: Slack delivers it again
		}
		log := b.log.With("user", p.User, "channel", p.Channel, "thread", p.ThreadTS, "work", key)
		log.Warn("post not recorded on Slack's last try; not taken")
		if p.Addressed() || b.botThread(ctx, p, log) {
			b.tellAboutPost(ctx, p, "docsbot could not take this message: it cannot reach its storage right now, and Slack will not send it again. Send it again in a minute.", log)
		}
	}
	req.Ack(nil)
}

// doPost offers a post to its owners by the table above: to the owner
// marked by an earlier attempt, else in order until one claims it.
func (b *Bot) doPost(ctx context.Context, w *Work) error {
	var p Post
	if err := json.Unmarshal(w.Payload, &p); err != nil {
		return fmt.Errorf("decoding a post: %w", err)
	}
	if name := w.Marked(markOwner); name != "" {
		p.Project = w.Marked(markPostProject)
		o, ok := b.postOwner(name)
		if !ok {
			// Claimed on a replica of another version (a rolling update):
			// left to one that has the owner. Past WorkMaxAge the inbox
			// tells the person (giveUpPost) rather than drop it.
			b.log.Info(postOwnerElsewhere, "owner", name, "work", w.Key)
			return Later(unknownKindDelay, fmt.Errorf("post owner %q: %w", name, ErrNotYet))
		}
		return o.Do(ctx, w, p)
	}
	if !b.docsConnected(ctx) { // notconnected.go
		if p.Addressed() {
			b.tellAboutPost(ctx, p, project.NotConnected, b.log)
		}
		return nil
	}
	if b.channelOff(ctx, p.Channel) { // channeloff.go
		if p.Addressed() {
			b.tellAboutPost(ctx, p, channelOffText, b.log)
		}
		return nil
	}
	for _, o := range b.posts.owners {
		if !o.Hears(ctx, p) {
			continue
		}
		claimed := true
		if o.Claims != nil {
			var err error
			if claimed, err = o.Claims(ctx, w, &p); err != nil {
				var later *laterError
				if errors.As(err, &later) {
					return err
				}
				return Later(RetryDelay(w.Attempt), err)
			}
		}
		if !claimed {
			continue
		}
		marks := map[string]string{markOwner: o.Name}
		if p.Project != "" {
			marks[markPostProject] = p.Project
		}
		if err := w.Mark(ctx, marks); err != nil {
			return Later(RetryDelay(w.Attempt), err)
		}
		return o.Do(ctx, w, p)
	}
	return nil // nobody's: people talking
}

// postOwner is the owner registered as name.
func (b *Bot) postOwner(name string) (PostOwner, bool) {
	i := slices.IndexFunc(b.posts.owners, func(o PostOwner) bool { return o.Name == name })
	if i < 0 {
		return PostOwner{}, false
	}
	return b.posts.owners[i], true
}

// giveUpPost tells the author of a post that kept failing, when it was
// addressed to the bot or an owner had claimed it, that it was not acted on.
func (b *Bot) giveUpPost(ctx context.Context, w *Work) {
	var p Post
	if json.Unmarshal(w.Payload, &p) != nil || (!p.Addressed() && w.Marked(markOwner) == "") {
		return
	}
	b.tellAboutPost(ctx, p, "docsbot could not act on this message: Slack or its storage kept failing. Send it again.", b.log)
}

// tellAboutPost tells the author of p, privately, in p's thread (a
// top-level post: where it was posted).
func (b *Bot) tellAboutPost(ctx context.Context, p Post, text string, log *slog.Logger) {
	_, err := b.SlackIn(ctx).PostEphemeralContext(ctx, p.Channel, p.User, slack.MsgOptionText(text, false), slack.MsgOptionTS(p.ThreadTS))
	if err != nil {
		log.Warn("telling the person privately about their post failed", "err", err)
	}
}

// botThread reports whether the thread a post is in may be the bot's (a
// job's), reading its first message from Slack. A thread that cannot be
// read for a passing reason (TransientSlack: Slack's own trouble, a rate
// limit, the network) counts as the bot's, so that a post that may be
// addressed to it is not dropped without a word; one Slack refuses to show
// for good (channel_not_found, not_in_channel, missing_scope) is not the
// bot's to answer.
func (b *Bot) botThread(ctx context.Context, p Post, log *slog.Logger) bool {
	if !p.InThread() {
		return false
	}
	msgs, _, _, err := b.SlackIn(ctx).GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
		ChannelID: p.Channel, Timestamp: p.ThreadTS, Limit: 1,
	})
	if err != nil {
		if !TransientSlack(err) {
			log.Warn("Slack refuses to show the thread's first message; not answering as in a thread of the bot's", "err", err)
			return false
		}
		log.Warn("could not read the thread's first message; answering as in a thread of the bot's", "err", err)
		return true
	}
	self := b.Self(ctx)
	return len(msgs) > 0 && (msgs[0].User == self.UserID || (self.BotID != "" && msgs[0].BotID == self.BotID))
}
