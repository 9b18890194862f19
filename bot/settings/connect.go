package settings

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// The inputs of the Connect docs modal, by block id; each has one element,
// actionValue.
const (
	blockAPIKey       = "api_key"
	blockProjectID    = "project_id"
	blockAssistantKey = "assistant_key"
	blockDomain       = "domain"
	blockSiteURL      = "site_url"
	actionValue       = "value"
)

// notConnectable is the answer where docs cannot be connected from Slack.
const notConnectable = "Docs can be connected from Slack once whoever runs docsbot sets `DOCSBOT_SECRETS_KEY` " +
	"(`openssl rand -base64 32`), which seals the keys docsbot keeps."

// onConnect opens the Connect docs modal for an admin; anyone else is
// told why not, in a modal (the Home has no place for a private message).
func (s *settings) onConnect(ctx context.Context, r *bot.InteractionRequest) {
	if !s.core.ConnectsInSlack() {
		r.Ack(nil)
		s.show(ctx, r.Interaction, noticeModal(notConnectable), "Connect docs")
		return
	}
	s.open(ctx, r, "Connect docs", func(_ context.Context, team string) slack.ModalViewRequest { return s.connectModal(team) })
}

// connectModal is the Connect docs modal of team.
func (s *settings) connectModal(team string) slack.ModalViewRequest {
	field := func(block, label, placeholder, hint string, optional bool) *slack.InputBlock {
		b := textInput(block, label, hint, "", optional)
		b.Element.(*slack.PlainTextInputBlockElement).Placeholder = plain(placeholder)
		return b
	}
	return modal(ViewConnect, "Connect docs", "Connect", team,
		slack.NewSectionBlock(text("Connect a docs project to docsbot in this workspace. The keys are on the *API keys* page of the docs dashboard; "+
			"docsbot checks the API key with the docs platform before it saves anything, keeps the keys sealed and never shows them again."), nil, nil),
		field(blockAPIKey, "API key", "mint_…", "The project's admin API key; it starts docs agent jobs and reads analytics.", false),
		field(blockProjectID, "Project ID", "64f0c0ffee…", "", false),
		field(blockAssistantKey, "Assistant key", "mint_dsc_…", "Optional: the docs site's assistant key, for answers from the docs.", true),
		field(blockDomain, "Docs domain", "acme", "With an assistant key: the last part of the dashboard's URL, app.mintlify.com/ORG/DOMAIN.", true),
		field(blockSiteURL, "Docs site URL", "https://docs.example.com", "Optional: the public docs site, which answers link to.", true),
	)
}

// connectForm is what the modal's submission says.
type connectForm struct {
	apiKey, projectID, assistantKey, domain, siteURL string
}

func connectFormOf(f form) connectForm {
	return connectForm{apiKey: f.text(blockAPIKey), projectID: f.text(blockProjectID), assistantKey: f.text(blockAssistantKey),
		domain: f.text(blockDomain), siteURL: f.text(blockSiteURL)}
}

// onConnectSubmitted checks a Connect docs submission and saves the
// project (the table in settings.go), all in the ack.
func (s *settings) onConnectSubmitted(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	if !s.core.ConnectsInSlack() {
		fail(r, blockAPIKey, notConnectable)
		return
	}
	team, user, ok := s.admitted(ctx, r, blockAPIKey, "connect docs")
	if !ok {
		return
	}
	f := connectFormOf(formOf(ic))
	if block, msg := f.problem(); msg != "" {
		fail(r, block, msg)
		return
	}
	name, block, msg := s.nameFor(ctx, f)
	if msg != "" {
		fail(r, block, msg)
		return
	}
	conn := store.Connection{Team: team, Name: name, ProjectID: f.projectID, APIKey: f.apiKey, AssistantKey: f.assistantKey,
		Domain: f.domain, SiteURL: f.siteURL, By: user, At: s.cfg.Now()}
	if block, msg := s.check(ctx, conn, user); msg != "" {
		fail(r, block, msg)
		return
	}
	if err := s.store.Connections.Save(ctx, conn); err != nil {
		s.log.Error("a docs project connected from Slack could not be saved", "team", team, "project", name, "err", err)
		fail(r, blockAPIKey, storageTrouble)
		return
	}
	key := "connect:" + name + ":" + conn.At.Format("20060102T150405.000")
	s.audit(ctx, team, user, key, fmt.Sprintf("connected the docs project `%s` (project id %s, API key %s%s)", name, f.projectID, store.KeyHint(f.apiKey), assistantNote(f)))
	s.core.ConnectedChanged(team)
	s.tellAround(ctx, toldRequest{Team: team, User: user, Key: key,
		Confirm: "✅ The docs project *" + mrkdwn.Escape(name) + "* (`" + mrkdwn.Escape(mrkdwn.Cut(f.projectID, 100)) + "`) is connected: " +
			"people here can now start docs agent jobs" + answersNote(f) + ". Its keys are sealed; docsbot shows only `" + store.KeyHint(f.apiKey) + "`."},
		func() { r.Ack(nil) })
}

// assistantNote is the audit's note of an assistant key.
func assistantNote(f connectForm) string {
	if f.assistantKey == "" {
		return ""
	}
	return ", assistant key " + store.KeyHint(f.assistantKey) + " for " + f.domain
}

