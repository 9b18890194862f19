package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Connections are the docs projects a workspace connected from Slack (the
// Settings of docsbot's Home): per workspace, each project by its name,
// with its keys sealed (seal.go) and bound to the workspace and the name.
// A change is published to every replica (Changes).
//
//	{p}conn:{c}:<team>     hash: name -> the connection (JSON, keys sealed)
//	{p}conn:changed        pub/sub: the team whose connections changed
//
// The hint of a key ("mint_…abcd") is kept in the clear, for the Home to
// show which key is in use; nothing else of a key is.
type Connections struct {
	s    *Store
	seal *Sealer
}

// Connections returns the Store's connections, sealed with seal.
func (s *Store) Connections(seal *Sealer) Connections { return Connections{s: s, seal: seal} }

// Connection is a docs project connected from Slack in one workspace.
type Connection struct {
	// Team is the workspace (team id) that connected it.
	Team string
	// Name is what people there type in project=NAME.
	Name string
	// ProjectID is the docs platform's project id.
	ProjectID string
	// APIKey is the project's API key (mint_…); sealed in Redis.
	APIKey string
	// AssistantKey is the docs assistant's key (mint_dsc_…), "" for none;
	// sealed in Redis.
	AssistantKey string
	// Domain is the docs site's domain the assistant answers for.
	Domain string
	// SiteURL is the public docs site, which answers link to; "" for none.
	SiteURL string
	// By is the Slack user who connected it, At when.
	By string
	At time.Time
	// Retired is when it was disconnected, zero while connected: a
	// disconnected project takes no new work, but the work it has (a job
	// running) is still followed with its keys until RetiredKept has
	// passed, when List forgets it.
	Retired time.Time
}

// RetiredKept is how long a disconnected project's keys are kept for the
// work it still has.
const RetiredKept = 7 * 24 * time.Hour

// KeyHint shows a key as the Home may: its kind's prefix and its last four
// characters ("mint_…abcd"), never more; a key too short to spare four
// characters shows its prefix alone.
func KeyHint(key string) string {
	if key == "" {
		return ""
	}
	prefix := ""
	for _, p := range []string{"mint_dsc_", "mint_"} {
		if len(key) >= len(p) && key[:len(p)] == p {
			prefix = p
			break
		}
	}
	if len(key) < len(prefix)+8 {
		return prefix + "…"
	}
	return prefix + "…" + key[len(key)-4:]
}

// connRecord is a Connection as Redis keeps it.
type connRecord struct {
	ProjectID        string    `json:"project_id"`
	APIKey           string    `json:"api_key"` // sealed
	APIKeyHint       string    `json:"api_key_hint"`
	AssistantKey     string    `json:"assistant_key,omitempty"` // sealed
	AssistantKeyHint string    `json:"assistant_key_hint,omitempty"`
	Domain           string    `json:"domain,omitempty"`
	SiteURL          string    `json:"site_url,omitempty"`
	By               string    `json:"by"`
	At               time.Time `json:"at"`
	Retired          time.Time `json:"retired,omitzero"`
}

func (cs Connections) key(team string) string { return cs.s.prefix + "conn:{c}:" + team }
func (cs Connections) changedChannel() string { return cs.s.prefix + "conn:changed" }

// aad binds a sealed key to its workspace, its project and its use.
func connAAD(team, name, use string) []byte { return []byte("conn:" + team + ":" + name + ":" + use) }

func (cs Connections) check() error {
	if cs.seal == nil {
		return fmt.Errorf("store: connections without a secrets key: %w", ErrInvalid)
	}
	return nil
}

// Save writes c (a new connection, or new keys for one), and tells every
// replica (Changes).
func (cs Connections) Save(ctx context.Context, c Connection) error {
	if err := cs.check(); err != nil {
		return err
	}
	if c.Team == "" || c.Name == "" || c.ProjectID == "" || c.APIKey == "" {
		return fmt.Errorf("store: save connection: no workspace, name, project or key: %w", ErrInvalid)
	}
	rec := connRecord{ProjectID: c.ProjectID, APIKeyHint: KeyHint(c.APIKey), Domain: c.Domain, SiteURL: c.SiteURL, By: c.By, At: c.At.UTC()}
	if !c.Retired.IsZero() {
		rec.Retired = c.Retired.UTC()
	}
	var err error
	if rec.APIKey, err = cs.seal.Seal([]byte(c.APIKey), connAAD(c.Team, c.Name, "api")); err != nil {
		return err
	}
	if c.AssistantKey != "" {
		rec.AssistantKeyHint = KeyHint(c.AssistantKey)
		if rec.AssistantKey, err = cs.seal.Seal([]byte(c.AssistantKey), connAAD(c.Team, c.Name, "assistant")); err != nil {
			return err
		}
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("store: save connection: %w", err)
	}
	if err := cs.s.rdb.HSet(ctx, cs.key(c.Team), c.Name, raw).Err(); err != nil {
		return wrapErr(err, "store: save connection %s of %s", c.Name, c.Team)
	}
	cs.tell(ctx, c.Team)
	return nil
}

// Delete forgets the connection name of team and reports whether there
// was one; every replica is told.
func (cs Connections) Delete(ctx context.Context, team, name string) (bool, error) {
	n, err := cs.s.rdb.HDel(ctx, cs.key(team), name).Result()
	if err != nil {
		return false, wrapErr(err, "store: delete connection %s of %s", name, team)
	}
	cs.tell(ctx, team)
	return n > 0, nil
}

// List reads the connections of team in one command, by name, those
// disconnected (Retired) too. A connection whose keys do not open (its
// secrets key no longer in the list) is returned in bad by name with its
// error. One disconnected more than RetiredKept ago is forgotten.
func (cs Connections) List(ctx context.Context, team string) (list []Connection, bad map[string]error, err error) {
	if err := cs.check(); err != nil {
		return nil, nil, err
	}
	all, err := cs.s.rdb.HGetAll(ctx, cs.key(team)).Result()
	if err != nil {
		return nil, nil, wrapErr(err, "store: connections of %s", team)
	}
	for name, raw := range all {
		c, err := cs.decode(team, name, raw)
		if err != nil {
			if bad == nil {
				bad = map[string]error{}
			}
			bad[name] = err
			continue
		}
		if !c.Retired.IsZero() && time.Since(c.Retired) > RetiredKept {
			if err := cs.s.rdb.HDel(ctx, cs.key(team), name).Err(); err != nil {
				cs.s.log.Debug("store: a connection disconnected long ago not forgotten", "err", err)
			}
			continue
		}
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list, bad, nil
}

func (cs Connections) decode(team, name, raw string) (Connection, error) {
	var rec connRecord
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		return Connection{}, fmt.Errorf("store: connection %s of %s: %w", name, team, err)
	}
	c := Connection{Team: team, Name: name, ProjectID: rec.ProjectID, Domain: rec.Domain, SiteURL: rec.SiteURL, By: rec.By, At: rec.At, Retired: rec.Retired}
	key, err := cs.seal.Open(rec.APIKey, connAAD(team, name, "api"))
	if err != nil {
		return Connection{}, fmt.Errorf("store: connection %s of %s: API key: %w", name, team, err)
	}
	c.APIKey = string(key)
	if rec.AssistantKey != "" {
		key, err := cs.seal.Open(rec.AssistantKey, connAAD(team, name, "assistant"))
		if err != nil {
			return Connection{}, fmt.Errorf("store: connection %s of %s: assistant key: %w", name, team, err)
		}
		c.AssistantKey = string(key)
	}
	return c, nil
}

// tell publishes that team's connections changed; a lost message is made
// up for by the readers' short cache.
func (cs Connections) tell(ctx context.Context, team string) {
	if err := cs.s.rdb.Publish(ctx, cs.changedChannel(), team).Err(); err != nil {
		cs.s.log.Debug("store: connection change not published", "err", err)
	}
}

// Changes delivers the team of every change saved by any replica until
// ctx ends.
func (cs Connections) Changes(ctx context.Context) <-chan string {
	return cs.s.subscribe(ctx, cs.changedChannel())
}

// Teams returns the workspaces that connected docs projects from Slack
// (those disconnected and not yet forgotten included), sorted; it opens
// no key, so needs no secrets key.
func (cs Connections) Teams(ctx context.Context) ([]string, error) {
	prefix := cs.s.prefix + "conn:{c}:"
	var teams []string
	scan := func(ctx context.Context, rdb redis.Cmdable) error {
		iter := rdb.Scan(ctx, 0, escapeGlob(prefix)+"*", 500).Iterator()
		for iter.Next(ctx) {
			teams = append(teams, strings.TrimPrefix(iter.Val(), prefix))
		}
		return iter.Err()
	}
	var err error
	if cc, ok := cs.s.rdb.(*redis.ClusterClient); ok {
		var mu sync.Mutex
		err = cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			mu.Lock() // one node holds them all ({c}); the lock keeps teams whole
			defer mu.Unlock()
			return scan(ctx, node)
		})
	} else {
		err = scan(ctx, cs.s.rdb)
	}
	if err != nil {
		return nil, wrapErr(err, "store: the workspaces with connections")
	}
	slices.Sort(teams)
	return slices.Compact(teams), nil
}

// Names returns the names of the projects team connected (those
// disconnected and not yet forgotten included), sorted; it opens no key.
func (cs Connections) Names(ctx context.Context, team string) ([]string, error) {
	names, err := cs.s.rdb.HKeys(ctx, cs.key(team)).Result()
	if err != nil {
		return nil, wrapErr(err, "store: the connections of %s", team)
	}
	slices.Sort(names)
	return names, nil
}
