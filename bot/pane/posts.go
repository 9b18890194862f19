package pane

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// maxTitle is the longest thread title docsbot sets, in runes.
const maxTitle = 60

// How many deployments "Deploy status" lists, of how many of the latest
// it looks through for those the person may see.
const (
	deploysShown  = 5
	deploysLooked = 50
)

// panePost is a person's reply in a thread of their direct message with
// the bot: in Slack's pane, every thread is one. Its JSON (no tags) is what
// earlier versions recorded in assistant.prompt and assistant.title work.
type panePost struct {
	Team, Channel, User string
	// TS is the reply, ThreadTS the thread's first message.
	TS, ThreadTS string
	// Text is the reply as typed, Slack's markup undone.
	Text string
	// Key is the inbox work key of the reply.
	Key string
}

// postRequest is a pane post through the inbox (assistant.prompt and
// assistant.title work).
type postRequest struct {
	Post panePost `json:"post"`
	// Prompt is the prompt's base, Project the project it names.
	Prompt  string `json:"prompt,omitempty"`
	Project string `json:"project,omitempty"`
}

// ownerPane is the pane's row of the core's table of posts (bot/posts.go):
// it hears replies with text in a thread of a DM, claims the prompts it
// answers itself, and names the project of the rest.
const ownerPane = "pane"

// ownPosts registers the pane's row of the table of posts.
func (p *pane) ownPosts(routes bot.Router) {
	routes.OwnPosts(bot.PostOwner{Name: ownerPane, Order: bot.OrderPane, Hears: hearsPaneReply, Claims: p.claims, Do: p.doOwned})
}

func hearsPaneReply(_ context.Context, post bot.Post) bool {
	return post.DM && post.InThread() && post.Text != ""
}

// claims queues the thread's title (once per thread, keyed by the post's
// work: the first question titles it, and a prompt the pane answers; not
// one that asks for what comes next, titled by it) and claims one of the
// pane's prompts; anything else goes on as a question or a job, to the
// project the channel looked at beside the thread defaults to
// (postProject), named on post for the owners after.
func (p *pane) claims(ctx context.Context, w *bot.Work, post *bot.Post) (bool, error) {
	pp := panePostOf(w, *post)
	base, _, isPrompt := promptOf(post.Text)
	if base != promptJob && base != promptAsk {
		if err := p.queuePost(ctx, workTitle, pp, ""); err != nil {
			return false, err
		}
	}
	if isPrompt {
		return true, nil
	}
	proj, err := p.postProject(ctx, pp)
	post.Project = proj
	return false, err
}

// doOwned queues a prompt claimed as assistant.prompt work, answered in the
// thread for the project it names, else the one the channel looked at
// beside the thread defaults to (postProject).
func (p *pane) doOwned(ctx context.Context, w *bot.Work, post bot.Post) error {
	pp := panePostOf(w, post)
	name := ""
	if _, named, _ := promptOf(post.Text); named == "" {
		var err error
		if name, err = p.postProject(ctx, pp); err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
	}
	if err := p.queuePost(ctx, workPrompt, pp, name); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return nil
}

// queuePost queues post's work of kind, keyed by the post's work, for the
// project its prompt names, else projectName.
func (p *pane) queuePost(ctx context.Context, kind string, post panePost, projectName string) error {
	base, name, _ := promptOf(post.Text)
	if name == "" {
		name = projectName
	}
	payload, _ := json.Marshal(postRequest{Post: post, Prompt: base, Project: name})
	if _, err := p.core.QueueFromWork(ctx, store.Work{Key: kind + ":" + post.Key, Kind: kind, Payload: payload}); err != nil {
		return fmt.Errorf("queueing the pane's %s: %w", kind, err)
	}
	return nil
}

// panePostOf is the post of w as the pane's work carries it.
func panePostOf(w *bot.Work, post bot.Post) panePost {
	return panePost{Team: post.Team, Channel: post.Channel, User: post.User, TS: post.TS, ThreadTS: post.ThreadTS, Text: post.Text, Key: w.Key}
}

// postProject is the project of a question or job typed in the pane's
// thread: the default of the channel the person looks at beside it
// (bot.Projects().Resolve with that channel), "" when the post names one
// (project=NAME, decided downstream), no channel is known (the pane's
// event may not have been handled yet: the post is then a DM's) or that
// channel has no default.
func (p *pane) postProject(ctx context.Context, post panePost) (string, error) {
	if p.core.ProjectsIn(ctx).Implicit() {
		return "", nil
	}
	looked, err := p.contexts.PaneContext(ctx, post.Team, post.Channel, post.ThreadTS)
	if err != nil || looked == "" {
		return "", err
	}
	res, err := p.core.ProjectsIn(ctx).Resolve(ctx, project.Request{Team: post.Team, Channel: looked, User: post.User, Text: post.Text})
	if err != nil || res.Source != project.ByChannel {
		// A project named wrongly is told downstream, where it is decided.
		return "", nil
	}
	return res.Project.Name, nil
}

// errTitled: the thread was titled from an earlier question.
var errTitled = errors.New("the pane's thread is titled already")

