package agent

import (
	"strings"

	"github.com/docsbot/docsbot/bot/project"
)

// agentHelp is the usage text of /docs-agent (and of a mention that asks
// for help): every way to start, follow and list jobs, and, when the bot
// serves several docs projects, how a job's project is chosen.
func agentHelp(set *project.Set, answers bool) string {
	lines := []string{
		"*The docs agent* writes and fixes documentation on an instruction and opens a pull request. Ways in:",
		"• `" + Command + " <instruction>`: I post the job in this channel; its thread is the job's conversation.",
		"• `" + Command + "` alone: a form for a longer instruction.",
		"• `@docsbot <instruction>` in a channel: the job runs in the thread under your message. In a thread that is not a job's, `@docsbot document this` passes the thread's messages to the agent as context.",
		"• A direct message to me starts a job in its thread.",
		"• *Send to docs agent* in a message's ⋮ menu: a form with that message quoted; the job runs in its thread.",
		"• *Improve this page* on a `/docs-visitors` summary: a form about that page.",
		"",
		"Reply in a job's thread (with or without `@docsbot`) to send the agent a follow-up. When it finishes I post the result, with the pull request link, in the thread.",
		"`" + Command + " list` (or `@docsbot list`) shows your recent jobs and the ones running here; `" + Command + " status <job id>` (or `@docsbot status <job id>`) shows one.",
		"",
		"Invite me first in private channels: `/invite @docsbot`.",
	}
	if answers {
		lines = append(lines, "",
			"*Questions.* A mention or a DM that starts with `ask` or ends with `?` is a question, answered from the docs in its thread; "+
				"from someone who may not start jobs, every message is. `/docs-ask help` says more.")
	}
	if !set.Implicit() {
		lines = append(lines, "",
			"*Docs projects.* "+project.Hint(set, "instruction")+" Otherwise a job goes to the channel's project, then to the one you chose last; "+
				"when none applies I ask with buttons. `"+Command+" project=NAME list` lists that project's jobs.")
	}
	return strings.Join(lines, "\n")
}
