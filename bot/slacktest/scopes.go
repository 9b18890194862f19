package slacktest

import (
	"slices"
	"strings"
)

// DefaultScopes are the bot token's scopes unless WithScopes says otherwise:
// those deploy/slack-app-manifest.yaml declares and those the bot's newer
// features need.
func DefaultScopes() []string {
	return []string{
		"commands", "chat:write", "reactions:write", "reactions:read",
		"channels:history", "groups:history", "im:history",
		"app_mentions:read", "im:write", "files:write", "files:read", "usergroups:read", "users:read",
		"channels:read", "groups:read",
		"assistant:write", "links:read", "links:write",
	}
}

// AIScopes are the scopes of Slack's AI surface, which the app's manifest
// asks for and DefaultScopes holds: assistant:write (the assistant pane's
// events and assistant.threads.setTitle / setSuggestedPrompts; Slack adds
// it to an app declared as an agent), links:read (link_shared events) and
// links:write (chat.unfurl). WithoutAIScopes is an app installed before
// its manifest asked for them.
func AIScopes() []string {
	return []string{"assistant:write", "links:read", "links:write"}
}

// WithoutAIScopes gives the bot token DefaultScopes without AIScopes: an
// app without the assistant pane and unfurls.
func WithoutAIScopes() Option {
	return WithScopes(slices.DeleteFunc(DefaultScopes(), func(s string) bool { return slices.Contains(AIScopes(), s) })...)
}

// WithScopes sets the bot token's scopes: auth.test (and every Web API
// answer) lists them in the X-OAuth-Scopes header, and a method whose scope
// is missing answers missing_scope with needed and provided, as Slack does.
// Default DefaultScopes.
func WithScopes(scopes ...string) Option {
	return func(c *config) { c.scopes = slices.Clone(scopes) }
}

// Scopes are the bot token's scopes, as X-OAuth-Scopes lists them.
func (s *Server) Scopes() []string { return slices.Clone(s.cfg.scopes) }

// methodScopes are the scopes a Web API method takes from a bot token,
// any one of them enough; none for a method that needs none (the history
// methods check theirs by channel type).
func methodScopes(method string) []string {
	switch method {
	case "chat.postMessage", "chat.update", "chat.postEphemeral",
		"chat.startStream", "chat.appendStream", "chat.stopStream",
		"agents.sessions.setStatus", "agents.sessions.rename":
		return []string{"chat:write"}
	case "assistant.threads.setStatus":
		// Since March 2026 either; assistant:write is on its way out.
		return []string{"chat:write", "assistant:write"}
	case "assistant.threads.setTitle", "assistant.threads.setSuggestedPrompts":
		return []string{"assistant:write"}
	case "chat.unfurl":
		return []string{"links:write"}
	case "reactions.add", "reactions.remove":
		return []string{"reactions:write"}
	case "files.getUploadURLExternal", "files.completeUploadExternal":
		return []string{"files:write"}
	case "usergroups.users.list":
		return []string{"usergroups:read"}
	case "conversations.open":
		return []string{"im:write"}
	}
	return nil
}

// historyScope is the scope reading ch's history needs.
func historyScope(ch *channelState) string {
	switch {
	case ch.IMUser != "":
		return "im:history"
	case ch.Private:
		return "groups:history"
	default:
		return "channels:history"
	}
}

// needScope answers missing_scope when the token has none of scopes (and
// there is one at least), as Slack does: needed lists them.
func (s *Server) needScope(scopes ...string) (apiResult, bool) {
	if len(scopes) == 0 || slices.ContainsFunc(scopes, func(sc string) bool { return slices.Contains(s.cfg.scopes, sc) }) {
		return apiResult{}, true
	}
	return apiResult{err: "missing_scope", errFields: map[string]any{
		"needed":   strings.Join(scopes, ","),
		"provided": strings.Join(s.cfg.scopes, ","),
	}}, false
}
