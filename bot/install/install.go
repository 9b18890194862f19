// Package install is install mode: docsbot installed by link ("Add to
// Slack") in any number of workspaces, each served with its own token.
//
//   - The install flow (flow.go): GET /slack/install sends the browser to
//     Slack's consent screen with a state bound to it (state.go);
//     GET /slack/oauth_redirect checks the state, exchanges the code once
//     (oauth.v2.access), saves the installation (store.Installations,
//     tokens sealed) and welcomes the installer in a direct message.
//   - The directory (directory.go): bot.Workspaces over the installations,
//     cached per replica, each workspace's client made with its own token
//     and refreshed before it runs out (refresh.go, the rotation's table).
//   - Uninstall and revocation (events.go): app_uninstalled and
//     tokens_revoked delete the workspace's tokens at once, on every replica.
//
// The lifecycle of an installation:
//
//	state        event                         action
//	none         install approved              save (tokens sealed); welcome DM
//	installed    install approved again        save the new tokens (data kept)
//	installed    token due for refresh         refresh under the turn (refresh.go)
//	installed    refresh token refused         broken: commands answered with the link
//	broken       install approved again        save: installed
//	any          app_uninstalled,              delete the record; every replica
//	             tokens_revoked (bot)          forgets it; pending work ends quietly
package install

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/store"
)

// Name is the feature's name (declare.Declaration.Name).
const Name = "install"

// The pages install mode serves beside Slack's request URLs.
const (
	PathInstall  = "/slack/install"
	PathRedirect = "/slack/oauth_redirect"
)

// workWelcome is the kind of the welcome DM's work.
const workWelcome = "install.welcome"

// Declaration is what install mode declares to Slack: the events that say
// a workspace removed docsbot (no scope needed).
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name: Name,
		Events: []declare.Event{
			{Name: string(slackevents.AppUninstalled), Why: "a workspace that removes docsbot is forgotten: its tokens deleted at once"},
			{Name: string(slackevents.TokensRevoked), Why: "revoked tokens are deleted at once"},
		},
	}
}

// Config is install mode's settings.
type Config struct {
	// ClientID and ClientSecret are the Slack app's (SLACK_CLIENT_ID,
	// SLACK_CLIENT_SECRET).
	ClientID, ClientSecret string
	// PublicURL is the https base Slack and browsers reach docsbot at
	// (DOCSBOT_PUBLIC_URL, no trailing slash): the redirect URL is
	// PublicURL + PathRedirect.
	PublicURL string
	// APIURL is Slack's Web API base (SLACK_API_URL, with its trailing
	// slash): the consent screen is on its host (oauth/v2/authorize).
	APIURL string
	// SecretsKeys are the secrets keys (DOCSBOT_SECRETS_KEY): the first
	// seals the tokens (store.Sealer) and the states are signed with a key
	// derived from it; every one opens.
	SecretsKeys [][]byte
	// Scopes are the bot scopes asked (the manifest's, from the
	// declarations).
	Scopes []string
	// Teams are the workspaces (T…) and organisations (E…) that may add
	// docsbot (DOCSBOT_TEAMS); none: any workspace with the link.
	Teams []string
	// HTTP makes the oauth.v2.access calls (default: 10 s timeout).
	HTTP *http.Client
	// Now is the clock of the states (default time.Now).
	Now func() time.Time
}

// Marks are the single-use marks of the states (store.Limits).
type Marks interface {
	Once(ctx context.Context, name string, keep time.Duration) (bool, error)
}

// Deps are what install mode runs on.
type Deps struct {
	Directory     *Directory
	Installations Installations // store.Installations
	Marks         Marks         // store.Limits
}

// Feature is install mode registered on a bot.
type Feature struct {
	core  *bot.Bot
	cfg   Config
	deps  Deps
	state stateSigner
}

// Register serves the install flow, hears uninstalls and keeps the
// directory's cache current (Directory.Run, in the background).
func Register(b *bot.Bot, cfg Config, d Deps) (*Feature, error) {
	switch {
	case cfg.ClientID == "" || cfg.ClientSecret == "":
		return nil, errors.New("install: the Slack app's client id and secret are needed")
	case cfg.PublicURL == "" || len(cfg.SecretsKeys) == 0:
		return nil, errors.New("install: the public URL and the secrets key are needed")
	case d.Directory == nil || d.Installations == nil || d.Marks == nil:
		return nil, errors.New("install: the directory, installations and marks are needed")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 10 * time.Second}
	}
	f := &Feature{core: b, cfg: cfg, deps: d, state: newStateSigner(cfg.SecretsKeys[0])}
	routes := b.Router()
	routes.Declare(Declaration())
	routes.HandlePage("GET "+PathInstall, http.HandlerFunc(f.serveInstall))
	routes.HandlePage("GET "+PathRedirect, http.HandlerFunc(f.serveRedirect))
	routes.HandleEvent(slackevents.AppUninstalled, f.onRemoved)
	routes.HandleEvent(slackevents.TokensRevoked, f.onRemoved)
	routes.HandleWork(workWelcome, bot.WorkHandler{Do: f.welcome})
	b.Background(d.Directory.Run)
	return f, nil
}

// welcomeWork is the welcome DM's work: the installer and where.
type welcomeWork struct {
	User     string `json:"user"`
	TeamName string `json:"team_name"`
}

// welcome tells the installer docsbot is there and what to do next.
func (f *Feature) welcome(ctx context.Context, w *bot.Work) error {
	var ww welcomeWork
	if err := json.Unmarshal(w.Payload, &ww); err != nil {
		return fmt.Errorf("install: welcome: %w", err)
	}
	_, _, err := f.core.SlackIn(ctx).PostMessageContext(ctx, ww.User, slack.MsgOptionText(welcomeText(ww.TeamName), false))
	if err != nil && bot.TransientSlack(err) {
		return bot.Later(time.Minute, err)
	}
	if err != nil {
		return fmt.Errorf("install: welcome: %w", err)
	}
	return nil
}

// queueWelcome records the welcome DM of in as work of its workspace.
func (f *Feature) queueWelcome(ctx context.Context, in store.Installation, ws store.Workspace) error {
	payload, err := json.Marshal(welcomeWork{User: in.InstalledBy, TeamName: cmp.Or(in.TeamName, in.EnterpriseName)})
	if err != nil {
		return err
	}
	_, err = f.core.QueueFromWork(bot.WithWorkspace(ctx, ws), store.Work{Key: "install:" + in.ID() + ":" + in.Version, Kind: workWelcome, Payload: payload})
	return err
}