// doTitle titles the thread from its first post, once (a mark kept
// titleKeep): Slack shows it in the pane's history.
func (p *pane) doTitle(ctx context.Context, w *bot.Work) error {
	var req postRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding the pane's post: %w", err)
	}
	post := req.Post
	log := p.core.Logger().With("feature", Name, "user", post.User, "channel", post.Channel, "thread", post.ThreadTS, "work", w.Key)
	title := titleOf(post.Text)
	if title == "" {
		return nil
	}
	// Once per thread across its posts (a mark kept titleKeep), then once
	// across this work's attempts.
	_, err := w.Step(ctx, "titling", func(ctx context.Context) (string, error) {
		first, err := p.marks.Once(ctx, "assistant-title:"+post.Team+":"+post.Channel+":"+post.ThreadTS, titleKeep)
		if err == nil && !first {
			err = errTitled
		}
		return "", err
	})
	switch {
	case errors.Is(err, errTitled):
		return nil
	case err != nil:
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	err = p.core.SlackIn(ctx).SetAssistantThreadsTitleContext(ctx, slack.AssistantThreadsSetTitleParameters{
		ChannelID: post.Channel, ThreadTS: post.ThreadTS, Title: title})
	switch {
	case err == nil:
		log.Info("pane thread titled")
	case bot.TransientSlack(err):
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	default:
		log.Warn("Slack refused the thread's title; it keeps Slack's", "err", err)
	}
	return nil
}

// titleOf is a thread's title made of its first post: one line, the
// project word dropped, cut at maxTitle runes on a word, escaped (Slack's
// &, < and >: it pings nobody, links nowhere).
func titleOf(text string) string {
	t := strings.Join(strings.Fields(text), " ")
	if i := strings.LastIndex(t, " project="); i >= 0 && !strings.Contains(t[i+1:], " ") {
		t = t[:i]
	}
	if utf8.RuneCountInString(t) <= maxTitle {
		return mrkdwn.Escape(t)
	}
	r := []rune(t)[:maxTitle-1]
	cut := string(r)
	if i := strings.LastIndex(cut, " "); i > maxTitle/2 {
		cut = cut[:i]
	}
	return mrkdwn.Escape(cut) + "…"
}

// doPrompt answers a prompt the pane took, in its thread: the docs
// health, the deployments, or how to ask or start a job there. It posts
// once: a mark after the post keeps a retry from posting again.
func (p *pane) doPrompt(ctx context.Context, w *bot.Work) error {
	var req postRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding the pane's prompt: %w", err)
	}
	post := req.Post
	log := p.core.Logger().With("feature", Name, "user", post.User, "channel", post.Channel, "thread", post.ThreadTS, "prompt", req.Prompt, "work", w.Key)
	if w.Marked("posted") != "" {
		return nil
	}
	if refusal := p.core.Refusal(post.User, post.Channel); refusal != "" {
		return p.say(ctx, w, post, refusal, log)
	}
	p.core.Decorations().SetThreadStatus(ctx, post.Channel, post.ThreadTS, promptStatus[req.Prompt], log)
	key, known := p.projectKey(req.Project)
	if !known {
		return p.say(ctx, w, post, project.Problem(&project.UnknownError{Name: req.Project}, p.core.ProjectsIn(ctx), "prompt"), log)
	}
	var text string
	switch req.Prompt {
	case promptAsk:
		text = "Ask your question here, ending it with a question mark: docsbot answers from the docs" + onProject(req.Project) +
			", in this thread, with the pages it comes from."
	case promptJob:
		refusal, notNow := p.core.Editors().Check(ctx, post.User, post.Channel, key)
		switch {
		case notNow:
			return bot.Later(bot.RetryDelay(w.Attempt), errors.New("cannot tell yet whether the person edits the docs"))
		case refusal != "":
			text = refusal
		default:
			text = "Say in this thread what to change in the docs" + onProject(req.Project) +
				" (not as a question): docsbot starts the docs agent on it and follows the job here, up to its pull request."
		}
	case promptHealth:
		var err error
		if text, err = p.healthText(ctx, post, key, req.Project); err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
	case promptDeploy:
		if p.deploys == nil {
			text = "This docsbot does not deploy the docs, so it has no deployments to show."
			break
		}
		var err error
		if text, err = p.deploysText(ctx, post, key); err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
	}
	return p.say(ctx, w, post, text, log)
}

// promptStatus is the pane's status line while a prompt is answered (the
// answer posted clears it).
var promptStatus = map[string]string{
	promptAsk: "is getting ready…", promptJob: "is checking who may start jobs…",
	promptHealth: "is reading the docs health…", promptDeploy: "is looking at the deployments…",
}

// projectKey is the key of the project a prompt names: "" (none named,
// or the implicit one) when it names none; false when it names one no
// longer served.
func (p *pane) projectKey(name string) (string, bool) {
	if name == "" {
		return "", true
	}
	proj, ok := p.core.Projects().Get(name)
	if !ok {
		return "", false
	}
	return bot.ProjectKey(proj), true
}

