package slackweb

import (
	"encoding/json"
	"net/http"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// State is the workspace as the page shows it: the JSON of GET /api/state and
// of each "state" server-sent event.
type State struct {
	// Workspace is the name shown at the top of the sidebar.
	Workspace string `json:"workspace"`
	// Me is the user id of the person the page acts as.
	Me string `json:"me"`
	// Bot is the bot's user id.
	Bot string `json:"bot"`
	// Connections counts the open Socket Mode connections: 0 means the bot is
	// not listening.
	Connections int `json:"connections"`
	// Users are the workspace's people, the bot included.
	Users []UserView `json:"users"`
	// Channels are the channels with their messages.
	Channels []ChannelView `json:"channels"`
	// Ephemerals are the messages only Me sees, oldest first.
	Ephemerals []MessageView `json:"ephemerals"`
	// Commands are the slash commands the page knows.
	Commands []Command `json:"commands"`
	// Intro is the mrkdwn text shown at the start of each channel.
	Intro string `json:"intro,omitempty"`
}

// UserView is a person of the workspace.
type UserView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
}

// ChannelView is a channel and its top-level messages, oldest first.
type ChannelView struct {
	ID        string        `json:"id"`
	Name      string        `json:"name"`
	Private   bool          `json:"private,omitempty"`
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
}

// State returns the workspace as the page shows it now.
func (h *Handler) State() State {
	st := State{
		Workspace:   h.cfg.workspace,
		Me:          h.cfg.user,
		Connections: h.srv.Connections(),
		Users:       []UserView{},
		Channels:    []ChannelView{},
		Ephemerals:  []MessageView{},
		Commands:    h.cfg.commands,
		Intro:       h.cfg.intro,
	}
	if st.Commands == nil {
		st.Commands = []Command{}
	}
	for _, u := range h.srv.Users() {
		st.Users = append(st.Users, UserView{ID: u.ID, Name: u.Name, Bot: u.Bot})
		if u.Bot {
			st.Bot = u.ID
		}
	}
	for _, c := range h.srv.Channels() {
		cv := ChannelView{ID: c.ID, Name: c.Name, Private: c.Private, BotMember: c.BotMember, Messages: []MessageView{}}
		for _, m := range h.srv.Messages(c.ID) {
			mv := messageView(m)
			if m.ReplyCount > 0 {
				for _, r := range h.srv.Thread(c.ID, m.TS) {
					if r.TS != m.TS {
						mv.Replies = append(mv.Replies, messageView(r))
					}
				}
			}
			cv.Messages = append(cv.Messages, mv)
		}
		st.Channels = append(st.Channels, cv)
	}
	for _, m := range h.srv.Ephemerals(h.cfg.user) {
		st.Ephemerals = append(st.Ephemerals, messageView(m))
	}
	return st
}

func messageView(m slacktest.Message) MessageView {
	return MessageView{
		Channel:    m.Channel,
		TS:         m.TS,
		ThreadTS:   m.ThreadTS,
		User:       m.User,
		BotID:      m.BotID,
		Username:   m.Username,
		Text:       m.Text,
		Blocks:     m.Blocks,
		Edited:     m.Edited,
		Reactions:  m.Reactions,
		ReplyCount: m.ReplyCount,
		Ephemeral:  m.Ephemeral,
	}
}

// serveState answers GET /api/state.
func (h *Handler) serveState(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, h.State())
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
