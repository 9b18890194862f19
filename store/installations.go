package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/redis/go-redis/v9"
)

// Installations are the workspaces that installed docsbot by link (install
// mode): one record per workspace (its team) or per organisation (an
// org-wide install on Enterprise Grid: its enterprise, no team). Its tokens
// are sealed (seal.go) and bound to the record; a record carries a version
// that changes with every save, so that a replica's cache of it can tell it
// is stale, and a change is published to every replica (Changes).
//
//	{p}install:{i}              set: the ids of the records (List)
//	{p}install:{i}:<id>         string: the record (JSON, tokens sealed); id is
//	                            "T<team>" or, for an org-wide install, "E<enterprise>"
//	{p}install:{i}:<id>:turn    string: the replica refreshing its tokens (TakeTurn)
//	{p}install:changed          pub/sub: the id of a record saved or deleted
//
// All the keys share one hash tag, so that the one read of an event's
// installation (Find: the team's record and its organisation's) is one
// command on a cluster too.
type Installations struct {
	s    *Store
	seal *Sealer
}

// Installations returns the Store's installations, sealed with seal.
func (s *Store) Installations(seal *Sealer) Installations { return Installations{s: s, seal: seal} }

// Installation is one install of docsbot by link.
type Installation struct {
	// Workspace is the team that installed docsbot, with its organisation
	// on Enterprise Grid; an org-wide install has no Team.
	Workspace Workspace
	// OrgWide marks an install for a whole organisation
	// (is_enterprise_install): its token serves every team of Enterprise.
	OrgWide                  bool
	TeamName, EnterpriseName string
	// BotToken is the bot token (xoxb-); RefreshToken (xoxe-) and Expires
	// are set when Slack rotates tokens; Expires is zero when it does not.
	BotToken, RefreshToken string
	Expires                time.Time
	// Issued is when BotToken was issued (its lifetime runs to Expires).
	Issued           time.Time
	BotUserID, BotID string
	AppID            string
	Scopes           []string
	// InstalledBy is the person who installed (authed_user), at InstalledAt.
	InstalledBy string
	InstalledAt time.Time
	// Broken is when Slack refused the refresh token (the workspace must
	// install again); zero while it works. RefreshTried is the last try.
	Broken, RefreshTried time.Time
	// Version changes with every save (Save sets it).
	Version string
}

// ID is the record's id: "T<team>", or "E<enterprise>" for an org-wide
// install.
func (in Installation) ID() string {
	if in.OrgWide {
		return "E" + in.Workspace.Enterprise
	}
	return "T" + in.Workspace.Team
}

// installRecord is an Installation as Redis keeps it: the tokens sealed.
type installRecord struct {
	Team           string    `json:"team,omitempty"`
	Enterprise     string    `json:"ent,omitempty"`
	OrgWide        bool      `json:"org,omitempty"`
	TeamName       string    `json:"tn,omitempty"`
	EnterpriseName string    `json:"en,omitempty"`
	BotToken       string    `json:"bt"`
	RefreshToken   string    `json:"rt,omitempty"`
	Expires        time.Time `json:"exp,omitzero"`
	Issued         time.Time `json:"iss,omitzero"`
	BotUserID      string    `json:"bu,omitempty"`
	BotID          string    `json:"bid,omitempty"`
	AppID          string    `json:"app,omitempty"`
	Scopes         []string  `json:"sc,omitempty"`
	InstalledBy    string    `json:"by,omitempty"`
	InstalledAt    time.Time `json:"at,omitzero"`
	Broken         time.Time `json:"broken,omitzero"`
	RefreshTried   time.Time `json:"tried,omitzero"`
	Version        string    `json:"v"`
}

func (is Installations) indexKey() string         { return is.s.prefix + "install:{i}" }
func (is Installations) key(id string) string     { return is.s.prefix + "install:{i}:" + id }
func (is Installations) turnKey(id string) string { return is.key(id) + ":turn" }
func (is Installations) changedChannel() string   { return is.s.prefix + "install:changed" }

func (is Installations) check() error {
	if is.seal == nil {
		return fmt.Errorf("store: installations without a secrets key: %w", ErrInvalid)
	}
	return nil
}

