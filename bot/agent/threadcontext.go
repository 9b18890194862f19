package agent

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// The context of a job started by a mention in a thread: the thread's
// messages, oldest first, authors by name (users.info, cached), bots'
// messages marked, the thread's permalink, and a cap on its size.
const (
	// threadContextCap is the most characters of a thread's messages
	// passed on to the agent; the instruction and the person say so when a
	// thread is longer.
	threadContextCap = 8000
	// threadPages bounds the pages of conversations.replies read.
	threadPages = 50
)

// mentionMarkup finds user mentions in a message's text.
var mentionMarkup = regexp.MustCompile(`<@([UW][A-Z0-9]+)(\|[^>]*)?>`)

// threadRead is what a thread holds for a job's context.
type threadRead struct {
	link string
	// lines are the messages, oldest first, each "author: text".
	lines []string
	// last is the ts of the latest message read (r aside): the thread's
	// messages up to it go to the agent with the job's start (some may be
	// left out for size), so none is sent again as a follow-up.
	last string
	// pending is set when the thread looks like a job's that may still be
	// starting: its parent was addressed to the bot (a DM, a mention) or
	// the bot's root message is in it.
	pending bool
}

// readThread reads the thread of r (all but r itself) for a job's context.
func (a *agent) readThread(ctx context.Context, r replyRequest) (threadRead, error) {
	var tr threadRead
	self := a.core.Self()
	err := a.eachInThread(ctx, r.Channel, r.ThreadTS, func(m slack.Message) bool {
		own := m.User == self.UserID || (self.BotID != "" && m.BotID == self.BotID)
		if own && m.Metadata.EventType == RootEvent {
			tr.pending = true
		}
		if m.Timestamp == r.ThreadTS && !own && m.BotID == "" && (r.DM || strings.Contains(m.Text, "<@"+self.UserID+">")) {
			tr.pending = true
		}
		if m.Timestamp == r.TS {
			return false
		}
		if tr.last == "" || tsBefore(tr.last, m.Timestamp) {
			tr.last = m.Timestamp
		}
		if text := strings.TrimSpace(mrkdwn.Plain(a.namedMentions(ctx, m.Text))); text != "" {
			tr.lines = append(tr.lines, a.author(ctx, m, own)+": "+text)
		}
		return false
	})
	if err != nil {
		return tr, fmt.Errorf("reading the thread: %w", err)
	}
	link, err := a.slack.GetPermalinkContext(ctx, &slack.PermalinkParameters{Channel: r.Channel, Ts: r.ThreadTS})
	if err != nil {
		a.log.Warn("cannot get the thread's permalink", "channel", r.Channel, "thread", r.ThreadTS, "err", err)
	}
	tr.link = link
	return tr, nil
}

// author names a message's author: a person by name, a bot by name with
// "(bot)".
func (a *agent) author(ctx context.Context, m slack.Message, own bool) string {
	switch {
	case own:
		return "docsbot (bot)"
	case m.BotID != "" || m.SubType == "bot_message":
		name := m.Username
		if m.BotProfile != nil {
			name = cmp.Or(name, m.BotProfile.Name)
		}
		return cmp.Or(name, "a bot") + " (bot)"
	}
	return a.core.UserName(ctx, m.User)
}

// namedMentions turns the user mentions of a message's text into names
// ("<@U123>" into "<@U123|Alice>", which bot.Plain renders "@Alice").
func (a *agent) namedMentions(ctx context.Context, text string) string {
	return mentionMarkup.ReplaceAllStringFunc(text, func(m string) string {
		id := mentionMarkup.FindStringSubmatch(m)[1]
		name := strings.NewReplacer(">", "", "|", "", "<", "").Replace(a.core.UserName(ctx, id))
		return "<@" + id + "|" + name + ">"
	})
}

// render is the context passed to the agent: a header naming the thread
// and how its messages are shown, then the messages, at most limit
// characters of them: the first message and the latest that fit. It
// returns how many messages were left out.
func (tr threadRead) render(limit int) (string, int) {
	if len(tr.lines) == 0 && tr.link == "" {
		return "", 0
	}
	kept := tr.lines
	left := 0
	if size(tr.lines) > limit && len(tr.lines) > 0 {
		first := mrkdwn.Cut(tr.lines[0], limit/2)
		budget := limit - utf8.RuneCountInString(first)
		var tail []string
		for i := len(tr.lines) - 1; i > 0; i-- {
			n := utf8.RuneCountInString(tr.lines[i]) + 1
			if n > budget {
				break
			}
			budget -= n
			tail = append([]string{tr.lines[i]}, tail...)
		}
		kept = append([]string{first}, tail...)
		left = len(tr.lines) - len(kept)
	}
	var b strings.Builder
	b.WriteString("Context: the Slack thread this was asked in")
	if tr.link != "" {
		b.WriteString(" (" + tr.link + ")")
	}
	fmt.Fprintf(&b, ". Its messages, oldest first, as \"author: text\" (at most %d characters of them are passed on); \"(bot)\" marks messages posted by bots.", limit)
	if left > 0 {
		fmt.Fprintf(&b, " The thread is longer than that: its first message and the latest %d are shown, %d in between are left out.", len(kept)-1, left)
	}
	b.WriteString("\n---\n")
	b.WriteString(strings.Join(kept, "\n"))
	b.WriteString("\n---")
	return b.String(), left
}

// size counts the characters of lines joined by newlines.
func size(lines []string) int {
	n := 0
	for _, l := range lines {
		n += utf8.RuneCountInString(l) + 1
	}
	return n
}

// findInThread returns the ts of the first message of a thread that match
// says is the one sought, "" if none.
func (a *agent) findInThread(ctx context.Context, channel, threadTS string, match func(slack.Message) bool) (string, error) {
	found := ""
	err := a.eachInThread(ctx, channel, threadTS, func(m slack.Message) bool {
		if match(m) {
			found = m.Timestamp
			return true
		}
		return false
	})
	return found, err
}

// eachInThread calls fn on the messages of a thread, oldest first, paging
// through conversations.replies (at most threadPages pages), until fn
// returns true.
func (a *agent) eachInThread(ctx context.Context, channel, threadTS string, fn func(slack.Message) bool) error {
	params := &slack.GetConversationRepliesParameters{ChannelID: channel, Timestamp: threadTS, Limit: 200, IncludeAllMetadata: true}
	for range threadPages {
		msgs, more, next, err := a.slack.GetConversationRepliesContext(ctx, params)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			if fn(m) {
				return nil
			}
		}
		if !more || next == "" {
			return nil
		}
		params.Cursor = next
	}
	return nil
}
