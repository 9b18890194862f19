package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// Installations are the installation records (store.Installations).
type Installations interface {
	Find(ctx context.Context, ws store.Workspace) (store.Installation, error)
	Get(ctx context.Context, id string) (store.Installation, error)
	Save(ctx context.Context, in store.Installation) (store.Installation, error)
	Delete(ctx context.Context, id string) (bool, error)
	TakeTurn(ctx context.Context, id string, hold time.Duration) (func(context.Context), bool, error)
	Changes(ctx context.Context) <-chan string
}

// DirectoryConfig is what a Directory needs of Slack.
type DirectoryConfig struct {
	// ClientID and ClientSecret are the Slack app's (SLACK_CLIENT_ID,
	// SLACK_CLIENT_SECRET), for oauth.v2.access.
	ClientID, ClientSecret string
	// SlackOptions make each workspace's client (the API URL, retries).
	SlackOptions []slack.Option
	// APIURL is Slack's Web API base (SLACK_API_URL), for oauth.v2.access.
	APIURL string
	// HTTP makes the oauth.v2.access calls (default: 10 s timeout).
	HTTP *http.Client
	// Teams are the workspaces and organisations served (Config.Teams);
	// none: every one that installed.
	Teams []string
	// InstallURL is where a workspace adds docsbot again (the public URL's
	// PathInstall), told to its people when it cannot be served.
	InstallURL string
	// Now is the clock tokens expire on (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
}

// Directory is install mode's bot.Workspaces: each workspace's client, made
// with the token of the installation that serves it, and who the bot is
// there. It caches what it read (an installation costs one Redis command
// the first time, none after) until a change is published (Run), or until
// Slack refuses the token (Forget), and refreshes a rotating token before
// it runs out (refresh.go). It never hands out another workspace's token,
// nor one that has expired.
type Directory struct {
	cfg   DirectoryConfig
	store Installations
	// none is the client of a workspace docsbot cannot call: no token;
	// unavailable the one of a workspace whose token cannot be had now.
	none, unavailable *slack.Client

	mu sync.Mutex
	// epoch counts the Forgets: a record read before one is not cached
	// (it may be what was forgotten).
	epoch uint64
	// byWS is each workspace's entry (nil: known not installed), byID each
	// record's.
	byWS map[store.Workspace]*entry
	byID map[string]*entry
}

// entry is an installation as a replica holds it.
type entry struct {
	in     store.Installation
	client *slack.Client
	// served are the workspaces that found it (an org-wide install serves
	// many).
	served []store.Workspace
}

// NewDirectory is a Directory over the installation records.
func NewDirectory(cfg DirectoryConfig, st Installations) *Directory {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 10 * time.Second}
	}
	none := slack.New("", append(slices.Clip(cfg.SlackOptions), slack.OptionHTTPClient(&http.Client{Transport: noToken{}}))...)
	unavailable := slack.New("", append(slices.Clip(cfg.SlackOptions), slack.OptionHTTPClient(&http.Client{Transport: noTokenNow{}}))...)
	return &Directory{cfg: cfg, store: st, none: none, unavailable: unavailable,
		byWS: map[store.Workspace]*entry{}, byID: map[string]*entry{}}
}

// noToken answers every call of a workspace docsbot has no token for as
// Slack answers a call without one (not_authed), without sending it: the
// caller ends its work as for any refused token, and nothing leaves the
// process.
type noToken struct{}

func (noToken) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_ = r.Body.Close()
	}
	body := `{"ok":false,"error":"not_authed"}`
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)), Request: r}, nil
}

// noTokenNow answers every call as Slack answers when it is in trouble
// (503), without sending it: the caller tries again later, as for any of
// Slack's passing failures (bot.TransientSlack).
type noTokenNow struct{}

func (noTokenNow) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_ = r.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusServiceUnavailable, Status: "503 Service Unavailable", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

// errNotInstalled: no installation serves the workspace.
var errNotInstalled = errors.New("install: docsbot is not installed in this workspace")