// Save writes in (a new install, a reinstall or new tokens), with a new
// Version, and tells every replica (Changes). It returns in as saved.
func (is Installations) Save(ctx context.Context, in Installation) (Installation, error) {
	if err := is.check(); err != nil {
		return Installation{}, err
	}
	if in.BotToken == "" || (in.OrgWide && in.Workspace.Enterprise == "") || (!in.OrgWide && in.Workspace.Team == "") {
		return Installation{}, fmt.Errorf("store: save installation: no token or no workspace: %w", ErrInvalid)
	}
	id := in.ID()
	v := make([]byte, 8)
	_, _ = rand.Read(v)
	in.Version = hex.EncodeToString(v)
	rec := installRecord{
		Team: in.Workspace.Team, Enterprise: in.Workspace.Enterprise, OrgWide: in.OrgWide,
		TeamName: in.TeamName, EnterpriseName: in.EnterpriseName, Expires: in.Expires, Issued: in.Issued,
		BotUserID: in.BotUserID, BotID: in.BotID, AppID: in.AppID, Scopes: in.Scopes,
		InstalledBy: in.InstalledBy, InstalledAt: in.InstalledAt, Broken: in.Broken,
		RefreshTried: in.RefreshTried, Version: in.Version,
	}
	aad := []byte(id)
	var err error
	if rec.BotToken, err = is.seal.Seal([]byte(in.BotToken), aad); err != nil {
		return Installation{}, err
	}
	if in.RefreshToken != "" {
		if rec.RefreshToken, err = is.seal.Seal([]byte(in.RefreshToken), aad); err != nil {
			return Installation{}, err
		}
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		return Installation{}, fmt.Errorf("store: save installation: %w", err)
	}
	pipe := is.s.rdb.TxPipeline()
	pipe.Set(ctx, is.key(id), raw, 0)
	pipe.SAdd(ctx, is.indexKey(), id)
	if _, err := pipe.Exec(ctx); err != nil {
		return Installation{}, wrapErr(err, "store: save installation %s", id)
	}
	is.tell(ctx, id)
	return in, nil
}

// tell publishes that the record id changed; a lost message is made up
// for by the readers' checks (a refused token reads the record again).
func (is Installations) tell(ctx context.Context, id string) {
	if err := is.s.rdb.Publish(ctx, is.changedChannel(), id).Err(); err != nil {
		is.s.log.Debug("store: installation change not published", "err", err)
	}
}

// Find reads, in one command, the installation that serves ws: the team's
// own, else its organisation's org-wide install. ErrNotFound when neither.
func (is Installations) Find(ctx context.Context, ws Workspace) (Installation, error) {
	if err := is.check(); err != nil {
		return Installation{}, err
	}
	var ids []string
	if ws.Team != "" {
		ids = append(ids, "T"+ws.Team)
	}
	if ws.Enterprise != "" {
		ids = append(ids, "E"+ws.Enterprise)
	}
	if len(ids) == 0 {
		return Installation{}, fmt.Errorf("store: find installation: no workspace: %w", ErrInvalid)
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = is.key(id)
	}
	vals, err := is.s.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return Installation{}, wrapErr(err, "store: find installation of %s", ws)
	}
	for i, v := range vals {
		if raw, ok := v.(string); ok {
			return is.decode(ids[i], raw)
		}
	}
	return Installation{}, ErrNotFound
}

// Get reads the record id (Installation.ID): ErrNotFound when there is none.
func (is Installations) Get(ctx context.Context, id string) (Installation, error) {
	if err := is.check(); err != nil {
		return Installation{}, err
	}
	raw, err := is.s.rdb.Get(ctx, is.key(id)).Result()
	if errors.Is(err, redis.Nil) {
		return Installation{}, ErrNotFound
	}
	if err != nil {
		return Installation{}, wrapErr(err, "store: installation %s", id)
	}
	return is.decode(id, raw)
}

func (is Installations) decode(id, raw string) (Installation, error) {
	var rec installRecord
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		return Installation{}, fmt.Errorf("store: installation %s: %w", id, err)
	}
	in := Installation{
		Workspace: Workspace{Team: rec.Team, Enterprise: rec.Enterprise}, OrgWide: rec.OrgWide,
		TeamName: rec.TeamName, EnterpriseName: rec.EnterpriseName, Expires: rec.Expires, Issued: rec.Issued,
		BotUserID: rec.BotUserID, BotID: rec.BotID, AppID: rec.AppID, Scopes: rec.Scopes,
		InstalledBy: rec.InstalledBy, InstalledAt: rec.InstalledAt, Broken: rec.Broken,
		RefreshTried: rec.RefreshTried, Version: rec.Version,
	}
	aad := []byte(id)
	tok, err := is.seal.Open(rec.BotToken, aad)
	if err != nil {
		return Installation{}, fmt.Errorf("store: installation %s: bot token: %w", id, err)
	}
	in.BotToken = string(tok)
	if rec.RefreshToken != "" {
		rt, err := is.seal.Open(rec.RefreshToken, aad)
		if err != nil {
			return Installation{}, fmt.Errorf("store: installation %s: refresh token: %w", id, err)
		}
		in.RefreshToken = string(rt)
	}
	return in, nil
}

