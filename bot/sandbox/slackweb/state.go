package slackweb

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// State is the workspace as the page shows it: the JSON of GET /api/state and
// of each "state" server-sent event.
type State struct {
	// Workspace is the name shown at the top of the sidebar.
	Workspace string `json:"workspace"`
	// Me is the user id of the person the page acts as: the one the
	// request named (see ActingHeader), else the first of People.
	Me string `json:"me"`
	// People are who the page can act as, the default first.
	People []PersonView `json:"people"`
	// Bot is the bot's user id.
	Bot string `json:"bot"`
	// Connections counts the open Socket Mode connections: 0 means the bot is
	// not listening.
	Connections int `json:"connections"`
	// Users are the workspace's people, the bot included.
	Users []UserView `json:"users"`
	// Groups are the workspace's user groups, shown by handle where they
	// are mentioned (<!subteam^S…>).
	Groups []GroupView `json:"groups"`
	// Channels are the channels with their messages, and the direct message
	// between Me and the bot once it exists (IM set).
	Channels []ChannelView `json:"channels"`
	// DM is the id of the direct message between Me and the bot (the app's
	// Messages tab), "" until it is opened.
	DM string `json:"dm,omitempty"`
	// Home is the Home tab the bot last published for Me, nil if none.
	Home *ViewState `json:"home,omitempty"`
	// Modals are Me's open modals, bottom of the stack first: the page
	// shows the last.
	Modals []ViewState `json:"modals"`
	// Shortcuts are the message shortcuts of a message's menu.
	Shortcuts []Shortcut `json:"shortcuts"`
	// Ephemerals are the messages only Me sees, oldest first.
	Ephemerals []MessageView `json:"ephemerals"`
	// Commands are the slash commands the page knows.
	Commands []Command `json:"commands"`
	// Intro is the mrkdwn text shown at the start of each channel.
	Intro string `json:"intro,omitempty"`
	// Welcomes are the short mrkdwn texts shown at the start of a channel,
	// by channel id ("" for the others), instead of Intro and Commands,
	// which a button then opens (see [WithWelcomes]).
	Welcomes map[string]string `json:"welcomes,omitempty"`
	// ReactionChoices are the reactions a message's Add reaction menu
	// offers (see [WithReactions]).
	ReactionChoices []Reaction `json:"reaction_choices,omitempty"`
	// Prompts are the suggested prompts the app set for Me's assistant
	// pane (its direct message), none until it set some; PromptsTitle
	// heads them.
	Prompts      []slacktest.Prompt `json:"prompts,omitempty"`
	PromptsTitle string             `json:"prompts_title,omitempty"`
}

// GroupView is a user group of the workspace: its id and handle.
type GroupView struct {
	ID     string `json:"id"`
	Handle string `json:"handle,omitempty"`
}

// UserView is a person of the workspace.
type UserView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
	// Guest is "multi" for a multi-channel guest, "single" for a
	// single-channel one, "" for a member.
	Guest string `json:"guest,omitempty"`
	// Team is the workspace of a person of another organisation (Slack
	// Connect), "" for the workspace's own people.
	Team string `json:"team,omitempty"`
}

// ChannelView is a channel and its top-level messages, oldest first.
type ChannelView struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Private bool   `json:"private,omitempty"`
	// Shared marks a channel shared with another organisation (Slack
	// Connect), which the page marks as Slack does.
	Shared bool `json:"shared,omitempty"`
	// IM is the person of a direct message with the bot.
	IM        string        `json:"im,omitempty"`
	BotMember bool          `json:"bot_member"`
	Messages  []MessageView `json:"messages"`
}

