// Package slackweb serves a web page that shows a [slacktest.Server] the way
// Slack shows a workspace, and lets a person use it: a sidebar of channels
// and of the app, a channel's messages, threads in a side panel, the app's
// Home and Messages tabs, modals, and a message box.
//
// The page acts as one person of the workspace at a time: one of the people
// of [WithPeople] (U0ALICE by default), chosen in a switcher in the sidebar ("You are: alice · gus (guest) · …"). Each request names the
// person it acts for ([ActingHeader], or [ActingParam] for the event
// stream and file links), checked against the list; the state it answers
// is that person's: the channels they are in (a channel shared with
// another organisation marked, as Slack marks it), their direct message
// with the bot, their ephemeral messages, Home tab and modals. Guests and
// people of another organisation carry a badge by their name. What they
// do goes through the fake Slack exactly as it would through Slack, so the
// real bot, connected to the server over Socket Mode, answers it:
//
//   - A line starting with a known slash command becomes a slash_commands
//     envelope ([slacktest.Server.SendSlashCommand]); any other line a posted
//     message and its message event ([slacktest.Server.PostUserMessage]).
//   - "@name" of a member becomes a mention (<@U…>), as when a person picks
//     a name in Slack's message box (the box completes names after "@"). A
//     line mentioning the bot in a channel it is in is sent with
//     [slacktest.Server.Mention]: app_mention plus the message event. Where
//     the bot is not a member the message is posted and the person told.
//   - The app's Messages tab is the direct message with the bot, opened
//     with [slacktest.Server.OpenDM]; its Home tab shows the view the bot
//     last published for the person ([slacktest.Server.HomeView]), and
//     opening it sends app_home_opened ([slacktest.Server.OpenHome]).
//   - Block Kit elements work: buttons (a URL button also opens its link in
//     a new tab), overflow menus, static selects and feedback buttons send
//     block_actions ([slacktest.Server.Act]), in messages, modals and the
//     Home tab.
//   - A message's "More actions" menu lists the app's message shortcuts
//     ([WithShortcuts]); choosing one sends a message_action
//     ([slacktest.Server.MessageShortcut]).
//   - The top of the person's modal stack ([slacktest.Server.OpenModals]) is
//     shown over the page with its title, blocks, inputs (plain_text_input,
//     single and multi-line, and static_select) and submit and close labels.
//     Submit sends view_submission with the inputs' values
//     ([slacktest.Server.SubmitView]); errors the bot answers
//     (response_action "errors") show under their inputs, and required
//     inputs left empty are marked before anything is sent, as Slack does.
//     Close sends view_closed when the view asks for it
//     ([slacktest.Server.CloseView]).
//
// It shows what the bot does: messages in Slack mrkdwn (bold, italic,
// strike, code, quotes, links, mentions, emoji shortcodes) and Block Kit
// (section, fields, context, context_actions, divider, header, image,
// actions, input, markdown, rich_text), the bot's reactions, the assistant
// status of a thread while it is set ("docsbot is working…"), the files
// it uploaded ([slacktest.Server.Files]): images inline, anything else as a
// download link; the app's unfurls under a message's links, their buttons
// acting on the message; and the assistant pane (✨ Assistant in the
// header, POST /api/assistant): its thread in the side panel headed by the
// title the app gave it, with the app's suggested prompts as chips that
// send their message in the thread until the person wrote there.
//
// Safety: text is only ever written into the page as text nodes, never
// parsed as HTML, and links only ever point to http(s) addresses. Uploaded
// files are served by the page itself (its Content-Security-Policy lets it
// fetch nothing elsewhere): a file whose bytes are a PNG, JPEG, GIF or WebP
// image inline, anything else as an attachment, whatever its name says.
//
// Endpoints (the POSTs take same-origin JSON only; they answer a
// [SendResponse], pending when the bot has not acknowledged what was sent
// within [WithAckWait]; every /api/ request acts for the person it names,
// by default the first, and naming anyone else is refused with 400
// unknown_person):
//
//	GET  /                  the page (index.html, app.css, app.js, embedded)
//	GET  /api/state         the workspace as JSON: the people the page can
//	                        act as and who is acting, users, the person's
//	                        channels with their messages, threads, files and
//	                        thread status, the app's unfurls of a message's
//	                        links, the person's DM and its assistant pane's
//	                        suggested prompts, Home tab, open modals and
//	                        ephemeral messages, the commands and shortcuts
//	GET  /api/events        server-sent events: "state" with the same JSON as
//	                        /api/state, at once and after every change
//	GET  /api/files/{id}    an uploaded file's content
//	POST /api/send          {"channel", "text", "thread_ts"}: type a line
//	POST /api/action        {"channel", "ts"} or {"view_id"}, with
//	                        {"action_id", "value"}: use an element
//	POST /api/shortcut      {"channel", "ts", "callback_id"}: a message shortcut
//	POST /api/view/submit   {"view_id", "values": {block_id: {action_id: value}}}
//	POST /api/view/close    {"view_id"}
//	POST /api/home          open the app's Home tab
//	POST /api/dm            open the app's Messages tab: {"channel"} answers
//	POST /api/assistant     {"context"}: open the app's assistant pane looking
//	                        at a channel: {"channel", "ts"} (its thread) answer
//
// Client calls the JSON endpoints from Go. The page needs no build step and
// no network access beyond its own server.
package slackweb
