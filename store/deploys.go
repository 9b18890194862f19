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
//	{p}deploy:<team>:<id>                string: a deployment's or preview's record (JSON, SaveDeploy)
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
}

// Deploys is the deployments and previews docsbot started.
type Deploys struct{ s *Store }

// Deploys returns the Store's deployments.
func (s *Store) Deploys() Deploys { return Deploys{s} }

func (s *Store) deployKey(team, id string) string { return s.prefix + "deploy:" + team + ":" + id }
func (s *Store) deploysKey(team string) string    { return s.prefix + "deploys:" + team }

// SaveDeploy writes r, a record of team, and keeps it in the team's list
// (the latest DeploysKept). Saving the same id again replaces the record.
func (ds Deploys) SaveDeploy(ctx context.Context, team string, r DeployRecord) error {
	s := ds.s
	if team == "" || r.ID == "" || r.Started.IsZero() {
		return fmt.Errorf("store: save deploy %q: %w", r.ID, ErrInvalid)
	}
	body, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("store: save deploy %q: %w", r.ID, err)
	}
	if err := s.rdb.Set(ctx, s.deployKey(team, r.ID), body, DeployRetention).Err(); err != nil {
		return wrapErr(err, "store: save deploy")
	}
	// The list is an index written after the record (as the job lists): a
	// reader checks each id against its record.
	list := s.deploysKey(team)
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZAdd(ctx, list, redis.Z{Score: float64(r.Started.UnixMilli()), Member: r.ID})
		p.ZRemRangeByRank(ctx, list, 0, -DeploysKept-1)
		p.Expire(ctx, list, DeployRetention)
		return nil
	})
	if err != nil {
		return wrapErr(err, "store: list deploy")
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
