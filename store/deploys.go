package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// The deployments and previews docsbot started, per workspace, for
// `/docs-deploy status`: each a record kept for DeployRetention, and a list
// of the workspace's latest DeploysKept:
//
//	{p}deploy:<team>:<id>                string: a deployment's or preview's record (JSON, SaveDeploy, AddDeploy, UpdateDeploy)
//	{p}deploys:<team>                    sorted set: record id -> started (unix ms); the latest DeploysKept

// DeployRetention is how long a deployment's record is kept.
const DeployRetention = 30 * 24 * time.Hour

// DeploysKept is how many deployments a workspace's list keeps.
const DeploysKept = 20

// DeployRecord is a deployment or a preview docsbot started.
type DeployRecord struct {
	// ID is docsbot's id of the record: the work that started it.
	ID string `json:"id"`
	// Preview marks a preview of Branch; otherwise a deployment.
	Preview bool   `json:"preview,omitempty"`
	Branch  string `json:"branch,omitempty"`
	Project string `json:"project,omitempty"`
	// StatusID is the docs API's id to follow, "" while unknown.
	StatusID   string `json:"status_id,omitempty"`
	PreviewURL string `json:"preview_url,omitempty"`
	// State is the last state seen ("queued", "in_progress", "success",
	// "failure"), or "unknown" when docsbot could not tell whether it started.
	State string `json:"state"`
	// User, Channel and TS are who asked, and the message showing it.
	User    string    `json:"user"`
	Channel string    `json:"channel"`
	TS      string    `json:"ts,omitempty"`
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended,omitzero"`
	// Workspace is the Slack workspace it was asked in; zero for the one
	// workspace and in records kept before it was recorded.
	Workspace Workspace `json:"ws,omitzero"`
}

// Deploys is the deployments and previews docsbot started.
type Deploys struct{ s *Store }

// Deploys returns the Store's deployments.
func (s *Store) Deploys() Deploys { return Deploys{s} }

func (s *Store) deployKey(team, id string) string { return s.prefix + "deploy:" + team + ":" + id }
func (s *Store) deploysKey(team string) string    { return s.prefix + "deploys:" + team }

// SaveDeploy writes r, a record of team, and keeps it in the team's list
// (the latest DeploysKept). Saving the same id again replaces the record.
// It is 4 commands in one round trip.
func (ds Deploys) SaveDeploy(ctx context.Context, team string, r DeployRecord) error {
	return ds.save(ctx, team, r, false)
}

// AddDeploy is SaveDeploy for a record's first state: a record of r's id
// already there is kept, so that a start tried again (its end lost) does
// not take back what its follow work recorded since. The list entry is
// written again, the same as before.
func (ds Deploys) AddDeploy(ctx context.Context, team string, r DeployRecord) error {
	return ds.save(ctx, team, r, true)
}

// UpdateDeploy replaces the record r of team, listed already by SaveDeploy
// or AddDeploy: the list entry, whose score is the start, is the same at
// every save, so only the record is written (1 command). A record listed
// more than DeployRetention ago would come back unlisted; a deployment is
// followed for far less.
func (ds Deploys) UpdateDeploy(ctx context.Context, team string, r DeployRecord) error {
	s := ds.s
	body, err := ds.body(team, r)
	if err != nil {
		return err
	}
	if err := s.rdb.Set(ctx, s.deployKey(team, r.ID), body, DeployRetention).Err(); err != nil {
		return wrapErr(err, "store: update deploy")
	}
	return nil
}

// body is r as stored, after the checks of a save.
func (ds Deploys) body(team string, r DeployRecord) ([]byte, error) {
	if team == "" || r.ID == "" || r.Started.IsZero() {
		return nil, fmt.Errorf("store: save deploy %q: %w", r.ID, ErrInvalid)
	}
	body, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("store: save deploy %q: %w", r.ID, err)
	}
	return body, nil
}

// save writes r (only when none is there, if keep) and its list entry in
// one pipeline, not a transaction: two saves interleaved still leave the
// newest DeploysKept (an add and a trim by rank commute with another's),
// and a reader checks each id against its record, so an entry written
// before its record, or one left after the record is gone, is skipped.
// What a pipeline cut short can leave is a trim not made (more than
// DeploysKept listed until the next save) or, for a team's first entry, a
// list without its expiry until the next save.
func (ds Deploys) save(ctx context.Context, team string, r DeployRecord, keep bool) error {
	s := ds.s
	body, err := ds.body(team, r)
	if err != nil {
		return err
	}
	key, list := s.deployKey(team, r.ID), s.deploysKey(team)
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		if keep {
			p.SetNX(ctx, key, body, DeployRetention)
		} else {
			p.Set(ctx, key, body, DeployRetention)
		}
		p.ZAdd(ctx, list, redis.Z{Score: float64(r.Started.UnixMilli()), Member: r.ID})
		p.Expire(ctx, list, DeployRetention)
		p.ZRemRangeByRank(ctx, list, 0, -DeploysKept-1)
		return nil
	})
	if err != nil {
		return wrapErr(err, "store: save deploy")
	}
	return nil
}

// Deploy returns the record id of team: ErrNotFound when there is none.
func (ds Deploys) Deploy(ctx context.Context, team, id string) (DeployRecord, error) {
	s := ds.s
	var r DeployRecord
	if err := s.getJSON(ctx, s.deployKey(team, id), &r, "deploy "+id); err != nil {
		return DeployRecord{}, err
	}
	return r, nil
}

// RecentDeploys returns the latest records of team, newest first, at most n.
func (ds Deploys) RecentDeploys(ctx context.Context, team string, n int) ([]DeployRecord, error) {
	s := ds.s
	ids, err := s.rdb.ZRevRange(ctx, s.deploysKey(team), 0, int64(max(n, 1)-1)).Result()
	if err != nil {
		return nil, wrapErr(err, "store: recent deploys")
	}
	var out []DeployRecord
	for _, id := range ids {
		r, err := ds.Deploy(ctx, team, id)
		switch {
		case errors.Is(err, ErrNotFound):
			continue // expired
		case err != nil:
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
