// Package slacktest is an in-process fake of Slack's Web API and Socket Mode for
// end-to-end tests of the bot and for the local sandbox.
//
// A Server listens on a real TCP port. Point slack-go at it with
// slack.OptionAPIURL(server.APIURL) and give it the server's app-level token; a
// Socket Mode client (slack-go's socketmode, or docsbot's own) then opens a real
// WebSocket through apps.connections.open.
// The server speaks like Slack: it says hello, pings every connection, wraps
// slash commands, events and interactions in Socket Mode envelopes, waits for
// acks, redelivers what is not acknowledged, and answers the Web API methods the
// bot uses with Slack's shapes and error names.
//
// Tests drive it the way people drive Slack and read back what the bot did:
//
//   - Messages: PostUserMessage (channels, threads, and direct messages opened
//     with OpenDM, whose events carry channel_type "im"), Mention (app_mention
//     plus the message event Slack also sends), DeliverEvent for any other event,
//     OpenHome (app_home_opened).
//   - Slash commands: SlashCommand, SendSlashCommand.
//   - Interactivity (interactive envelopes): Act (block_actions on an element of
//     a message, of an app unfurl under it, or of a view), SubmitView (view_submission; the ack's
//     response_action is applied), CloseView (view_closed when
//     notify_on_close), Shortcut (global) and MessageShortcut (message_action).
//     Every interaction except view_closed carries a trigger id that opens one
//     view within 3 s: used again it is exchanged_trigger_id, late it is
//     expired_trigger_id (WithClock and WithTriggerTTL let tests move time
//     instead of sleeping).
//   - Slack's AI surface (its scopes, AIScopes, are in DefaultScopes;
//     WithoutAIScopes leaves them out): OpenAssistantThread (the
//     person opens the assistant pane: a thread in their DM, begun by an
//     assistant_app_thread message, and assistant_thread_started with the
//     channel they were viewing; their messages in the thread carry an
//     action token), ChangeAssistantContext (assistant_thread_context_changed),
//     ChangeAppContext (app_context_changed, then app_context on their DM
//     messages), StopAgentSession (the Stop button, shown while a session
//     is processing: Slack halts the app's streams in the thread and sends
//     agent_session_stopped), and link_shared for a person's links to the
//     app's unfurl domains (WithUnfurlDomains; PostUserMessage sends it,
//     ShareLinks returns it, ComposeLinks types links in the composer).
//   - Reading back: Messages, Thread, Message, Ephemerals, ResponsePosts, Calls,
//     Acks, HomeView, OpenModals, ViewByID, ThreadStatus, Files,
//     SuggestedPrompts, ThreadTitle, AgentSession, LinkShare, Unfurls,
//     UnfurlsByID; a streamed Message's Chunks, Tasks and PlanTitle.
//
// Web API methods served: auth.test (with X-OAuth-Scopes, see WithScopes),
// apps.connections.open, chat.postMessage (also to a user id: their DM),
// chat.update, chat.postEphemeral, chat.startStream/appendStream/stopStream
// (a streamed reply: recipient needed outside a DM, 12,000 characters a
// call, message_not_in_streaming_state once stopped; chunks of markdown,
// task_update, plan_update and blocks; task_display_mode; stopStream's
// session_status), chat.unfurl (by unfurl_id and source or channel and ts,
// blocks per URL and Work Object entities, scope links:write),
// reactions.add/remove, conversations.history/replies/open,
// views.open/push/update/publish (checked like Slack: invalid_arguments with
// response_metadata.messages for a bad view, invalid_blocks with its
// explanation for bad message blocks: the limits of plan, task_card,
// data_visualization, data_table and context_actions included, and the
// block types a workspace refuses, RefuseBlockType),
// assistant.threads.setStatus/setTitle/setSuggestedPrompts (an agent app's
// prompts are its DM's; WithAssistantView for per-thread ones),
// agents.sessions.setStatus/rename,
// files.getUploadURLExternal with its upload URL and
// files.completeUploadExternal; the files people attach (UserMessage.Attach)
// at their url_private_download as files.slack.com serves them (the bytes
// only to a bot token of the file's workspace with files:read, else a
// redirect to the sign-in page; faults: FileSignInPage, FileRedirect,
// FileEndless; SharedFile, MessageFiles); usergroups.users.list (AddUserGroup;
// SetUserGroupHandle gives a group the handle UserGroups lists),
// oauth.v2.access (WithOAuth), users.info (scope users:read; guests and people of other organisations,
// AddGuest, AddExternalUser, whose events carry user_team),
// conversations.info (is_ext_shared for a Channel shared with another
// organisation), users.conversations (a person's channels: Channel.Members,
// private ones only where the bot is in too), conversations.members (a
// channel's people a page at a time; a guest only where a channel names
// them) and chat.getPermalink. A
// method whose scope the token lacks answers missing_scope with needed and
// provided.
//
// Several workspaces, and installing by link: the primary workspace (WithTeam,
// WithBot) is installed with BotToken; AddWorkspace adds another company's,
// AddMember its people and Channel.Team its channels. Events, slash commands
// and interactions about a channel (or, without one, a person) of a workspace
// carry its team, its enterprise and its bot user; a Web API call acts in its
// token's workspace (Call.Team): another workspace's channel is
// channel_not_found, its people user_not_found unless they share a channel.
// WithOAuth serves GET /oauth/v2/authorize on URL() for the person signed in
// with SignInURL (DenyNextInstall, InstallOrgWide) and oauth.v2.access, which
// exchanges a code, or with WithTokenRotation a refresh token once
// (TokenExchanges; RefreshReuses counts one presented again), for a bot token
// of that workspace (token_expired after its lifetime). Call.NamedTeam says
// whose channel or person a call named, to tell a call that used another
// workspace's token. Uninstall and RevokeTokens revoke a workspace's tokens
// (token_revoked) and deliver app_uninstalled and tokens_revoked. Not
// modelled: events still come from a workspace where the app is not
// installed; every token has the scopes of WithScopes, whatever an install
// asked; method limits (WithMethodLimit) are shared by all workspaces.
//
// Every events_api envelope not acknowledged in time is sent again
// (WithRedelivery), and Redeliver sends any envelope again, slash commands and
// interactions included: retry_attempt grows, the payload and its trigger id
// stay the same.
//
// With WithHTTPDelivery the server delivers to the app over HTTP instead, as
// Slack does for an app without Socket Mode: signed requests to /slack/events,
// /slack/commands and /slack/interactive, with Slack's retries of events not
// answered 2xx within 3 s. VerifyURL, SendSigned, SendBadSignature, SendStale
// and SendOversized exercise the app's request checking. NewBalancer is the
// load balancer in front of several replicas: the one request URL, each
// request to one replica, passing over a dead one.
//
// BotToken and AppToken are the made-up tokens to configure the bot with;
// AckAll connects a client that acknowledges everything, where no bot should;
// Connect runs a minimal Socket Mode app whose handler acks (and answers) itself.
// Failure injection (FailNext, RateLimit, SetAPILatency, Disconnect,
// DropConnections) and limits (WithPostLimit per channel, WithMethodLimit per
// method, for tier 3) reproduce the conditions the bot must survive.
// HoldAnswer carries out a call and holds its answer until Release: a post
// shows, and people react to it or press its buttons, before its poster
// learns its ts.
//
// All state lives in the Server value; every method is safe for concurrent use.
// Tokens never appear in recorded calls: Call.Token only says which kind of
// token was presented, Call.Team whose; oauth.v2.access's client secret, code
// and refresh token are left out of Call.Params.
package slacktest
