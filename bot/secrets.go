package bot

import (
	"github.com/docsbot/docsbot/bot/slackid"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/secret"
)

// SecretKinds are the kinds of every secret docsbot handles, for masking
// them wherever a setting or an error is shown (xoxb-…abcd): Slack's tokens
// (slackid.TokenKinds) and the docs API key (docsapi.KeyPrefix). It is the
// one join of the two lists: the core's token checks, doctor and the
// settings checks ask it; bot/project, which cannot import the core, joins
// the same two.
func SecretKinds() secret.Kinds {
	return append(secret.Kinds(slackid.TokenKinds()), docsapi.KeyPrefix)
}