// Client is ws's client (bot.Workspaces): its installation's token,
// refreshed first when it is due; a client without a token when docsbot
// is not installed there, the installation is broken or its token has
// expired and could not be refreshed.
func (d *Directory) Client(ctx context.Context, ws bot.Workspace) *slack.Client {
	e, err := d.usable(ctx, ws, true)
	switch {
	case errors.Is(err, errNotInstalled) || errors.Is(err, ErrBroken):
		d.cfg.Logger.Warn("no Slack token for the workspace; its call is not made", "team", ws.Team, "enterprise", ws.Enterprise, "err", err)
		return d.none
	case err != nil:
		// Redis cannot say, or the token ran out and could not be
		// renewed yet: the call fails as Slack's passing trouble does, and
		// the work tries again later.
		d.cfg.Logger.Warn("the workspace's Slack token cannot be had now; its call is not made and is tried again later", "team", ws.Team, "enterprise", ws.Enterprise, "err", err)
		return d.unavailable
	}
	return e.client
}

// Identity is who the bot is in ws (bot.Workspaces): the installation's bot
// user, in ws's team.
func (d *Directory) Identity(ctx context.Context, ws bot.Workspace) (bot.Identity, bool) {
	e, err := d.lookup(ctx, ws)
	if err != nil {
		return bot.Identity{}, false
	}
	id := bot.Identity{UserID: e.in.BotUserID, BotID: e.in.BotID, TeamID: ws.Team, EnterpriseID: ws.Enterprise}
	if id.TeamID == "" {
		id.TeamID = e.in.Workspace.Team
	}
	if id.EnterpriseID == "" {
		id.EnterpriseID = e.in.Workspace.Enterprise
	}
	return id, true
}

// InstalledBy is who installed docsbot in ws, "" when it is not installed:
// an admin of ws (bot.AdminRefusal). An org-wide install's installer is
// an admin of every workspace of the organisation.
func (d *Directory) InstalledBy(ctx context.Context, ws bot.Workspace) string {
	e, err := d.lookup(ctx, ws)
	if err != nil {
		return ""
	}
	return e.in.InstalledBy
}

// Installation is the installation that serves ws: ErrNotFound (wrapped)
// when none does.
func (d *Directory) Installation(ctx context.Context, ws bot.Workspace) (store.Installation, error) {
	e, err := d.lookup(ctx, ws)
	if err != nil {
		return store.Installation{}, err
	}
	return e.in, nil
}

// usable is ws's entry with a token that has not expired: refreshed first
// when due. With wait, an expired token another replica is refreshing is
// waited for (awaitTurn); without, as in an ack, it is ErrExpired at once.
func (d *Directory) usable(ctx context.Context, ws bot.Workspace, wait bool) (*entry, error) {
	if !Allowed(d.cfg.Teams, ws) {
		return nil, errNotInstalled
	}
	e, err := d.lookup(ctx, ws)
	if err != nil {
		return nil, err
	}
	now := d.cfg.Now()
	if !e.in.Broken.IsZero() {
		return nil, fmt.Errorf("install: %s: Slack refused the refresh token; the workspace must install docsbot again: %w", e.in.ID(), ErrBroken)
	}
	if refreshDue(e.in, now) {
		e = d.refresh(ctx, e, wait)
	}
	if expired(e.in, d.cfg.Now()) {
		return nil, fmt.Errorf("install: %s: the token expired and could not be refreshed: %w", e.in.ID(), ErrExpired)
	}
	return e, nil
}

// lookup is ws's entry, read from Redis when the replica has none.
func (d *Directory) lookup(ctx context.Context, ws bot.Workspace) (*entry, error) {
	if ws.IsZero() {
		return nil, errNotInstalled
	}
	d.mu.Lock()
	e, known := d.byWS[ws]
	epoch := d.epoch
	d.mu.Unlock()
	if known {
		if e == nil {
			return nil, errNotInstalled
		}
		return e, nil
	}
	in, err := d.store.Find(ctx, ws)
	switch {
	case errors.Is(err, store.ErrNotFound):
		d.mu.Lock()
		if d.epoch == epoch {
			d.byWS[ws] = nil
		}
		d.mu.Unlock()
		return nil, errNotInstalled
	case err != nil:
		return nil, fmt.Errorf("install: reading the installation of %s: %w", ws, err)
	}
	return d.keepRead(in, epoch, ws), nil
}