// MessageView is one message, with its thread's replies when it is a parent.
type MessageView struct {
	Channel    string          `json:"channel"`
	TS         string          `json:"ts"`
	ThreadTS   string          `json:"thread_ts,omitempty"`
	User       string          `json:"user,omitempty"`
	BotID      string          `json:"bot_id,omitempty"`
	Username   string          `json:"username,omitempty"`
	Text       string          `json:"text"`
	Blocks     json.RawMessage `json:"blocks,omitempty"`
	Edited     bool            `json:"edited,omitempty"`
	Reactions  []string        `json:"reactions,omitempty"`
	ReplyCount int             `json:"reply_count,omitempty"`
	Replies    []MessageView   `json:"replies,omitempty"`
	Ephemeral  bool            `json:"ephemeral,omitempty"`
	// Markdown marks a streamed message (chat.startStream): its text is
	// markdown, shown above its blocks; Streaming one still growing.
	Markdown  bool `json:"markdown,omitempty"`
	Streaming bool `json:"streaming,omitempty"`
	// Files are the files shared with the message: the bot's, or those
	// its person attached.
	Files []FileView `json:"files,omitempty"`
	// Unfurls are the app's unfurls of the message's links
	// (chat.unfurl), in the order of the URLs; their buttons act like the
	// message's (POST /api/action with the message's ts).
	Unfurls []UnfurlView `json:"unfurls,omitempty"`
	// Status is the assistant status shown under the message's thread
	// while set (assistant.threads.setStatus), such as "is working…".
	Status string `json:"status,omitempty"`
	// Assistant marks the message an assistant pane's thread starts with
	// (POST /api/assistant); Title is the title the app gave its thread
	// (assistant.threads.setTitle), "" until it gave one.
	Assistant bool   `json:"assistant,omitempty"`
	Title     string `json:"title,omitempty"`
}

// FileView is a file the bot uploaded and shared in a message. Its content
// is served at URL.
type FileView struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
	Alt   string `json:"alt,omitempty"`
	Size  int    `json:"size"`
	// Image says the page shows it inline: its content is a PNG, JPEG,
	// GIF or WebP image.
	Image bool   `json:"image,omitempty"`
	URL   string `json:"url"`
}

// ViewState is a modal or Home tab the bot opened or published for Me.
type ViewState struct {
	ID     string          `json:"id"`
	Type   string          `json:"type"`
	Title  string          `json:"title,omitempty"`
	Submit string          `json:"submit,omitempty"`
	Close  string          `json:"close,omitempty"`
	Blocks json.RawMessage `json:"blocks"`
	// Errors are the errors of the last submission, by block_id.
	Errors map[string]string `json:"errors,omitempty"`
	// Hash changes with every update of the view.
	Hash string `json:"hash"`
}

// connections is what the page counts as the app's connections: the Socket
// Mode ones, or 1 while an app in HTTP mode takes requests (WithConnected).
func (h *Handler) connections() int {
	if h.cfg.connected == nil {
		return h.srv.Connections()
	}
	if h.cfg.connected() {
		return 1
	}
	return 0
}