// Delete forgets the record id and its tokens at once (an uninstall, a
// revocation, `docsbot workspaces forget`), and tells every replica. It
// reports whether there was one.
func (is Installations) Delete(ctx context.Context, id string) (bool, error) {
	pipe := is.s.rdb.TxPipeline()
	del := pipe.Del(ctx, is.key(id), is.turnKey(id))
	pipe.SRem(ctx, is.indexKey(), id)
	if _, err := pipe.Exec(ctx); err != nil {
		return false, wrapErr(err, "store: delete installation %s", id)
	}
	is.tell(ctx, id)
	return del.Val() > 0, nil
}

// List reads every installation, by id. Records that do not open (a key
// no longer in the list) are returned in bad by id with their error.
func (is Installations) List(ctx context.Context) (list []Installation, bad map[string]error, err error) {
	if err := is.check(); err != nil {
		return nil, nil, err
	}
	ids, err := is.s.rdb.SMembers(ctx, is.indexKey()).Result()
	if err != nil {
		return nil, nil, wrapErr(err, "store: list installations")
	}
	sort.Strings(ids)
	bad = map[string]error{}
	for start := 0; start < len(ids); start += 100 {
		part := ids[start:min(start+100, len(ids))]
		keys := make([]string, len(part))
		for i, id := range part {
			keys[i] = is.key(id)
		}
		vals, err := is.s.rdb.MGet(ctx, keys...).Result()
		if err != nil {
			return nil, nil, wrapErr(err, "store: list installations")
		}
		for i, v := range vals {
			raw, ok := v.(string)
			if !ok {
				continue
			}
			in, err := is.decode(part[i], raw)
			if err != nil {
				bad[part[i]] = err
				continue
			}
			list = append(list, in)
		}
	}
	return list, bad, nil
}

// TakeTurn takes the turn to refresh the tokens of record id for at most
// hold, across replicas: ok is false while another holds it. done gives it
// back (only if still held by this taker).
func (is Installations) TakeTurn(ctx context.Context, id string, hold time.Duration) (done func(context.Context), ok bool, err error) {
	tok := make([]byte, 8)
	_, _ = rand.Read(tok)
	mark := hex.EncodeToString(tok)
	ok, err = is.s.rdb.SetNX(ctx, is.turnKey(id), mark, hold).Result()
	if err != nil {
		return nil, false, wrapErr(err, "store: refresh turn of %s", id)
	}
	if !ok {
		return nil, false, nil
	}
	return func(ctx context.Context) {
		if err := giveBackTurn.Run(ctx, is.s.rdb, []string{is.turnKey(id)}, mark).Err(); err != nil && !errors.Is(err, redis.Nil) {
			is.s.log.Debug("store: refresh turn not given back; it expires", "err", err)
		}
	}, true, nil
}

// giveBackTurn deletes KEYS[1] if it still holds ARGV[1].
var giveBackTurn = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`)

// Changes delivers the id of every record saved or deleted by any replica
// until ctx ends (the subscription is confirmed before it returns). A
// message lost while Redis is away is not delivered again: the reader
// checks a record it trusts when Slack refuses its token.
func (is Installations) Changes(ctx context.Context) <-chan string {
	return is.s.subscribe(ctx, is.changedChannel())
}

// subscribe delivers the messages of the pub/sub channel until ctx ends
// (the subscription is confirmed, or subscribeWait passed, before it
// returns). A message lost while Redis is away is not delivered again.
func (s *Store) subscribe(ctx context.Context, channel string) <-chan string {
	sub := s.rdb.Subscribe(ctx, channel)
	wait, cancel := context.WithTimeout(ctx, subscribeWait)
	_, _ = sub.Receive(wait)
	cancel()
	out := make(chan string, 64)
	go func() {
		defer close(out)
		defer sub.Close()
		msgs := sub.Channel()
		for {
			select {
			case <-ctx.Done():
				return
			case m, ok := <-msgs:
				if !ok {
					return
				}
				select {
				case out <- m.Payload:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}
