package slacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// subtypeAssistantThread is the subtype of the message Slack starts an
// assistant thread with, authored by the app's bot user.
const subtypeAssistantThread = "assistant_app_thread"

// maxSuggestedPrompts is how many prompts assistant.threads.setSuggestedPrompts sets.
const maxSuggestedPrompts = 4

// WithAssistantView makes the app one that declares the older
// assistant_view instead of agent_view: assistant.threads.setSuggestedPrompts
// then sets prompts per thread (thread_ts). An agent app's call with
// thread_ts silently does nothing, as Slack documents. Default: agent_view,
// which new apps must use.
func WithAssistantView() Option { return func(c *config) { c.assistantView = true } }

// statusKey names a thread for assistant.threads.setStatus and the other
// per-thread settings; threadTS "" names the channel itself.
func statusKey(channel, threadTS string) string { return channel + "/" + threadTS }

// SuggestedPrompts are the prompts an app suggests to a person
// (assistant.threads.setSuggestedPrompts).
type SuggestedPrompts struct {
	// Title heads the list ("Suggested prompts"), "" when none.
	Title   string
	Prompts []Prompt
}

// Prompt is one suggested prompt: the Title shown and the Message sent
// when the person picks it.
type Prompt struct {
	Title   string `json:"title"`
	Message string `json:"message"`
}

// AssistantThread is a thread the person opened in the app's assistant
// pane (OpenAssistantThread): in their direct message with the app.
type AssistantThread struct {
	Channel, ThreadTS string
	// EventID is the assistant_thread_started event's id, "" when Slack
	// sent none (the token lacks assistant:write).
	EventID string
}

// assistantThread is a thread of the assistant pane. Guarded by Server.mu.
type assistantThread struct {
	user, channel, ts string
	// context is the channel the person was viewing, "" for none.
	context string
}

// assistantThreadsSetStatus records the status shown in a thread ("is
// working…"); an empty status clears it, and so does the bot's next post in
// the thread, as on Slack. Slack takes chat:write or assistant:write for it.
func (s *Server) assistantThreadsSetStatus(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, code := s.visibleChannelLocked(r.ws, p["channel_id"])
	if code != "" {
		return fail(code)
	}
	if !ch.BotMember {
		return fail("not_in_channel")
	}
	if p["thread_ts"] == "" {
		return invalidArgs("missing required field: thread_ts")
	}
	parent := threadParent(ch, p["thread_ts"])
	if parent == nil {
		return fail("thread_not_found")
	}
	key := statusKey(ch.ID, parent.ts)
	if p["status"] == "" {
		delete(s.statuses, key)
	} else {
		s.statuses[key] = p["status"]
	}
	return apiResult{}
}

// assistantThreadsSetSuggestedPrompts records the prompts an app suggests
// (assistant:write): 1 to 4, each with a title and a message. An agent app
// sets them for the channel (its direct message with the person); with
// thread_ts Slack silently ignores the call, unless the app declares the
// older assistant view (WithAssistantView), whose prompts are per thread.
// Errors: channel_not_found, invalid_thread_ts; invalid_arguments for the
// prompts (the name is our assumption: Slack documents "up to four").
func (s *Server) assistantThreadsSetSuggestedPrompts(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, code := s.visibleChannelLocked(r.ws, p["channel_id"])
	if code != "" {
		return fail(code)
	}
	raw := rawParam(p, "prompts")
	if nonNull(raw) == nil {
		return invalidArgs(problem("/prompts", "missing required field: prompts"))
	}
	var prompts []Prompt
	if err := json.Unmarshal(raw, &prompts); err != nil {
		return invalidArgs(problem("/prompts", "must be an array of prompts"))
	}
	if len(prompts) < 1 || len(prompts) > maxSuggestedPrompts {
		return invalidArgs(problem("/prompts", "must hold 1 to %d prompts", maxSuggestedPrompts))
	}
	for i, pr := range prompts {
		if pr.Title == "" || pr.Message == "" {
			return invalidArgs(problem(fmt.Sprintf("/prompts/%d", i), "must have a title and a message"))
		}
	}
	key := statusKey(ch.ID, "")
	if thread := p["thread_ts"]; thread != "" {
		if !s.cfg.assistantView {
			return apiResult{} // an agent app's prompts with thread_ts: silently nothing
		}
		parent := threadParent(ch, thread)
		if parent == nil {
			return fail("invalid_thread_ts")
		}
		key = statusKey(ch.ID, parent.ts)
	}
	s.prompts[key] = SuggestedPrompts{Title: p["title"], Prompts: prompts}
	return apiResult{}
}