// answersNote is what the confirmation says of answers.
func answersNote(f connectForm) string {
	if f.assistantKey == "" {
		return " (add an assistant key to answer questions from the docs)"
	}
	return " and ask the docs with `/docs-ask`"
}

// problem is the first input whose value cannot be right, and why.
func (f connectForm) problem() (block, msg string) {
	switch {
	case strings.HasPrefix(f.apiKey, "mint_dsc_"):
		return blockAPIKey, "This is an assistant key (mint_dsc_…). The API key is the project's admin key, mint_… without dsc."
	case !strings.HasPrefix(f.apiKey, "mint_") || strings.ContainsAny(f.apiKey, " \t\n"):
		return blockAPIKey, "Paste the project's API key: it starts with mint_ (API keys page of the docs dashboard)."
	case !project.ValidID(f.projectID):
		return blockProjectID, "A project id has letters, digits, ., - and _ only (API keys page of the docs dashboard)."
	case f.assistantKey != "" && !strings.HasPrefix(f.assistantKey, "mint_dsc_"):
		return blockAssistantKey, "The assistant key starts with mint_dsc_ (API keys page of the docs dashboard)."
	case f.assistantKey != "" && f.domain == "":
		return blockDomain, "With an assistant key, give the docs domain: the last part of the dashboard's URL, app.mintlify.com/ORG/DOMAIN."
	case f.domain != "" && !project.ValidDomain(f.domain):
		return blockDomain, "Give the docs domain alone, such as acme: the last part of the dashboard's URL app.mintlify.com/ORG/DOMAIN, not a URL or a key."
	case f.domain != "" && f.assistantKey == "":
		return blockAssistantKey, "With a docs domain, give the assistant key too (mint_dsc_…), or leave the domain empty."
	case f.siteURL != "" && !project.SecureURL(f.siteURL):
		return blockSiteURL, "Give the docs site's address, starting with https://."
	}
	return "", ""
}

// nameFor is the name of the project f connects: its docs domain, else
// "docs", made a valid project name; an error on an input when a project
// of that name is served here already.
func (s *settings) nameFor(ctx context.Context, f connectForm) (name, block, msg string) {
	name = project.NameFrom(cmp.Or(f.domain, "docs"))
	if p, ok := s.core.ProjectsIn(ctx).Get(name); ok {
		if p.ID == f.projectID {
			return "", blockProjectID, "This project is connected already, as `" + name + "`. Disconnect it first to change its keys."
		}
		block := blockProjectID
		if f.domain != "" {
			block = blockDomain
		}
		return "", block, "docsbot serves a project named `" + name + "` here already; connect this one with its own docs domain."
	}
	return name, "", ""
}

// check calls the docs API once with the key (docsapi.Client.Check) on
// the person's share of the analytics budget; "" when the key and project
// are good, else the input at fault and why.
func (s *settings) check(ctx context.Context, conn store.Connection, user string) (block, msg string) {
	p := project.Project{Name: conn.Name, ID: conn.ProjectID, APIKey: project.NewSecret(conn.APIKey),
		VisitorsBudget: conn.Name + "@" + conn.Team, Workspace: conn.Team}
	api, _, err := s.core.BuildProjectClients(p)
	if err != nil {
		return blockProjectID, "docsbot cannot use this project id and key: " + mrkdwn.Escape(err.Error())
	}
	limits := s.core.Analytics()
	spender := s.core.Sight(ctx, user, "").Spender(conn.Team, user)
	g, err := s.store.Limits.Draw(ctx, limits.Draw(p, spender), 1)
	switch {
	case err != nil:
		s.log.Warn("the analytics budget cannot be read; the key is not checked now", "err", err)
		return blockAPIKey, storageTrouble
	case len(g.Tokens) == 0:
		return blockAPIKey, "Checking the key takes one analytics request, and none is left now. " + limits.Refusal(spender, g, 1, s.cfg.Now())
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.CheckWait)
	defer cancel()
	err = api.Check(cctx, s.cfg.Now())
	switch {
	case err == nil:
		return "", ""
	case errors.Is(err, docsapi.ErrUnauthorized):
		return blockAPIKey, "The docs platform refused this key. Check that it is the project's API key and that it was not revoked."
	case errors.Is(err, docsapi.ErrNotFound):
		return blockProjectID, "The docs platform knows no project with this id for this key."
	case errors.Is(err, docsapi.ErrRateLimited):
		return blockAPIKey, "The docs platform asks docsbot to slow down; nothing was saved. Try again in a minute."
	}
	s.log.Warn("a key could not be checked with the docs platform", "err", err)
	return blockAPIKey, "docsbot could not reach the docs platform to check the key in time; nothing was saved. Try again in a minute."
}

// plain and text are Block Kit text objects.
func plain(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
}

func text(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, s, false, false)
}

// noticeModal is a modal that says text and can only be closed.
func noticeModal(s string) slack.ModalViewRequest {
	return slack.ModalViewRequest{Type: slack.VTModal, Title: plain("docsbot"), Close: plain("Close"),
		Blocks: slack.Blocks{BlockSet: []slack.Block{slack.NewSectionBlock(text(s), nil, nil)}}}
}
