package app

import (
	"fmt"

	"github.com/docsbot/docsbot/bot/install"
	"github.com/docsbot/docsbot/store"
)

// directory is install mode's directory of the workspaces that installed
// docsbot: the installations in Redis, their tokens sealed with the secrets
// keys.
func directory(cfg Config, d Deps) (*install.Directory, error) {
	sealer, err := store.NewSealer(cfg.Install.SecretsKeys...)
	if err != nil {
		return nil, fmt.Errorf("app: install mode: %w", err)
	}
	return install.NewDirectory(install.DirectoryConfig{
		ClientID: cfg.Install.ClientID, ClientSecret: cfg.Install.ClientSecret,
		SlackOptions: d.SlackOptions, APIURL: cfg.Install.APIURL, HTTP: cfg.Install.HTTP, InstallURL: cfg.Install.PublicURL + install.PathInstall, Teams: cfg.Install.Teams,
		Now: cfg.Now, Logger: cfg.Bot.Logger,
	}, d.Store.Installations(sealer)), nil
}

// install serves the install flow and the uninstalls, the scopes asked
// being the manifest's.
func (r *replica) install(dir *install.Directory) error {
	cfg := r.cfg.Install
	cfg.Now = r.clock(cfg.Now)
	if len(cfg.Scopes) == 0 {
		cfg.Scopes = Declarations().ScopeNames()
	}
	sealer, err := store.NewSealer(cfg.SecretsKeys...)
	if err != nil {
		return fmt.Errorf("app: install mode: %w", err)
	}
	_, err = install.Register(r.b, cfg, install.Deps{Directory: dir, Installations: r.store.Installations(sealer), Marks: r.store.Limits()})
	return err
}
