// Package slackweb serves a web page that shows a [slacktest.Server] the way
// Slack shows a workspace, and lets a person use it: a sidebar of channels, a
// channel's messages, threads in a side panel, and a message box.
//
// The page acts as one person of the workspace (see [WithUser]). What they
// type goes through the fake Slack exactly as it would through Slack: a line
// starting with a known slash command becomes a Socket Mode slash_commands
// envelope ([slacktest.Server.SendSlashCommand]), anything else a posted
// message and a message event ([slacktest.Server.PostUserMessage]). So the
// real bot, connected to the server over Socket Mode, answers it.
//
// Messages are rendered in the browser: Slack mrkdwn (bold, italic, strike,
// code, quotes, links, mentions, emoji shortcodes) and Block Kit (section,
// fields, context, divider, header, image, actions, rich_text). Text is only
// ever written into the page as text nodes, never parsed as HTML.
//
// Endpoints:
//
//	GET  /             the page (index.html, app.css, app.js, embedded)
//	GET  /api/state    the workspace as JSON: users, channels with their
//	                   messages and threads, the person's ephemeral messages
//	POST /api/send     {"channel", "text", "thread_ts"}: type a line
//	GET  /api/events   server-sent events: "state" with the same JSON as
//	                   /api/state, at once and after every change
//
// Client calls the JSON endpoints from Go. The page needs no build step and
// no network access beyond its own server.
package slackweb
