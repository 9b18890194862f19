// Package config is docsbot's settings: their table (settings.Table: the
// variables, flags, defaults and checks; the README and deploy/.env.example
// follow it) and what they resolve to: how a command reaches the docs API
// (API, for today's settings or a project of DOCSBOT_PROJECTS_FILE) and
// everything `docsbot serve` runs with (Serve). Problems name the variable,
// never show a secret, and are cli errors. cmd/docsbot parses the arguments
// and calls it.
package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/settings"
)

// Env is where the settings are looked up besides the flags: the
// environment and the .env file of a directory. Warnings go to Stderr.
type Env struct {
	LookupEnv func(string) (string, bool)
	Dir       string
	Stderr    io.Writer
}

// Source reads the .env file and returns the settings' source for flags:
// flags, then the environment, then the .env file, then the defaults.
func (e Env) Source(flags settings.Values) (settings.Source, error) {
	env, err := e.dotenv()
	if err != nil {
		return settings.Source{}, err
	}
	return settings.Source{Table: Table(), Flags: flags, LookupEnv: e.LookupEnv, Dotenv: env, DotenvPath: e.DotenvPath()}, nil
}

// DotenvPath is the .env file read.
func (e Env) DotenvPath() string { return filepath.Join(e.Dir, ".env") }

// dotenv reads the .env file of the working directory (settings.ReadDotenv).
func (e Env) dotenv() (map[string]string, error) {
	path := e.DotenvPath()
	env, err := settings.ReadDotenv(path)
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return nil, &cli.Error{Code: cli.ExitUsage, Err: err, Msg: fmt.Sprintf("cannot read %s: %v", path, pe.Err)}
	}
	if de, ok := errors.AsType[*settings.DotenvError](err); ok {
		return nil, &cli.Error{Code: cli.ExitUsage, Err: err, Msg: de.Error(),
			Fix: "write one NAME=value per line (quote values with spaces), or remove the file"}
	}
	return env, err
}

// Problem is one thing wrong with the settings.
type Problem struct {
	// Vars names the variables the problem concerns.
	Vars []string
	// Text says what is wrong; Fix, if not "", what to do about it.
	Text, Fix string
	// Missing means the one variable in Vars is not set at all.
	Missing bool
}
