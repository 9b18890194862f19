package deploy

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/secret"
)

// Bounds of what a deployment's message shows.
const (
	filesShown = 5  // file names named per kind of change
	logLines   = 15 // last lines of a failed deployment's logs
	logChars   = 2500
)

// what names the deployment of req in project key: "the docs of `api`" or
// "a preview of `branch` of the docs of `api`".
func what(req request, key string) string {
	proj := "the docs"
	if key != "" {
		proj = "the docs of `" + mrkdwn.Escape(key) + "`"
	}
	if req.Preview {
		return "a preview of `" + mrkdwn.Escape(req.Branch) + "` of " + proj
	}
	return proj
}

// startingView is the live message before the API answered.
func startingView(req request, key string) string {
	return ":hourglass_flowing_sand: " + mrkdwn.Mention(req.User) + " is deploying " + what(req, key) + "…"
}

// uncertainView says docsbot cannot tell whether the deployment started.
func uncertainView(req request, key string) string {
	return ":grey_question: docsbot cannot tell whether " + what(req, key) + " started: the docs platform did not answer in time, " +
		"and docsbot does not ask twice. `" + Command + " status` shows what docsbot knows; the dashboard shows the deployments."
}

// refusedView is the message of a deployment the API refused.
func refusedView(req request, key string, err error) string {
	var api *docsapi.APIError
	why := "the docs platform refused it"
	switch {
	case errors.Is(err, docsapi.ErrPreviewsNotAllowed):
		// A 403: the plan has no previews, or the key lacks the write scope
		// or is used from outside its allowed addresses; the API does not
		// say which.
		why = "the docs platform refused previews for this project (its plan may have none, or the API key may not be allowed to build them)"
	case errors.Is(err, docsapi.ErrRateLimited):
		wait := time.Duration(0)
		if errors.As(err, &api) {
			wait = api.RetryAfter
		}
		why = "the docs platform is taking no more deployments right now; try again " + humanize.In(wait, time.Now())
	case errors.Is(err, docsapi.ErrInvalidRequest):
		why = "the docs platform refused the request (" + mrkdwn.Escape(mrkdwn.Cut(secret.Redact(oneLine(err)), 200)) + ")"
	case errors.As(err, &api):
		why = fmt.Sprintf("the docs platform answered %d", api.StatusCode)
	}
	return ":x: " + mrkdwn.Mention(req.User) + " asked to deploy " + what(req, key) + ", but " + why + ". Nothing was deployed."
}

// oneLine is err's message on one line.
func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// statusView is the live message of a deployment as the API last showed it;
// a failure's logs are left out when they went to the person privately,
// because the channel is read by others than members of the organisation
// (room, what bot.Sight.Room says of the channel; "" to show them).
func statusView(f follow, st *docsapi.DeployStatus, now time.Time, site, room string) string {
	head := mrkdwn.Mention(f.User) + " deployed " + what(f.request, f.Key)
	switch st.Status {
	case docsapi.DeployQueued:
		return ":hourglass_flowing_sand: " + head + ": queued."
	case docsapi.DeployInProgress:
		since := st.CreatedAt
		if since.IsZero() {
			since = f.Started
		}
		return ":hammer_and_wrench: " + head + ": in progress for " + humanize.Duration(now.Sub(since)) + "."
	case docsapi.DeploySuccess:
		return ":white_check_mark: " + head + ": done." + previewLine(f) + commitLines(st) + siteLine(site)
	case docsapi.DeployFailure:
		logs := logsBlock(st.Logs)
		if room != "" {
			logs = "\nThis channel " + room + ", so the logs were sent to " + mrkdwn.Mention(f.User) + " privately."
		}
		return ":x: " + head + ": it failed." + commitLines(st) + logs +
			"\nSee the deployment in the docs dashboard, fix what the logs say, then `" + Command + "` again."
	}
	return ":grey_question: " + head + ": the docs platform says `" + mrkdwn.Escape(mrkdwn.Cut(string(st.Status), 40)) + "`."
}

// privateLogsView is what the person who deployed is told of a failure
// whose logs stay out of the channel, which room says (bot.Sight.Room).
func privateLogsView(f follow, st *docsapi.DeployStatus, room string) string {
	return ":x: Your deployment of " + what(f.request, f.Key) + " failed." + commitLines(st) + logsBlock(st.Logs) +
		"\nThe channel's message shows no logs: the channel " + room + "."
}

// previewLine is a preview's address.
func previewLine(f follow) string {
	if !f.Preview || !mrkdwn.WebURL(f.PreviewURL) {
		return ""
	}
	return "\nPreview: " + mrkdwn.Link(f.PreviewURL, f.PreviewURL)
}

// commitLines are the commit deployed and the files it changed.
func commitLines(st *docsapi.DeployStatus) string {
	c := st.Commit
	var b strings.Builder
	if c.SHA != "" || c.Message != "" {
		b.WriteString("\n" + mrkdwn.Quote(mrkdwn.Cut(secret.Redact(firstLine(c.Message)), 150))) // "&gt; ": a quote, not a literal ">"
		if c.SHA != "" {
			b.WriteString(" (`" + mrkdwn.Escape(mrkdwn.Cut(c.SHA, 7)) + "`")
			if c.Ref != "" {
				b.WriteString(" on `" + mrkdwn.Escape(c.Ref) + "`")
			}
			b.WriteString(")")
		}
	}
	var parts []string
	for _, k := range []struct {
		n     string
		files []string
	}{{"added", c.FilesChanged.Added}, {"modified", c.FilesChanged.Modified}, {"removed", c.FilesChanged.Removed}} {
		if len(k.files) == 0 {
			continue
		}
		names := make([]string, 0, filesShown)
		for _, f := range k.files[:min(len(k.files), filesShown)] {
			names = append(names, "`"+mrkdwn.Escape(mrkdwn.Cut(f, 80))+"`")
		}
		more := ""
		if len(k.files) > filesShown {
			more = fmt.Sprintf(" and %d more", len(k.files)-filesShown)
		}
		parts = append(parts, fmt.Sprintf("%d %s: %s%s", len(k.files), k.n, strings.Join(names, ", "), more))
	}
	if len(parts) > 0 {
		b.WriteString("\n" + strings.Join(parts, "; "))
	}
	if s := strings.TrimSpace(secret.Redact(st.Summary)); s != "" {
		b.WriteString("\n" + mrkdwn.Escape(mrkdwn.Cut(s, 300)))
	}
	return b.String()
}

// siteLine links the docs site.
func siteLine(site string) string {
	if !mrkdwn.WebURL(site) {
		return ""
	}
	return "\n" + mrkdwn.Link(site, "Open the docs site")
}

// logsBlock is the last lines of a failed deployment's logs, taken out of
// keys and tokens, escaped, in a code block, capped. The whole logs are
// redacted before their end is cut, so that a private key whose BEGIN line
// falls before the end is still taken out whole.
func logsBlock(logs []string) string {
	if len(logs) == 0 {
		return "\nThe docs platform gave no logs."
	}
	lines := strings.Split(secret.Redact(strings.Join(logs, "\n")), "\n")
	tail := lines[max(len(lines)-logLines, 0):]
	text := strings.ReplaceAll(strings.Join(tail, "\n"), "```", "ˋˋˋ")
	if len(text) > logChars {
		text = "…" + text[len(text)-logChars:]
	}
	return "\nThe end of the logs:\n```\n" + mrkdwn.Escape(text) + "\n```"
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