// onProject is " of `NAME`" for a named project, "" for none.
func onProject(name string) string {
	if name == "" {
		return ""
	}
	return " of `" + mrkdwn.Escape(name) + "`"
}

// healthProject is the project whose docs health the pane shows: the one
// keyed key, named name; with a projects file and none named, the
// workspace's first (none when it has none).
func (p *pane) healthProject(ctx context.Context, key, name string) (string, string) {
	if set := p.core.ProjectsIn(ctx); key == "" && !set.Implicit() {
		if all := set.All(); len(all) > 0 {
			return bot.ProjectKey(all[0]), all[0].Name
		}
	}
	return key, name
}

// healthText is the docs health of the last healthDays days of the
// project (healthProject): cached, else read on the person's share of the
// analytics budget (Health.HealthFor), or why it cannot be now. The
// readers' words only for a member of the organisation (bot.Sight). Its
// error is the store's.
func (p *pane) healthText(ctx context.Context, post panePost, key, name string) (string, error) {
	if p.health == nil {
		return "This docsbot does not read the docs health.", nil
	}
	key, name = p.healthProject(ctx, key, name)
	sight := p.core.Sight(ctx, post.User, "")
	text, ok, err := p.health.HealthFor(ctx, key, healthDays, sight.Spender(post.Team, post.User), sight.Words)
	switch {
	case err != nil:
		return "", fmt.Errorf("reading the docs health: %w", err)
	case !ok:
		return "docsbot cannot read this week's docs health" + onProject(name) + " just now. " + text, nil
	}
	text = "*What readers struggled with" + onProject(name) + " in the last " + strconv.Itoa(healthDays) + " days:*\n" + text
	if !sight.Words {
		text += "\n" + sight.Why
	}
	return text, nil
}

// deploysText lists the latest deployments and previews started from
// Slack that the person may see: in channels they are in, and their own;
// of the project named, when one is.
func (p *pane) deploysText(ctx context.Context, post panePost, key string) (string, error) {
	all, err := p.deploys.RecentDeploys(ctx, post.Team, deploysLooked)
	if err != nil {
		return "", err
	}
	in, err := bot.ChannelsOf(ctx, p.core.SlackIn(ctx), post.User)
	note := ""
	if err != nil {
		note = "\n_docsbot could not read which channels you are in just now, so only the deployments you started are listed._"
	}
	var lines []string
	for _, r := range all {
		if len(lines) == deploysShown {
			break
		}
		if (r.User != post.User && !in[r.Channel]) || (key != "" && r.Project != key) {
			continue
		}
		kind := "Deployment"
		if r.Preview {
			kind = "Preview of `" + mrkdwn.Escape(r.Branch) + "`"
		}
		lines = append(lines, "• "+kind+onProject(r.Project)+" by "+mrkdwn.Mention(r.User)+", "+
			humanize.Ago(p.now().Sub(r.Started))+": "+strings.ReplaceAll(r.State, "_", " "))
	}
	if len(lines) == 0 {
		return "No deployment or preview was started from Slack lately in the channels you are in. `/docs-deploy` deploys the docs." + note, nil
	}
	return "*The latest deployments and previews started from Slack:*\n" + strings.Join(lines, "\n") + note, nil
}

// say posts text in the post's thread and marks it posted (a retry after
// a post whose mark was lost may post again: a second copy, never none).
func (p *pane) say(ctx context.Context, w *bot.Work, post panePost, text string, log *slog.Logger) error {
	_, err := w.Step(ctx, "posted", func(ctx context.Context) (string, error) {
		_, err := p.core.Post(ctx, post.Channel, bot.Plain{slack.MsgOptionText(text, false), slack.MsgOptionTS(post.ThreadTS)})
		return "", err
	})
	switch {
	case err == nil:
	case errors.Is(err, bot.ErrUnmarked):
		log.Warn("answered the prompt, but could not mark it", "err", err)
	case bot.TransientSlack(err):
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	default:
		log.Warn("cannot answer the prompt in the pane", "err", err)
	}
	return nil
}

// gaveUp tells the person, in the pane's thread, that a prompt (or a Stop)
// could not be answered: Slack or docsbot's storage did not answer for too
// long. A best effort: Slack may still be down.
func (p *pane) gaveUp(ctx context.Context, w *bot.Work) {
	var where struct {
		Post     panePost `json:"post"`
		Channel  string   `json:"channel"`
		ThreadTS string   `json:"thread_ts"`
	}
	if json.Unmarshal(w.Payload, &where) != nil {
		return
	}
	channel, thread := where.Post.Channel, where.Post.ThreadTS
	if channel == "" {
		channel, thread = where.Channel, where.ThreadTS
	}
	if channel == "" || thread == "" {
		return
	}
	if _, err := p.core.Post(ctx, channel, bot.Plain{slack.MsgOptionTS(thread),
		slack.MsgOptionText("docsbot could not answer this: Slack or its storage did not answer for too long. Try again in a minute.", false)}); err != nil {
		p.core.Logger().Warn("telling the person a prompt was given up failed", "feature", Name, "err", err)
	}
}