// assistantThreadsSetTitle records a thread's title (assistant:write). In
// an assistant thread it retitles the message the thread starts with, and
// Slack sends message_changed for it. Errors: channel_not_found,
// invalid_thread_ts; invalid_arguments for a missing title or thread_ts.
func (s *Server) assistantThreadsSetTitle(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, code := s.visibleChannelLocked(r.ws, p["channel_id"])
	if code != "" {
		return fail(code)
	}
	switch {
	case p["thread_ts"] == "":
		return invalidArgs(problem("/thread_ts", "missing required field: thread_ts"))
	case p["title"] == "":
		return invalidArgs(problem("/title", "missing required field: title"))
	}
	parent := threadParent(ch, p["thread_ts"])
	if parent == nil {
		return fail("invalid_thread_ts")
	}
	s.titles[statusKey(ch.ID, parent.ts)] = p["title"]
	var res apiResult
	if parent.subtype == subtypeAssistantThread {
		previous := s.wireLocked(parent)
		parent.title = p["title"]
		if e := s.changedEchoLocked(ch, parent, previous); e != nil {
			res.echo = append(res.echo, e)
		}
	}
	return res
}

// ThreadStatus returns the assistant status shown in the thread of
// channel whose parent is threadTS, "" when none (never set, cleared, or
// cleared by the bot's post in the thread).
func (s *Server) ThreadStatus(channel, threadTS string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statuses[statusKey(channel, threadTS)]
}

// SuggestedPrompts returns the prompts the app suggests in channel:
// threadTS "" for the channel's own (an agent app's), else the thread's
// (an app with the assistant view). False when none were set.
func (s *Server) SuggestedPrompts(channel, threadTS string) (SuggestedPrompts, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp, ok := s.prompts[statusKey(channel, threadTS)]
	sp.Prompts = slices.Clone(sp.Prompts)
	return sp, ok
}

// ThreadTitle returns the title the app gave the thread of channel whose
// parent is threadTS (assistant.threads.setTitle), "" when none: as the
// app sent it, Slack's entities and all (&lt; shows as <, as in any text).
func (s *Server) ThreadTitle(channel, threadTS string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.titles[statusKey(channel, threadTS)]
}

// OpenAssistantThread is the person userID opening the app's assistant
// pane while viewing contextChannel ("" for none): Slack starts a thread
// in their direct message with the app (OpenDM), its first message the
// app's, of subtype assistant_app_thread, and sends
// assistant_thread_started with the thread and its context (when the token
// has assistant:write), after the message event of that first message
// (when the bot's messages are echoed, WithEchoBotMessages). It returns
// after the acks or ctx.
func (s *Server) OpenAssistantThread(ctx context.Context, userID, contextChannel string) (AssistantThread, error) {
	s.mu.Lock()
	if _, ok := s.users[userID]; !ok || s.botUserLocked(userID) {
		s.mu.Unlock()
		return AssistantThread{}, fmt.Errorf("slacktest: assistant pane of unknown user %q", userID)
	}
	if _, ok := s.channels[contextChannel]; contextChannel != "" && !ok {
		s.mu.Unlock()
		return AssistantThread{}, fmt.Errorf("slacktest: assistant context in unknown channel %q", contextChannel)
	}
	dm := s.dmLocked(userID)
	root := &msg{ts: s.nextTSLocked(), user: s.channelWorkspaceLocked(dm).BotUserID, appID: s.cfg.appID, text: "New chat", subtype: subtypeAssistantThread}
	s.addMessageLocked(dm, root, nil)
	th := &assistantThread{user: userID, channel: dm.ID, ts: root.ts, context: contextChannel}
	s.assistantThreads[statusKey(dm.ID, root.ts)] = th
	var envs []*envelope
	if e := s.botEchoLocked(dm, root); e != nil {
		envs = append(envs, e)
	}
	out := AssistantThread{Channel: dm.ID, ThreadTS: root.ts}
	if e, id := s.assistantEventLocked("assistant_thread_started", th); e != nil {
		envs, out.EventID = append(envs, e), id
	}
	s.mu.Unlock()
	s.changed()
	return out, s.deliverAll(ctx, envs)
}

