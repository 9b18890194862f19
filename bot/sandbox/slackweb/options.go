package slackweb

import (
	"log/slog"
	"maps"
	"time"
)

// Command is a slash command the page knows: it completes it in the message
// box, lists it in the help panel and sends only known commands to the server.
type Command struct {
	// Name is the command with its leading slash, such as "/docs-agent".
	Name string `json:"name"`
	// Hint shows the arguments, such as "<instruction>".
	Hint string `json:"hint,omitempty"`
	// Description says what the command does, in plain text.
	Description string `json:"description,omitempty"`
	// Examples are whole lines to try, such as "/docs-visitors 30d".
	Examples []string `json:"examples,omitempty"`
}

// Shortcut is a message shortcut of the app: a message's "More actions"
// menu lists it, and choosing it sends a message_action interaction
// ([slacktest.Server.MessageShortcut]).
type Shortcut struct {
	// CallbackID is the shortcut's callback id, such as "send_to_docs_agent".
	CallbackID string `json:"callback_id"`
	// Name is the menu item's text, such as "Send to docs agent".
	Name string `json:"name"`
	// Description says what it does, in plain text.
	Description string `json:"description,omitempty"`
}

// Person is someone the page can act as ([WithPeople]).
type Person struct {
	// ID is the person's user id; they must exist on the server.
	ID string
	// About says in a few words who they are, shown next to their name in
	// the page's switcher, such as "Partner Co, another organisation"; ""
	// says it from what the server knows of them (member, guest, another
	// organisation).
	About string
}

// Option configures a Handler.
type Option func(*config)

type config struct {
	// people are who the page can act as, the default first; never empty.
	people    []Person
	workspace string
	commands  []Command
	shortcuts []Shortcut
	intro     string
	welcomes  map[string]string
	reactions []Reaction
	ackWait   time.Duration
	logger    *slog.Logger
	// connected, when set, says whether the app takes Slack's requests
	// (an app in HTTP mode opens no Socket Mode connection).
	connected func() bool
}

func defaultConfig() config {
	return config{
		people:    []Person{{ID: "U0ALICE"}},
		workspace: "Slack sandbox",
		ackWait:   5 * time.Second,
		logger:    slog.New(slog.DiscardHandler),
	}
}

// WithPeople sets the people the page can act as, the first by default:
// the page shows a switcher of them, and each request names the person it
// acts for (see [ActingHeader]); a request naming anyone else is refused.
// With none, the option is ignored: the page acts as U0ALICE, who is in
// every slacktest workspace.
func WithPeople(people ...Person) Option {
	return func(c *config) {
		if len(people) > 0 {
			c.people = append([]Person(nil), people...)
		}
	}
}

// WithWorkspace sets the workspace name shown at the top of the sidebar.
func WithWorkspace(name string) Option { return func(c *config) { c.workspace = name } }

// WithCommands sets the slash commands the page knows. Lines starting with
// another command are refused as Slack refuses them ("not a valid command").
// With no commands, any line starting with '/' is sent as a command.
func WithCommands(cmds ...Command) Option {
	return func(c *config) { c.commands = append([]Command(nil), cmds...) }
}

// WithShortcuts sets the message shortcuts a message's "More actions" menu
// lists, as the app's manifest declares them (features.shortcuts of type
// message). With none, the menu says the app has no shortcuts.
func WithShortcuts(s ...Shortcut) Option {
	return func(c *config) { c.shortcuts = append([]Shortcut(nil), s...) }
}

// WithIntro sets a text in Slack mrkdwn shown at the beginning of every
// channel and in the help panel: what to try, and what the sandbox fakes.
func WithIntro(mrkdwn string) Option { return func(c *config) { c.intro = mrkdwn } }

// WithWelcomes sets short texts in Slack mrkdwn, by channel id, shown at the
// beginning of a channel instead of the intro and the commands, with a
// button that opens them in the help panel: what to try in that channel.
// The text under "" is for the channels without one of their own and the
// direct message with the bot. With none, each channel begins with the
// intro and the commands.
func WithWelcomes(byChannel map[string]string) Option {
	return func(c *config) { c.welcomes = maps.Clone(byChannel) }
}

// WithReactions sets the reactions a message's Add reaction menu offers,
// added as the person (reactions.add) and delivered to the app as
// reaction_added. With none, the page offers no reactions.
func WithReactions(r ...Reaction) Option {
	return func(c *config) { c.reactions = append([]Reaction(nil), r...) }
}

// WithAckWait sets how long POST /api/send and the interaction endpoints
// wait for the bot to acknowledge what they delivered before answering with
// pending (default 5s). The message or interaction is delivered either way.
func WithAckWait(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.ackWait = d
		}
	}
}

// WithConnected sets how the page tells whether the app is connected, for
// an app in HTTP mode, which opens no Socket Mode connection (the default
// counts the server's Socket Mode connections).
func WithConnected(up func() bool) Option { return func(c *config) { c.connected = up } }

// WithLogger sets where the handler logs refused requests and stream errors.
// Default: discarded.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}
