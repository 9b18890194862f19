package helpchannels

import (
	"context"
	"log/slog"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// What the help channels use of the core, each in one place, so that a
// change of the core's methods is an edit here (Register's routes apart).

func (f *Feature) refusal(user, channel string) string { return f.core.Refusal(user, channel) }

// spender is user of team as a spender of a share (bot.Sight.Spender): a
// guest, a person of another organisation or one Slack cannot say is an
// Outsider.
func (f *Feature) spender(ctx context.Context, team, user string) bot.Spender {
	return f.core.Sight(ctx, user, "").Spender(team, user)
}

// member reports whether user is a member of the organisation (bot.Sight:
// not a guest, not of another organisation), and, when not, whether Slack
// could say (known false: it could not).
func (f *Feature) member(ctx context.Context, user string) (member, known bool) {
	s := f.core.Sight(ctx, user, "")
	return s.Words, s.Words || s.Outsider
}

// shared reports whether channel is shared with another organisation
// (Slack Connect), or Slack cannot say (bot.Sight of the channel alone).
func (f *Feature) shared(ctx context.Context, channel string) bool {
	return f.core.Sight(ctx, "", channel).Connect
}

func (f *Feature) editorCheck(ctx context.Context, user, channel, proj string) (string, bool) {
	return f.core.Editors().Check(ctx, user, channel, proj)
}

func (f *Feature) post(ctx context.Context, channel string, opts ...slack.MsgOption) (string, error) {
	return f.core.Post(ctx, channel, bot.Plain(opts))
}

func (f *Feature) tellPrivately(ctx context.Context, p bot.Private) error {
	return f.core.TellPrivately(ctx, p)
}

func (f *Feature) react(ctx context.Context, channel, ts, name string, log *slog.Logger) {
	f.core.Decorations().React(ctx, channel, ts, name, nil, log)
}

func (f *Feature) queueWork(ctx context.Context, w store.Work) error {
	_, err := f.core.QueueFromWork(ctx, w)
	return err
}

// accept records an event's work before it is acked (bot.AcceptEnvelope).
func (f *Feature) accept(ctx context.Context, w store.Work) bool {
	return f.core.AcceptEnvelope(ctx, w, bot.RedeliveredEvent)
}

func (f *Feature) auditWork(ctx context.Context, w *bot.Work, mark string, rec store.AuditRecord) {
	f.core.Audit().Work(ctx, w, mark, rec)
}

func (f *Feature) refuseCommand(ctx context.Context, r *bot.CommandRequest, refusal, text string) {
	f.core.RefuseCommand(ctx, r, refusal, text)
}

func (f *Feature) queueCommand(ctx context.Context, r *bot.CommandRequest, kind string, payload any, notDone string) {
	f.core.QueueCommand(ctx, r, kind, payload, notDone)
}

func (f *Feature) self(ctx context.Context) string { return f.core.Self(ctx).UserID }

func (f *Feature) projects() []project.Project { return f.core.Projects().All() }

// replies reads the thread of ts in channel (conversations.replies).
func (f *Feature) replies(ctx context.Context, channel, ts string, limit int, metadata bool) ([]slack.Message, error) {
	msgs, _, _, err := f.core.SlackIn(ctx).GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
		ChannelID: channel, Timestamp: ts, Limit: limit, IncludeAllMetadata: metadata})
	return msgs, err
}

// threadPages bounds the pages of a thread read whole (wholeThread).
const threadPages = 20

// wholeThread reads the thread of ts in channel, parent first, page after
// page (conversations.replies), at most threadPages pages of 200.
func (f *Feature) wholeThread(ctx context.Context, channel, ts string) ([]slack.Message, error) {
	params := &slack.GetConversationRepliesParameters{ChannelID: channel, Timestamp: ts, Limit: 200}
	var out []slack.Message
	for range threadPages {
		msgs, more, next, err := f.core.SlackIn(ctx).GetConversationRepliesContext(ctx, params)
		if err != nil {
			return out, err
		}
		out = append(out, msgs...)
		if !more || next == "" {
			break
		}
		params.Cursor = next
	}
	return out, nil
}

// groupMembers are the members of a user group (usergroups.users.list).
func (f *Feature) groupMembers(ctx context.Context, group string) ([]string, error) {
	return f.core.SlackIn(ctx).GetUserGroupMembersContext(ctx, group)
}

// permalink is the link to the message ts of channel (chat.getPermalink).
func (f *Feature) permalink(ctx context.Context, channel, ts string) (string, error) {
	return f.core.SlackIn(ctx).GetPermalinkContext(ctx, &slack.PermalinkParameters{Channel: channel, Ts: ts})
}
