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
		"commands", "chat:write", "reactions:write",
		"channels:history", "groups:history", "im:history",
		"app_mentions:read", "im:write", "files:write", "usergroups:read", "users:read",
		"channels:read", "groups:read",
	}
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

// methodScope is the scope a Web API method needs from a bot token, "" for
// none (the history methods check theirs by channel type).
func methodScope(method string) string {
	switch method {
	case "chat.postMessage", "chat.update", "chat.postEphemeral", "assistant.threads.setStatus":
		return "chat:write"
	case "reactions.add", "reactions.remove":
		return "reactions:write"
	case "files.getUploadURLExternal", "files.completeUploadExternal":
		return "files:write"
	case "usergroups.users.list":
		return "usergroups:read"
	case "conversations.open":
		return "im:write"
	}
	return ""
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

// needScope answers missing_scope when the token lacks scope, as Slack does.
func (s *Server) needScope(scope string) (apiResult, bool) {
	if scope == "" || slices.Contains(s.cfg.scopes, scope) {
		return apiResult{}, true
	}
	return apiResult{err: "missing_scope", errFields: map[string]any{
		"needed":   scope,
		"provided": strings.Join(s.cfg.scopes, ","),
	}}, false
}
