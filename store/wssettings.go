package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// WorkspaceSettings are the settings a workspace's admins set in Slack (the
// Settings of docsbot's Home), one hash per workspace, each setting under
// its caller's key (bot/settings has the table of them), with who set it
// and when; a setting cleared is deleted. A change is published to every
// replica (Changes). No secret is ever one of them.
//
//	{p}wsset:<team>        hash: setting key -> the value set (JSON: v, by, at)
//	{p}wsset:changed       pub/sub: the team whose settings changed
type WorkspaceSettings struct{ s *Store }

// WorkspaceSettings returns the Store's settings set in Slack.
func (s *Store) WorkspaceSettings() WorkspaceSettings { return WorkspaceSettings{s} }

// WorkspaceSetting is one setting of a workspace as set in Slack.
type WorkspaceSetting struct {
	// Key names the setting.
	Key string `json:"-"`
	// Value is the value set, as text; "" clears the setting (Apply).
	Value string `json:"v"`
	// By is the Slack user who set it, At when.
	By string    `json:"by"`
	At time.Time `json:"at"`
}

// luaApplySettings: KEYS the workspace's hash; ARGV pairs of a field and
// its new record ("" deletes it). Returns the old records, in order (""
// for none), all written in one step.
const luaApplySettings = `
local old = {}
for i = 1, #ARGV, 2 do
  old[#old + 1] = redis.call('HGET', KEYS[1], ARGV[i]) or ''
  if ARGV[i + 1] == '' then
    redis.call('HDEL', KEYS[1], ARGV[i])
  else
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
return old
`

func (ws WorkspaceSettings) key(team string) string { return ws.s.prefix + "wsset:" + team }
func (ws WorkspaceSettings) changedChannel() string { return ws.s.prefix + "wsset:changed" }

// Apply writes the changes of team's settings at once (a Value "" clears
// its setting), tells every replica (Changes), and returns what each key
// held before (none: not in old).
func (ws WorkspaceSettings) Apply(ctx context.Context, team string, changes []WorkspaceSetting) (old map[string]WorkspaceSetting, err error) {
	if team == "" || len(changes) == 0 {
		return nil, fmt.Errorf("store: workspace settings: no workspace or no change: %w", ErrInvalid)
	}
	args := make([]any, 0, 2*len(changes))
	for _, c := range changes {
		if c.Key == "" {
			return nil, fmt.Errorf("store: workspace settings of %s: a setting without a key: %w", team, ErrInvalid)
		}
		rec := ""
		if c.Value != "" {
			c.At = c.At.UTC()
			raw, err := json.Marshal(c)
			if err != nil {
				return nil, fmt.Errorf("store: workspace settings of %s: %w", team, err)
			}
			rec = string(raw)
		}
		args = append(args, c.Key, rec)
	}
	res, err := ws.s.sc.applySettings.Run(ctx, ws.s.rdb, []string{ws.key(team)}, args...).StringSlice()
	if err != nil {
		return nil, wrapErr(err, "store: set the settings of %s", team)
	}
	old = map[string]WorkspaceSetting{}
	for i, raw := range res {
		if raw == "" || i >= len(changes) {
			continue
		}
		if s, err := decodeSetting(changes[i].Key, raw); err == nil {
			old[s.Key] = s
		}
	}
	if err := ws.s.rdb.Publish(ctx, ws.changedChannel(), team).Err(); err != nil {
		ws.s.log.Debug("store: a change of workspace settings not published", "err", err)
	}
	return old, nil
}

// All reads every setting team set, by key, in one command.
func (ws WorkspaceSettings) All(ctx context.Context, team string) (map[string]WorkspaceSetting, error) {
	all, err := ws.s.rdb.HGetAll(ctx, ws.key(team)).Result()
	if err != nil {
		return nil, wrapErr(err, "store: the settings of %s", team)
	}
	out := make(map[string]WorkspaceSetting, len(all))
	for k, raw := range all {
		s, err := decodeSetting(k, raw)
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

// Of reads the setting key of each of teams in one round trip (a pipeline
// of one HGET a workspace, which a cluster splits by node): by team, those
// that set it. The digest loops read each subscribed workspace's digest
// time with it at every tick.
func (ws WorkspaceSettings) Of(ctx context.Context, key string, teams []string) (map[string]WorkspaceSetting, error) {
	if key == "" {
		return nil, fmt.Errorf("store: workspace settings: no key: %w", ErrInvalid)
	}
	cmds := make([]*redis.StringCmd, len(teams))
	_, err := ws.s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, team := range teams {
			cmds[i] = p.HGet(ctx, ws.key(team), key)
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, wrapErr(err, "store: the setting %s of %d workspaces", key, len(teams))
	}
	out := make(map[string]WorkspaceSetting, len(teams))
	for i, cmd := range cmds {
		raw, err := cmd.Result()
		switch {
		case errors.Is(err, redis.Nil):
			continue
		case err != nil:
			return nil, wrapErr(err, "store: the setting %s of %s", key, teams[i])
		}
		s, err := decodeSetting(key, raw)
		if err != nil {
			return nil, err
		}
		out[teams[i]] = s
	}
	return out, nil
}

func decodeSetting(key, raw string) (WorkspaceSetting, error) {
	var s WorkspaceSetting
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return WorkspaceSetting{}, fmt.Errorf("store: the setting %s: %w", key, err)
	}
	s.Key = key
	return s, nil
}

// Changes delivers the team of every change of settings made by any
// replica until ctx ends; a lost message is made up for by the readers'
// short cache.
func (ws WorkspaceSettings) Changes(ctx context.Context) <-chan string {
	return ws.s.subscribe(ctx, ws.changedChannel())
}
