// Package slacktest is an in-process fake of Slack's Web API and Socket Mode for
// end-to-end tests of the bot and for the local sandbox.
//
// A Server listens on a real TCP port. Point slack-go at it with
// slack.OptionAPIURL(server.APIURL) and give it the server's app-level token; the
// real socketmode client then opens a real WebSocket through apps.connections.open.
// The server speaks like Slack: it says hello, pings every connection, wraps
// slash commands and events in Socket Mode envelopes, waits for acks, redelivers
// what is not acknowledged, and answers the Web API methods the bot uses with
// Slack's shapes and error names.
//
// Tests drive it the way people drive Slack (SlashCommand, PostUserMessage) and
// read back what the bot did (Messages, Thread, Ephemerals, ResponsePosts, Calls).
// BotToken and AppToken are the made-up tokens to configure the bot with;
// AckAll connects a client that acknowledges everything, where no bot should.
// Failure injection (FailNext, RateLimit, SetAPILatency, Disconnect,
// DropConnections) reproduces the conditions the bot must survive.
//
// All state lives in the Server value; every method is safe for concurrent use.
// Tokens never appear in recorded calls: Call.Token only says which kind of
// token was presented.
package slacktest
