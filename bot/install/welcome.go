package install

import "github.com/docsbot/docsbot/bot/mrkdwn"

// welcomeText is the installer's welcome: docsbot is there, and how to
// start.
func welcomeText(workspace string) string {
	where := "your workspace"
	if workspace != "" {
		where = "*" + mrkdwn.Escape(workspace) + "*"
	}
	return "👋 docsbot is now in " + where + ", added by you.\n" +
		"• Ask the docs anything with `/docs-ask`, or mention @docsbot in a channel it is in (invite it with `/invite @docsbot`).\n" +
		"• Editors start docs jobs with `/docs-agent`; `/docs-agent help` lists what it does.\n" +
		"• Open docsbot's *Home* tab to see what it serves here: as the one who added it, you may connect your docs there (*Settings* → *Connect docs*), with the API key of your docs dashboard."
}
