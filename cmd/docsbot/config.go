package main

import (
	"flag"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/docsapi"
)

// env is where this invocation looks its settings up (config.Env).
func (r *runner) env() config.Env {
	return config.Env{LookupEnv: r.lookupEnv, Dir: r.dir, Stderr: r.stderr}
}

// loadConfig resolves the docs API settings of the flags given (config.Env.API).
func (r *runner) loadConfig(flags settings.Values) (config.API, error) { return r.env().API(flags) }

// loadServeConfig resolves every setting of the bot (config.Env.Serve).
func (r *runner) loadServeConfig(flags settings.Values) (config.Serve, error) {
	return r.env().Serve(flags)
}

// apiCommand is a subcommand that calls the docs API: its flags (the docs
// API's settings, --format and the command's own, defined on the embedded
// flag set), then, once parsed, its client and the words of its errors.
type apiCommand struct {
	*flag.FlagSet
	r      *runner
	api    func() settings.Values
	format *cli.Format
	cfg    config.API
}

// apiCommand defines the flags of an API subcommand; --format takes one of
// formats, the first by default.
func (r *runner) apiCommand(name, usage string, formats ...string) *apiCommand {
	fs := r.flagSet(name, usage)
	c := &apiCommand{FlagSet: fs, r: r, api: config.Table().Flags(fs, true), format: cli.NewFormat(formats...)}
	fs.Var(c.format, "format", c.format.Usage())
	return c
}

// parse parses args and returns the positional ones (runner.parseFlags).
func (c *apiCommand) parse(args []string) ([]string, error) { return c.r.parseFlags(c.FlagSet, args) }

// client connects to the docs API with the settings given (config.Env.API).
func (c *apiCommand) client() (*docsapi.Client, error) {
	cfg, err := c.r.loadConfig(c.api())
	if err != nil {
		return nil, err
	}
	c.cfg = cfg
	return newAPIClient(cfg)
}

// explain words an error of the client's op on the job id ("" for none).
func (c *apiCommand) explain(err error, op, id string) error {
	return explain(err, call{op: op, cfg: c.cfg, jobID: id, now: c.r.now()})
}

// newAPIClient is the one place a docs API client is built: for the base URL,
// key and project of cfg, with opts after them. Its User-Agent is the
// client's default, docsbot/<version>. An error is explained for the user.
func newAPIClient(cfg config.API, opts ...docsapi.Option) (*docsapi.Client, error) {
	c, err := docsapi.NewClient(cfg.APIKey, cfg.ProjectID, append([]docsapi.Option{docsapi.WithBaseURL(cfg.APIURL)}, opts...)...)
	if err != nil {
		return nil, explain(err, call{op: "connect", cfg: cfg})
	}
	return c, nil
}