// keepRead caches in, read when the Forgets counted epoch, unless a Forget
// came since: then it is used once and read again next time.
func (d *Directory) keepRead(in store.Installation, epoch uint64, ws store.Workspace) *entry {
	d.mu.Lock()
	stale := d.epoch != epoch
	d.mu.Unlock()
	if stale {
		return &entry{in: in, client: slack.New(in.BotToken, d.cfg.SlackOptions...)}
	}
	return d.keep(in, ws)
}

// keep caches in for ws (and every workspace that found its record before)
// and returns its entry.
func (d *Directory) keep(in store.Installation, ws ...store.Workspace) *entry {
	d.mu.Lock()
	defer d.mu.Unlock()
	id := in.ID()
	e := &entry{in: in, client: slack.New(in.BotToken, d.cfg.SlackOptions...)}
	if old := d.byID[id]; old != nil {
		if old.in.Version == in.Version {
			e = old
		} else {
			e.served = old.served
		}
	}
	for _, w := range ws {
		if d.byWS[w] != e {
			d.byWS[w] = e
			e.served = append(e.served, w)
		}
	}
	for _, w := range e.served {
		d.byWS[w] = e
	}
	d.byID[id] = e
	return e
}

// Forget drops what the replica holds of record id (a change published,
// an uninstall, a token Slack refused), and every workspace known not to be
// installed: the next lookup reads Redis again.
func (d *Directory) Forget(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.epoch++
	if e := d.byID[id]; e != nil {
		for _, w := range e.served {
			delete(d.byWS, w)
		}
		delete(d.byID, id)
	}
	for w, e := range d.byWS {
		if e == nil {
			delete(d.byWS, w)
		}
	}
}

// Run forgets each record another replica (or this one) changed, until ctx
// ends: a rotation or an uninstall is seen by every replica as soon as
// Redis tells it. Run with bot.Background.
func (d *Directory) Run(ctx context.Context) {
	for id := range d.store.Changes(ctx) {
		d.Forget(id)
		d.cfg.Logger.Debug(LogForgotten, "installation", id)
	}
}

// LogForgotten is logged (debug) each time a replica forgets an
// installation that changed on some replica.
const LogForgotten = "an installation changed; this replica forgot its copy"

// Cached is how many installations the replica holds, for the load tool.
func (d *Directory) Cached() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.byID)
}

// Unserved is what a person of ws is told when docsbot cannot serve it
// (bot.Workspaces): not installed, or its refresh token refused; "" when it
// can. A failure to read Redis is not told here: the command's own work
// meets it. Nor is a token that ran out and is not renewed yet (the
// replica refreshing it went away holding the turn): the workspace is
// served, its work is recorded and its calls, failing as Slack's passing
// trouble does (Client), are tried again once the token is renewed; turned
// away here, its events and buttons would be acknowledged and dropped.
//
// A token due is refreshed here, so that a workspace whose refresh token
// Slack refuses is told at its next command.
func (d *Directory) Unserved(ctx context.Context, ws bot.Workspace) string {
	if !Allowed(d.cfg.Teams, ws) {
		return "This docsbot does not serve this workspace. Ask whoever runs docsbot to add it."
	}
	_, err := d.usable(ctx, ws, false) // in the ack: Slack waits 3 s
	switch {
	case errors.Is(err, errNotInstalled):
		return "docsbot is not installed in this workspace any more. Ask an admin of the workspace to add it again" + d.installHint() + "."
	case errors.Is(err, ErrBroken):
		return "docsbot lost its access to this workspace (Slack refused to renew its token). Ask an admin of the workspace to add it again" + d.installHint() + "; nothing is lost."
	}
	return ""
}

// Allowed reports whether ws is among teams (its team or its
// organisation); every workspace is when teams is empty.
func Allowed(teams []string, ws bot.Workspace) bool {
	return len(teams) == 0 || (ws.Team != "" && slices.Contains(teams, ws.Team)) ||
		(ws.Enterprise != "" && slices.Contains(teams, ws.Enterprise))
}

// installHint says where docsbot is added from, when known.
func (d *Directory) installHint() string {
	if d.cfg.InstallURL == "" {
		return ""
	}
	return ": " + d.cfg.InstallURL
}
