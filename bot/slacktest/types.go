package slacktest

import (
	"encoding/json"
	"time"
)

// Channel is a conversation in the fake workspace.
type Channel struct {
	// ID is the channel id, such as "C0GENERAL".
	ID string
	// Name is the channel name without '#'.
	Name string
	// BotMember says whether the bot has joined the channel.
	BotMember bool
	// Private marks a private channel: invisible (channel_not_found) to a bot
	// that is not a member, and its events carry channel_type "group".
	Private bool
	// IMUser, when set, makes the channel the direct message between the bot
	// and that person (an id starting with D, see OpenDM): its events carry
	// channel_type "im".
	IMUser string
	// Shared marks a channel shared with another organisation (Slack
	// Connect): conversations.info says is_shared and is_ext_shared.
	Shared bool
	// Members are the people in the channel (conversations.members,
	// conversations.info's num_members, users.conversations); nil is every
	// member of the workspace, none of its guests (a guest is in the
	// channels that name them, as Slack invites guests to channels one by
	// one) and none of another organisation (a direct message: its person).
	Members []string
	// Team is the workspace of the channel (AddWorkspace); "" is the
	// primary one. Events, commands and interactions in it say Team, and
	// only a token of Team reaches it through the Web API.
	Team string
}

// User is a person in the fake workspace.
type User struct {
	// ID is the user id, such as "U0ALICE".
	ID string
	// Name is the user's handle.
	Name string
	// Bot marks the bot's own user.
	Bot bool
}

// SlashCommand is what a person types: Command (with its leading '/') and Text,
// run by UserID in ChannelID. The server fills in the rest of Slack's payload.
type SlashCommand struct {
	Command string
	// Text is the command's text as Slack delivers it: &, < and > that the
	// person typed arrive escaped (&amp; &lt; &gt;; see Escape).
	Text      string
	UserID    string
	ChannelID string
}

// Ack is an acknowledgement received for a Socket Mode envelope.
type Ack struct {
	// EnvelopeID is the envelope acknowledged.
	EnvelopeID string
	// Payload is the ack's payload, nil when the client sent none.
	Payload json.RawMessage
	// Latency is the time from the envelope's most recent sending to this ack.
	Latency time.Duration
	// At is when the ack arrived.
	At time.Time
}

// UserMessage is a message a person posts: at the top of ChannelID, or in the
// thread whose parent is ThreadTS.
type UserMessage struct {
	ChannelID string
	UserID    string
	// Text is the message text as Slack delivers it: &, < and > that the
	// person typed arrive escaped (&amp; &lt; &gt;; see Escape), and mentions and links
	// as markup such as <@U0BOB> or <https://example.com|label>.
	Text     string
	ThreadTS string
	// Files, when set, are the names of files the person attached: the
	// message event then has subtype file_share and a files array, as
	// Slack sends it.
	Files []string
	// Attach are files the person attached, with their bytes: the message
	// event has subtype file_share and a files array whose
	// url_private_download the fake serves as Slack does (SharedFiles).
	// Files and Attach add up.
	Attach []Attachment
}

// Call is one Web API request the server received.
type Call struct {
	// Method is the Web API method, such as "chat.postMessage".
	Method string
	// Params holds the form fields, or the top-level fields of a JSON body
	// (objects and arrays such as blocks, attachments and metadata as raw JSON
	// text). The token is never included.
	Params map[string]string
	// Token says which token was presented: "bot", "app", "none" or "invalid".
	Token string
	// At is when the request arrived.
	At time.Time
	// Error is the Slack error answered ("ratelimited" for a 429), "" when ok.
	Error string
	// Team is the workspace whose token made the call: the primary's for
	// BotToken, an install's workspace for a token it issued (for an
	// org-wide token, the workspace the call acted in, else the
	// enterprise id); "" for no token, an app token or an unknown one.
	Team string
	// NamedTeam is the workspace of the channel the call names (channel,
	// channel_id), else of the person (user, user_id); "" when it names
	// none the fake knows. A bot token's call whose NamedTeam is not its
	// Team reached for another workspace with it (Slack answers
	// channel_not_found, or user_not_found but for a person who shares a
	// channel with the token's workspace).
	NamedTeam string
}

// Message is a message stored in the fake workspace.
type Message struct {
	Channel string
	TS      string
	// ThreadTS is the parent's ts for a reply and the message's own ts for a
	// parent that has replies (as Slack returns it); "" otherwise.
	ThreadTS string
	// User is the author; the bot's user id for the bot's posts.
	User string
	// BotID is set on the bot's posts.
	BotID    string
	Username string
	Text     string
	Blocks   json.RawMessage
	Metadata json.RawMessage
	// Edited is set once chat.update (or replace_original) changed the message.
	Edited bool
	// Reactions lists the reaction names on the message, in the order first added.
	Reactions []string
	// ReplyCount is the number of thread replies under a parent.
	ReplyCount int
	// Ephemeral marks a message only ForUser sees.
	Ephemeral bool
	ForUser   string
	// Streamed marks a message started with chat.startStream, Streaming one
	// that was not stopped yet; Appends counts its chat.appendStream calls.
	// Halted marks a stream Slack stopped because the person pressed Stop
	// (StopAgentSession).
	Streamed, Streaming, Halted bool
	Appends                     int
	// Chunks are the chunks a streamed message received (chat.startStream,
	// appendStream, stopStream), in order, as sent: markdown_text chunks
	// also grow Text. Tasks are the tasks its task_update chunks show, each
	// as its latest update left it, in the order first seen; PlanTitle is
	// the title of its last plan_update chunk; ChunkBlocks are the blocks
	// of its blocks chunks, in order; TaskDisplayMode is chat.startStream's
	// task_display_mode ("timeline" unless "plan").
	Chunks          []json.RawMessage
	Tasks           []StreamTask
	PlanTitle       string
	ChunkBlocks     json.RawMessage
	TaskDisplayMode string
	// Subtype is Slack's subtype of the message: "assistant_app_thread"
	// for the message Slack starts an assistant thread with
	// (OpenAssistantThread), "" for a plain one.
	Subtype string
}

// ResponsePost is one post received on a slash command's response_url.
type ResponsePost struct {
	TriggerID string
	// User is the person whose command or interaction the response URL
	// answers: the one an ephemeral post shows to.
	User            string
	ResponseType    string
	Text            string
	Blocks          json.RawMessage
	ReplaceOriginal bool
	DeleteOriginal  bool
	At              time.Time
	// Error is the error answered ("used_url", "expired_url", ...), "" when accepted.
	Error string
}