// ChangeAssistantContext is the person moving to another channel while
// the assistant thread channel/threadTS is open: Slack sends
// assistant_thread_context_changed with the new context (when the token
// has assistant:write). It returns the event id ("" when none was sent)
// after the ack or ctx.
func (s *Server) ChangeAssistantContext(ctx context.Context, channel, threadTS, contextChannel string) (string, error) {
	s.mu.Lock()
	th, ok := s.assistantThreads[statusKey(channel, threadTS)]
	if !ok {
		s.mu.Unlock()
		return "", fmt.Errorf("slacktest: no assistant thread %s in %s", threadTS, channel)
	}
	if _, ok := s.channels[contextChannel]; contextChannel != "" && !ok {
		s.mu.Unlock()
		return "", fmt.Errorf("slacktest: assistant context in unknown channel %q", contextChannel)
	}
	th.context = contextChannel
	e, id := s.assistantEventLocked("assistant_thread_context_changed", th)
	s.mu.Unlock()
	s.changed()
	if e == nil {
		return "", nil
	}
	return id, s.deliverAll(ctx, []*envelope{e})
}

// assistantEventLocked registers the assistant thread event typ of th, or
// returns nil when the token lacks assistant:write, which Slack requires
// for it. s.mu is held.
func (s *Server) assistantEventLocked(typ string, th *assistantThread) (*envelope, string) {
	if !slices.Contains(s.cfg.scopes, "assistant:write") {
		return nil, ""
	}
	ctxObj := map[string]any{}
	if th.context != "" {
		w := s.workspaceLocked(s.channelTeamLocked(th.context))
		ctxObj = map[string]any{"channel_id": th.context, "team_id": w.Team, "enterprise_id": w.Enterprise}
	}
	return s.callbackLocked(map[string]any{
		"type": typ,
		"assistant_thread": map[string]any{
			"user_id":    th.user,
			"context":    ctxObj,
			"channel_id": th.channel,
			"thread_ts":  th.ts,
		},
	})
}

// assistantMessageFieldsLocked adds to ev, the message event of a
// person's message m in ch, what Slack adds in the AI surface: an
// action_token for a message in an assistant thread, and the person's app
// context in their direct message with the app (ChangeAppContext). s.mu is
// held.
func (s *Server) assistantMessageFieldsLocked(ev map[string]any, ch *channelState, m *msg) {
	if m.parent != nil && m.parent.subtype == subtypeAssistantThread {
		ev["assistant_thread"] = map[string]any{"action_token": randomHex(40)}
	}
	if c, ok := s.appContexts[m.user]; ok && ch.IMUser == m.user {
		ev["app_context"] = c
	}
}

// deliverAll delivers envs in order, each to one connection, and waits for
// every ack or ctx.
func (s *Server) deliverAll(ctx context.Context, envs []*envelope) error {
	for _, e := range envs {
		s.deliver(e)
	}
	for _, e := range envs {
		if _, err := s.waitAck(ctx, e, 0); err != nil {
			return err
		}
	}
	return nil
}