// stateOf is the workspace as person sees it: the channels they are in,
// their direct message with the bot, their ephemeral messages, Home tab
// and modals.
func (h *Handler) stateOf(person string) State {
	st := State{
		Workspace:       h.cfg.workspace,
		Me:              person,
		Connections:     h.connections(),
		Users:           []UserView{},
		Groups:          []GroupView{},
		Channels:        []ChannelView{},
		Ephemerals:      []MessageView{},
		Commands:        h.cfg.commands,
		Intro:           h.cfg.intro,
		Welcomes:        h.cfg.welcomes,
		ReactionChoices: h.cfg.reactions,
		Modals:          []ViewState{},
		Shortcuts:       h.cfg.shortcuts,
	}
	if st.Commands == nil {
		st.Commands = []Command{}
	}
	if st.Shortcuts == nil {
		st.Shortcuts = []Shortcut{}
	}
	files := h.filesByMessage(person)
	names := map[string]string{}
	for _, u := range h.srv.Users() {
		standing := h.srv.StandingOf(u.ID)
		st.Users = append(st.Users, UserView{ID: u.ID, Name: u.Name, Bot: u.Bot, Guest: standing.Guest, Team: standing.Team})
		names[u.ID] = u.Name
	}
	st.Bot = h.srv.BotUserOf(person)
	for _, g := range h.srv.UserGroups() {
		st.Groups = append(st.Groups, GroupView{ID: g.ID, Handle: g.Handle})
	}
	st.People = h.people(names)
	for _, c := range h.srv.Channels() {
		if !h.visible(c, person) {
			continue
		}
		if c.IMUser != "" {
			st.DM = c.ID
			if sp, ok := h.srv.SuggestedPrompts(c.ID, ""); ok {
				st.Prompts, st.PromptsTitle = sp.Prompts, sp.Title
			}
		}
		cv := ChannelView{ID: c.ID, Name: c.Name, Private: c.Private, Shared: c.Shared, IM: c.IMUser, BotMember: c.BotMember, Messages: []MessageView{}}
		for _, m := range h.srv.Messages(c.ID) {
			mv := messageView(m, files)
			mv.Status = h.srv.ThreadStatus(c.ID, m.TS)
			mv.Unfurls = unfurlViews(h.srv.Unfurls(c.ID, m.TS))
			mv.Assistant = m.Subtype == subtypeAssistantThread
			mv.Title = h.srv.ThreadTitle(c.ID, m.TS)
			if m.ReplyCount > 0 {
				for _, r := range h.srv.Thread(c.ID, m.TS) {
					if r.TS != m.TS {
						mv.Replies = append(mv.Replies, messageView(r, files))
					}
				}
			}
			cv.Messages = append(cv.Messages, mv)
		}
		st.Channels = append(st.Channels, cv)
	}
	for _, m := range h.srv.Ephemerals(person) {
		st.Ephemerals = append(st.Ephemerals, messageView(m, files))
	}
	if v, ok := h.srv.HomeView(person); ok {
		home := viewState(v)
		st.Home = &home
	}
	for _, v := range h.srv.OpenModals(person) {
		st.Modals = append(st.Modals, viewState(v))
	}
	return st
}

func viewState(v slacktest.View) ViewState {
	blocks := v.Blocks
	if len(blocks) == 0 {
		blocks = json.RawMessage("[]")
	}
	return ViewState{ID: v.ID, Type: v.Type, Title: v.Title, Submit: v.Submit, Close: v.Close,
		Blocks: blocks, Errors: v.Errors, Hash: v.Hash}
}

func messageView(m slacktest.Message, files map[string][]FileView) MessageView {
	return MessageView{
		Files:      files[m.Channel+"/"+m.TS],
		Channel:    m.Channel,
		TS:         m.TS,
		ThreadTS:   m.ThreadTS,
		User:       m.User,
		BotID:      m.BotID,
		Username:   m.Username,
		Text:       m.Text,
		Blocks:     m.Blocks,
		Edited:     m.Edited,
		Markdown:   m.Streamed,
		Streaming:  m.Streaming,
		Reactions:  m.Reactions,
		ReplyCount: m.ReplyCount,
		Ephemeral:  m.Ephemeral,
	}
}

// subtypeAssistantThread is Slack's subtype of the message an assistant
// pane's thread starts with.
const subtypeAssistantThread = "assistant_app_thread"

// UnfurlView is an app's unfurl of one link under a message.
type UnfurlView struct {
	URL    string          `json:"url"`
	Blocks json.RawMessage `json:"blocks,omitempty"`
}

// unfurlViews are us in the order of their URLs.
func unfurlViews(us map[string]slacktest.Unfurl) []UnfurlView {
	var out []UnfurlView
	for _, url := range slices.Sorted(maps.Keys(us)) {
		out = append(out, UnfurlView{URL: url, Blocks: us[url].Blocks})
	}
	return out
}

// serveState answers GET /api/state.
func (h *Handler) serveState(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, h.stateOf(me(r)))
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
