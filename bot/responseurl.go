package bot

import (
	"errors"
	"net/url"
)

// ErrResponseURL is the error of a response_url that is not Slack's: a
// slash command or an interaction carries one, and a forged request in HTTP
// mode would otherwise make the bot post to any address it names.
var ErrResponseURL = errors.New("bot: a response_url that is not Slack's; not posted to")

// slackHooks are the hosts of Slack's own response URLs (slack-facts.md:
// hooks.slack.com; GovSlack's hooks.slack-gov.com).
var slackHooks = map[string]bool{"hooks.slack.com": true, "hooks.slack-gov.com": true}

// responseURLOK reports whether raw may be posted to: an https URL on one
// of Slack's hosts, or on the configured Slack's (Config.SlackHost).
func (b *Bot) responseURLOK(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.User != nil {
		return false
	}
	if b.cfg.SlackHost != "" && u.Host == b.cfg.SlackHost {
		return u.Scheme == "https" || u.Scheme == "http"
	}
	return u.Scheme == "https" && slackHooks[u.Host]
}

// SlackHostOf is Config.SlackHost for a Slack Web API base URL
// (SLACK_API_URL): its host, "" for Slack's own (slack.com) or an unreadable
// URL.
func SlackHostOf(apiURL string) string {
	u, err := url.Parse(apiURL)
	if err != nil || u.Host == "" || u.Hostname() == "slack.com" || u.Hostname() == "slack-gov.com" {
		return ""
	}
	return u.Host
}
